package dev.checkpointdoctor.detector.baseline;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * When a run of out-of-band observations is persistent enough to open an anomaly.
 *
 * <p>A run is a sequence of consecutive out-of-band observations on one side of the band (a
 * sawtooth such as the checkpoint age leaves the band every other scrape, which is not a run). It
 * opens an anomaly when it holds {@code openAfter} out-of-band observations, or ends with {@link
 * #STRONG_OPEN_AFTER} far out in a row once it has lasted {@link #FAR_MIN_SPAN_MS}.
 *
 * <p>Both adapt to the scope, from what its observations did while no anomaly was open, with a
 * memory of about {@link #RATE_MEMORY} observations:
 *
 * <ul>
 *   <li>The count rises for a scope whose values often leave the band by themselves: a run must
 *       be long enough that a scope with its out-of-band rate makes one by chance about once in
 *       {@code 1 / CHANCE} observations ({@code k >= log(CHANCE) / log(rate)}); what that adds to
 *       the prior rate's three is added to {@code openAfter}. The rate starts from the prior.
 *       Noise that wanders stays out once out ({@link SerialDependence}): with the lag-1
 *       correlation {@code rho} of the scope's baseline window, a run of {@code k} comes by
 *       chance at {@code rate * persistence^(k-1)}, and {@code k} grows until that is {@code
 *       CHANCE}. Independent noise ({@code rho} 0) keeps {@code rate^k}. The correlation is the
 *       window's, known before the scope ever left its band, not learnt from excursions (which
 *       during a fault would teach that runs are common). How far out the run is matters:
 *       wandering noise that crossed the edge lingers just past it, seldom far beyond, so the
 *       run's newest observations beyond some distance are judged with the rate carried out
 *       to that distance along the Gaussian tail (a skew or a growth that sits or climbs well
 *       out opens about as soon as in a calm scope; a run hugging the edge needs the full
 *       length). Distances count in the noise, not in the band: a band held wider than the
 *       scope's spread asks (a floor, a young band's widening, a load-scaled upper bound) has
 *       its edge that much further out, where wandering seldom reaches.
 *   <li>"Far out" is at least {@link #STRONG_BAND} band half-widths from the expected value, and
 *       beyond what the scope's own excursions reach more often than once in {@code 1 /
 *       sqrt(CHANCE)} observations ({@link ExcursionTail}), so two far-out ones in a row are as
 *       rare as {@code CHANCE}: a subtask whose in-flight data has a heavy tail, or a series with
 *       bursts, must go further out than a calm one. Until a scope has been watched for {@link
 *       #TAIL_KNOWN} observations its tail is unknown and nothing counts as far out: an isolated
 *       slow checkpoint or two early in a job's life do not open anything. In noise that wanders
 *       far-out observations come in runs too, and more of them in a row are needed ({@code
 *       runLength(FAR_OUT_SHARE, rho)}).
 * </ul>
 *
 * <p>{@link SignalTracker} extends it rather than holding one, as it extends {@link
 * ExcursionTail}: every tracked series has a tracker, and each object of its own costs a header
 * and a reference (16 bytes a series). The methods are named for the run so that they read as
 * such on the tracker. Not thread-safe.
 */
class OpeningRule extends ExcursionTail {
  /** Far out: beyond this many band half-widths from the expected value. */
  static final double STRONG_BAND = 2.0;
  /** Far-out observations that open an anomaly in a calm scope. */
  static final int STRONG_OPEN_AFTER = 2;
  /**
   * How long a run must have lasted (from its first out-of-band observation) to open by its
   * far-out end. Two far-out observations a minute apart are one event more often than a
   * condition: a checkpoint that overran holds up the next one's barriers, a minute of peak load
   * backs up two checkpoints on every subtask. Where observations come further apart
   * (checkpoints minutes apart, five-minute data) two still open; a run of ordinary length opens
   * as before.
   */
  static final long FAR_MIN_SPAN_MS = 120_000L;
  /** A run opens when a scope with its rate would make it by chance once in this many. */
  static final double CHANCE = 1e-6;
  /** Observations over which the rates are averaged (exponentially). */
  static final int RATE_MEMORY = 1000;
  /** Prior out-of-band rate: 1e-6^(1/3), at which three observations are needed. */
  static final double PRIOR_RATE = 0.01;
  /** Share of a scope's observations that may go beyond its far-out distance: 1e-6^(1/2). */
  static final double FAR_OUT_SHARE = 0.001;
  /** Observations after which a scope's tail is known well enough to call a value far out. */
  static final int TAIL_KNOWN = RATE_MEMORY / 2;
  private static final int MAX_NEEDED = 50;
  // what every rule without a pending run holds: never changed, so one serves all threads
  private static final PendingRun NO_RUN = new PendingRun(0, SignalTracker.NO_RUN, PRIOR_RATE);

  private static final Decay DECAY = Decay.of(RATE_MEMORY);

  private double rate = PRIOR_RATE;
  // the scope's excursions beyond its band are the ExcursionTail this extends
  // the pending run (side, length, start, the rate before it, how far out its newest
  // observations went) in an object of its own only while one is pending: most rules have none
  // most of the time, and its 28 bytes of fields then cost nothing
  private PendingRun run = NO_RUN;

  OpeningRule() {
    super(RATE_MEMORY);
  }

  @Override
  final Decay decay() {
    return DECAY;
  }

  /**
   * Counts one observation judged while no anomaly is open.
   *
   * @param at the observation's side: +1 or -1 when it is out of band in a flagged direction, 0
   *     when it is not
   * @param distance {@code |value - expected| / halfWidth} (anything for an observation inside)
   * @param openAfter the configured run length
   * @param window the scope's baseline, asked for the lag-1 correlation of its noise ({@link
   *     RobustBaseline#serialCorrelation}) only by a run long enough to open with independent
   *     noise; the run's observations but this one are in it, learned clipped at the band's
   *     edge, and left out of the correlation as all clipped values are
   * @return true when the run opens an anomaly; its side and start stay readable until the next
   *     call or {@link #clear}
   */
  boolean runOpens(long tsMs, int at, double distance, int openAfter,
      RobustBaseline window) {
    return runOpens(tsMs, at, distance, 1, openAfter, window);
  }

  /**
   * Counts one observation as {@link #runOpens(long, int, double, int, RobustBaseline)} does, in a
   * band {@code widening} times as wide as the scope's spread alone asks ({@code bandWidth x
   * spread}; a floor, a young band's widening or a load-scaled upper bound make it wider): its
   * edge, and every distance beyond it, is that much further out in the scope's noise.
   */
  boolean runOpens(long tsMs, int at, double distance, double widening, int openAfter,
      RobustBaseline window) {
    // a scope's far-out distance is known once it has been watched for a while
    boolean farOut = at != 0 && tailSeen() >= TAIL_KNOWN && distance >= farOutDistance();
    addToTail(at != 0 ? distance : 0);
    if (at == 0) {
      rate -= rate / RATE_MEMORY;
      clearRun();
      return false;
    }
    PendingRun r = run;
    if (at != r.side) {
      r = new PendingRun(at, tsMs, rate);
      run = r;
    }
    // the run is judged by the rate before it: its own observations are not yet noise
    rate += (1 - rate) / RATE_MEMORY;
    r.outside++;
    r.strong = farOut ? r.strong + 1 : 0;
    // in edges of a band no wider than the spread asks, kept between the edge and twice it:
    // beyond that the far-out rule and the scope's own tail judge, not the Gaussian one (an
    // observation a season lets out inside the band counts at the edge)
    double inNoise = distance * (widening > 1 ? widening : 1);
    r.add(inNoise >= 1 ? Math.min(inNoise, STRONG_BAND) : 1);
    boolean longRun = r.outside >= openAfter + extra(r.rateBeforeRun);
    boolean far = r.strong >= Math.min(STRONG_OPEN_AFTER, openAfter)
        && tsMs - r.startMs >= FAR_MIN_SPAN_MS;
    if (longRun || far) {
      // enough for independent noise; noise that wanders stays out once out, far out too
      double rho = window.serialCorrelation();
      if (rho > 0) {
        longRun = longRun && wanderingRunOpens(openAfter, rho);
        far = far && r.strong >= Math.min(runLength(FAR_OUT_SHARE, rho), openAfter);
      }
    }
    boolean opens = longRun || far;
    if (opens) {
      // the run was an anomaly, not noise: the rate forgets it
      rate = r.rateBeforeRun;
    }
    return opens;
  }

  /**
   * Whether the run is unlikely for noise that wanders by {@code rho}, judged by how far out it
   * went: its newest {@code j} observations all beyond {@code m} half-widths (the least of them)
   * come by chance at {@code rate(m) * persistence(rate(m), rho)^(j-1)}, where {@code rate(m)}
   * is the scope's out-of-band rate carried out to {@code m} along the Gaussian tail ({@code m}
   * in edges of a band no wider than the spread asks, see {@link #runOpens(long, int, double,
   * double, int, RobustBaseline)}). Wandering noise that has just crossed the edge lingers
   * there, so a run that hugs the edge needs as much as the edge's rate asks ({@code m} 1, the
   * whole run); a fault that sits or climbs further out shows it in a shorter stretch at its
   * newest distances, the stretch a growth or a skew puts beyond the edge sooner than wandering
   * would.
   */
  private boolean wanderingRunOpens(int openAfter, double rho) {
    // the rate's own edge on the Gaussian scale. With a wandering noise the rate is taken as at
    // least the prior: its excursions come in clusters, and a long calm stretch between them
    // says little about the next
    RunDistances distances = run;
    double z = SerialDependence.upperQuantile(Math.max(run.rateBeforeRun, PRIOR_RATE));
    double nearest = Double.POSITIVE_INFINITY;
    double judgedAt = Double.NaN;
    int needed = 0;
    for (int j = 1; j <= distances.size(); j++) {
      nearest = Math.min(nearest, distances.newest(j));
      if (nearest != judgedAt) {
        judgedAt = nearest;
        int run = runLength(SerialDependence.upperTail(z * nearest), rho);
        needed = openAfter + Math.max(0, run - runLength(PRIOR_RATE));
      }
      if (j >= needed) {
        return true;
      }
    }
    return false;
  }

  /** Band half-widths beyond which an observation of this scope is far out. */
  double farOutDistance() {
    return tailBeyond(FAR_OUT_SHARE, STRONG_BAND);
  }

  /**
   * Out-of-band observations a run needs in this scope: {@code openAfter}, plus what the scope's
   * out-of-band rate adds beyond the prior's three.
   */
  int needed(int openAfter) {
    return openAfter + extra(rate);
  }

  private static int extra(double rate) {
    return Math.max(0, runLength(rate) - runLength(PRIOR_RATE));
  }

  /** The shortest run a scope with this rate makes by chance at most once in CHANCE. */
  static int runLength(double rate) {
    return runLength(rate, 0);
  }

  /**
   * The shortest run a scope with this rate, whose noise correlates by {@code rho} from one
   * observation to the next, makes by chance at most once in CHANCE: {@code rate *
   * persistence^(k-1) <= CHANCE}, which is {@code rate^k} for {@code rho} 0.
   */
  static int runLength(double rate, double rho) {
    if (rate <= 0) {
      return 1;
    }
    if (rate >= 0.5) {
      return MAX_NEEDED;
    }
    double q = SerialDependence.persistence(rate, rho);
    if (q >= 1) {
      return MAX_NEEDED;
    }
    // a hair below the exact ratio, so the priors give exactly 3 and 2; independent noise
    // (q = rate) by the very formula it always had
    double k = (q == rate ? Math.log(CHANCE) / Math.log(rate)
        : 1 + Math.log(CHANCE / rate) / Math.log(q)) - 1e-9;
    return (int) Math.min(MAX_NEEDED, Math.max(1, Math.ceil(k)));
  }

  /** Ends the pending run. */
  void clearRun() {
    run = NO_RUN;
  }

  /** Whether the rule holds distances of its own (a run is pending), for tests. */
  boolean holdsRunDistances() {
    return run != NO_RUN;
  }

  int runSide() {
    return run.side;
  }

  /** Out-of-band observations in the pending run. */
  int pendingLength() {
    return run.outside;
  }

  long pendingStartMs() {
    return run.startMs;
  }

  double outOfBandRate() {
    return rate;
  }


  // ---------------------------------------------------------------- snapshot

  void writeRuleTo(DataOutput out) throws IOException {
    PendingRun r = run;
    out.writeByte(r.side);
    out.writeInt(r.outside);
    out.writeInt(r.strong);
    out.writeLong(r.startMs);
    out.writeDouble(rate);
    // without a run the rate before one is never read: the prior stands in for it
    out.writeDouble(r.rateBeforeRun);
    writeTailTo(out);
    r.writeTo(out);
  }

  /**
   * Reads a rule written by {@link #writeRuleTo}, or by tracker snapshots before version 5 when
   * {@code withDistances} is false (no run distances).
   */
  static OpeningRule readFrom(DataInput in, boolean withDistances) throws IOException {
    OpeningRule r = new OpeningRule();
    int side = in.readByte();
    int outside = in.readInt();
    int strong = in.readInt();
    long startMs = in.readLong();
    r.rate = in.readDouble();
    double rateBeforeRun = in.readDouble();
    r.readTailFrom(in);
    PendingRun read = new PendingRun(side, startMs, rateBeforeRun);
    read.outside = outside;
    read.strong = strong;
    if (withDistances) {
      read.readFrom(in);
    } else {
      runAtTheEdge(read);
    }
    r.take(read);
    return r;
  }

  /** Takes over what {@code other} holds (its pending run too): other is not used after. */
  void copyRuleFrom(OpeningRule other) {
    copyTailFrom(other);
    rate = other.rate;
    run = other.run;
  }

  /** Reads what {@link #writeRuleTo} wrote. */
  static OpeningRule readFrom(DataInput in) throws IOException {
    return readFrom(in, true);
  }

  /**
   * A pending run whose distances were not kept (tracker snapshots before version 5) is taken to
   * have hugged the band's edge: it needs as long as the edge's rate asks.
   */
  private static void runAtTheEdge(PendingRun read) {
    for (int i = 0; i < Math.min(read.outside, MAX_NEEDED); i++) {
      read.add(1);
    }
  }

  /** A rule with a pending run as snapshots before version 3 kept it (no rates, no gap). */
  static OpeningRule ofRun(int side, int length, long startMs) throws IOException {
    OpeningRule r = new OpeningRule();
    PendingRun read = new PendingRun(side, startMs, PRIOR_RATE);
    read.outside = length;
    runAtTheEdge(read);
    r.take(read);
    return r;
  }

  /** Validates a run read from a snapshot and keeps it, or none if it is empty. */
  private void take(PendingRun read) throws IOException {
    int side = read.side;
    int outside = read.outside;
    int strong = read.strong;
    if (side < -1 || side > 1) {
      throw new IOException("tracker snapshot run side " + side + " not in {-1, 0, 1}");
    }
    if (outside < 0 || strong < 0 || strong > outside) {
      throw new IOException("tracker snapshot has inconsistent run counters: " + outside
          + " outside, " + strong + " far out");
    }
    if (read.size() != Math.min(outside, MAX_NEEDED)) {
      throw new IOException("tracker snapshot keeps " + read.size()
          + " distances for a run of " + outside);
    }
    if ((outside == 0) != (side == 0 && read.startMs == SignalTracker.NO_RUN)) {
      throw new IOException("tracker snapshot has an inconsistent pending run");
    }
    double rateBeforeRun = read.rateBeforeRun;
    if (!(rate >= 0 && rate <= 1) || !(rateBeforeRun >= 0 && rateBeforeRun <= 1)) {
      throw new IOException("tracker snapshot has an out-of-band rate outside [0, 1]");
    }
    run = outside == 0 ? NO_RUN : read;
  }

  /**
   * The pending run: a holder of its own, so a rule without one (most of them, most of the time)
   * keeps only a reference to the shared empty run. The side is the run's; {@link #NO_RUN}'s 0
   * never equals an observation's, so the first out-of-band one starts a new run.
   */
  static final class PendingRun extends RunDistances {
    final int side; // +1 above, -1 below, 0 no run
    final long startMs;
    final double rateBeforeRun;
    int outside; // out-of-band observations in the run
    int strong; // far-out ones in a row at its end

    PendingRun(int side, long startMs, double rateBeforeRun) {
      super(MAX_NEEDED);
      this.side = side;
      this.startMs = startMs;
      this.rateBeforeRun = rateBeforeRun;
    }
  }
}
