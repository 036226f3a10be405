package dev.checkpointdoctor.detector.baseline;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Direction;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;

/**
 * Baseline plus anomaly state machine of one (job, signal, scope).
 *
 * <p>Every observation is judged against the band as it was <em>before</em> the observation:
 *
 * <ul>
 *   <li>{@code score = (observed - expected) / max(spread, h / bandWidth)}, a robust z-score
 *       whose denominator cannot collapse to 0 because {@code h >= absoluteFloor}.
 *   <li>{@code outside} = above {@code upper} when the signal's direction flags high, or below
 *       {@code lower} when it flags low. Never true while the baseline is learning, never true for
 *       {@link Direction#NONE}.
 *   <li>Learning (fewer than {@code minObservations}): every value is learned as it is.
 *   <li>Youth: while the baseline's first observation is less than a day old, values are judged
 *       against a band up to twice as wide ({@link #YOUTH_WIDENING}); the score is still the
 *       distance from the baseline's own band. A steady trend ({@link #TREND_STEPS} steps the
 *       same flagged way) is judged by the own band: the widening is for a load cycle not seen
 *       yet, not for growth. Nor does it reach past a limit the caller knows the job cannot
 *       sustain at any load ({@link #observe(long, double, double)}).
 *   <li>Starts ({@link #jobStarted}): a new deployment is learned afresh; the start-up after any
 *       start is neither judged nor learned until a value is back in band.
 *   <li>Seasons ({@link SeasonalEnvelope}): an outside value that one of the last seven days
 *       already reached within an hour of this time of day, give or take half of {@code
 *       relativeFloor} of the value or a quarter of the band, is not outside: the evening peak of
 *       a job with a daily load pattern, Monday's return to weekday load. Conversely, once seven
 *       days at this level are known, a value inside the band but beyond everything those days
 *       did at this hour by a band half-width is outside: a fault at the quiet hour of the day.
 *   <li>Closed and ready: the value is learned winsorized to {@code [lower, upper]} (inside values
 *       are unchanged); a run of outside observations opens an anomaly by the {@link OpeningRule}
 *       ({@code openAfter} of them, two far out, more in a scope that often leaves its band); the
 *       observation that opens it is not learned.
 *   <li>Open: nothing is learned, so a fault does not become the new normal by creeping in;
 *       {@code resolveAfter} consecutive observations that are not outside resolve it ({@link
 *       Transition#RESOLVED}). A departure that holds as one stable level for {@code
 *       newNormalAfter} ({@link RegimeWindow#holds}) resolves it as {@link Transition#NEW_NORMAL}:
 *       the baseline re-learns from the run, which is normal from its start on. A steady trend
 *       never holds, so growth stays open.
 * </ul>
 *
 * <p>Non-finite values are ignored: they change no state and yield a step with {@code score =
 * NaN}, {@code outside = false} and {@link Transition#NONE}. Not thread-safe.
 */
public final class SignalTracker extends OpeningRule {

  /** {@link Step#runStartMs()} when no run is pending and no anomaly is open. */
  public static final long NO_RUN = Long.MIN_VALUE;

  static final byte SNAPSHOT_VERSION = 5;

  public enum Transition {
    NONE,
    OPENED,
    /** Resolved because the signal returned to its band. */
    RESOLVED,
    /**
     * Resolved because the departure held as one stable level for {@code newNormalAfter}: the
     * baseline has re-learnt from that level, which is normal from the run's start on.
     */
    NEW_NORMAL
  }

  /**
   * Result of one observation.
   *
   * @param expected band the observation was judged against (NaN before the first observation)
   * @param outside true when the value is out of band in a direction the signal flags (and the
   *     baseline is ready)
   * @param runStartMs start of the pending outside run while closed, the anomaly's start while
   *     open and on {@link Transition#OPENED}/{@link Transition#RESOLVED}; {@link #NO_RUN}
   *     otherwise
   */
  public record Step(
      long timestampMs,
      double observed,
      double expected,
      double lower,
      double upper,
      double score,
      boolean outside,
      Transition transition,
      long runStartMs) {}

  /** A start this soon after the previous one is a restart loop, not a start-up. */
  static final long RESTART_QUIET_MS = 3_600_000L;

  /**
   * How much wider than its band a baseline that has just started learning judges: twice as
   * wide at first (measured on family 1's train seeds: 27 anomalies on healthy jobs without the
   * widening, 5 with it; docs/ACCURACY.md).
   */
  static final double YOUTH_WIDENING = 1.0;
  /**
   * Consecutive steps the same way (each value beyond the one before) that make a steady trend:
   * a young baseline's widening is for a load cycle it has not seen, and must not hide growth.
   */
  static final int TREND_STEPS = 5;
  /**
   * Own band half-widths per hour a trend must climb to be growth rather than the ramp of a
   * daily cycle (steepest in family 1: about a tenth of the level per hour, which is the least a
   * band's half-width is).
   */
  static final double TREND_BANDS_PER_HOUR = 1.0;
  /** Event time after which a baseline is no longer young: it has seen a whole day. */
  static final long YOUTH_MS = 24 * 3_600_000L;

  private static final byte FLAGS_HIGH = 1;
  private static final byte FLAGS_LOW = 2;
  private static final byte NO_YOUTH = 4; // every ready band judged as its own (tests)

  /** Days of one time of day a seasonal range needs before it may call a value outside: a week. */
  static final int SEASON_DAYS_TO_ACCUSE = 7;

  private final Signal signal; // null for a series tracker
  // the settings are the baseline's (every tracked series has a tracker: one reference fewer)
  private final RobustBaseline baseline;
  // Created with the first value it records (once the baseline is ready): a learning baseline
  // has no season to remember yet, and most of a big fleet's baselines are young.
  private SeasonalEnvelope seasons;
  // the pending run and what the scope's excursions taught are the OpeningRule this extends

  // The open anomaly (null while closed): an object of its own, as most trackers are closed
  // most of the time and would carry its fields for nothing.
  private OpenAnomaly anomaly;
  private long lastTsMs = RobustBaseline.NO_TIMESTAMP;
  private double lastObserved = Double.NaN;
  private long lastStartMs = NO_RUN; // the job's last (re)start this tracker was told of
  private long settleLimitMs = NO_RUN; // until this, out-of-band values may be start-up
  // The new deployment this scope learns afresh from: values from before it, delivered after it
  // was known, belong to the old deployment and are neither judged nor learned.
  private long deployedAtMs = NO_RUN;
  // The newest checkpoint completion the job reported: before the first one after a start, a
  // value in band says nothing about the start-up being over (no checkpoint was even tried).
  private long lastCompletionMs = NO_RUN;
  // Consecutive accepted observations that each rose (> 0) or fell (< 0) from the one before.
  private int trendRun;
  // The observation before the trend run's first step: how fast the run climbs.
  private long trendFromMs = NO_RUN;
  private double trendFromValue = Double.NaN;
  // Which sides are flagged (the direction's FLAGS_HIGH and FLAGS_LOW) and NO_YOUTH, in one
  // byte instead of a direction reference and a youth length: the tracker is read per
  // observation and held per series
  private byte judging;

  public SignalTracker(Signal signal, DetectorSettings settings) {
    this(signal, settings, new RobustBaseline(signal, settings));
  }

  private SignalTracker(Signal signal, DetectorSettings settings, RobustBaseline baseline) {
    this(signal, signal.direction(), settings, baseline);
  }

  private SignalTracker(
      Signal signal, Direction direction, DetectorSettings settings, RobustBaseline baseline) {
    this.signal = signal;
    this.judging = (byte) ((direction.flagsHigh() ? FLAGS_HIGH : 0)
        | (direction.flagsLow() ? FLAGS_LOW : 0));
    this.baseline = baseline;
  }

  private DetectorSettings settings() {
    return baseline.settings();
  }

  /**
   * The same tracker judging every ready baseline by its own band, young or not: for tests of
   * the other mechanics, which would otherwise have to feed a day first.
   */
  static SignalTracker withoutYouth(SignalTracker t) {
    t.judging |= NO_YOUTH;
    return t;
  }

  /**
   * A tracker for a series that is not one of the catalog's signals (offline benchmarks, ad-hoc
   * series): the same baseline and state machine, with the direction and unit floor given here
   * instead of by a {@link Signal}. Its {@link #signal()} is null.
   *
   * @param absoluteFloor smallest band half-width, in the series' unit ({@code >= 0})
   */
  public static SignalTracker forSeries(
      Direction direction, double absoluteFloor, DetectorSettings settings) {
    if (direction == null || !(absoluteFloor >= 0) || Double.isInfinite(absoluteFloor)) {
      throw new IllegalArgumentException("need a direction and a finite floor >= 0");
    }
    return new SignalTracker(
        null, direction, settings, new RobustBaseline(absoluteFloor, settings));
  }

  public Step observe(long tsMs, double value) {
    return observe(tsMs, value, Double.POSITIVE_INFINITY);
  }

  /**
   * Judges {@code value} as {@link #observe(long, double)} does, with a limit the young band's
   * widening may not reach past: a value the job cannot sustain whatever its load (a checkpoint
   * longer than the spacing checkpoints are taken at) is not forgiven as an unseen load cycle.
   * The baseline's own band is never narrowed by it.
   *
   * @param youthCeiling highest upper bound a young band may be widened to; +Inf for none
   */
  public Step observe(long tsMs, double value, double youthCeiling) {
    return observe(tsMs, value, youthCeiling, 1);
  }

  /**
   * Judges {@code value} as {@link #observe(long, double, double)} does, with the upper bound
   * scaled by the load the caller measured: a busy time that rises with the subtask's input is
   * that input's work, not a bottleneck, while the same rise at the usual input still is. The
   * score stays the distance from the baseline's own band.
   *
   * @param load how many times its usual input the scope has now; 1 (or less, or NaN) for none
   */
  public Step observe(long tsMs, double value, double youthCeiling, double load) {
    return observe(tsMs, value, youthCeiling, load, Double.NEGATIVE_INFINITY);
  }

  /**
   * Judges {@code value} as {@link #observe(long, double, double, double)} does, with a level
   * the caller knows to be no trouble below, whatever the band says (as {@link
   * Signal#troubleFrom()} is for a whole signal): a checkpoint age shorter than a few of the
   * job's usual checkpoints is no stuck checkpoint. The value is still learned as usual.
   *
   * @param troubleFrom the level below which the value is never outside; -Inf for none
   */
  public Step observe(long tsMs, double value, double youthCeiling, double load,
      double troubleFrom) {
    Band own = baseline.band();
    int trend = trendAfter(value);
    boolean newRun = Integer.signum(trend) != Integer.signum(trendRun) || trendRun == 0;
    long fromMs = newRun ? lastTsMs : trendFromMs;
    double fromValue = newRun ? lastObserved : trendFromValue;
    Band band = steadyTrend(trend, tsMs, value, fromMs, fromValue, own)
        ? own : judgedBand(tsMs, own, youthCeiling);
    if (load > 1 && Double.isFinite(load) && band.defined()) {
      // never lower: a series with a negative upper bound is not made stricter by load
      band = new Band(band.expected(), band.lower(), Math.max(band.upper(), band.upper() * load),
          band.spread());
    }
    if (!Double.isFinite(value) || tsMs < deployedAtMs || settling(tsMs, value, band)) {
      return new Step(tsMs, value, band.expected(), band.lower(), band.upper(), Double.NaN,
          false, Transition.NONE, runStartMs());
    }
    trendRun = trend;
    trendFromMs = fromMs;
    trendFromValue = fromValue;
    lastTsMs = tsMs;
    lastObserved = value;
    // the distance from the baseline's own band: youth makes the verdict cautious, not the
    // value closer
    double score = score(value, own);

    if (!baseline.ready()) {
      baseline.learn(tsMs, value);
      return step(tsMs, value, band, score, false, Transition.NONE);
    }

    int side = value > band.upper() ? 1 : value < band.lower() ? -1 : 0;
    if (!flags(side)) {
      side = 0;
    }
    OpenAnomaly open = anomaly;
    if (open == null && seasons != null) {
      side = seasonalSide(tsMs, value, side, band);
    }
    // after the seasons: a value a week of same hours never reached is still no trouble below
    // the level the caller or the signal knows to be none
    if (value < troubleFrom || (signal != null && value < signal.troubleFrom())) {
      side = 0;
    }
    boolean outside = side != 0;
    if (open == null) {
      if (seasons == null) {
        seasons = new SeasonalEnvelope();
      }
      seasons.record(tsMs, value);
    }

    if (open != null) {
      if (outside) {
        open.insideCount = 0;
      } else if (++open.insideCount >= settings().resolveAfter()) {
        return close(tsMs, value, band, score, Transition.RESOLVED);
      }
      if (open.regime.add(tsMs, value) && settledAsNewNormal(open.regime)) {
        return becomeNormal(tsMs, value, band, score);
      }
      return step(tsMs, value, band, score, outside, Transition.NONE);
    }

    double distance = Math.abs(value - band.expected()) / band.halfWidth();
    // how much wider than its spread asks the band is judged (a floor, youth, the load): its
    // edge is that much further out in the noise
    double widening = band.halfWidth() / (settings().bandWidth() * band.spread());
    if (runOpens(tsMs, side, distance, widening, settings().openAfter(), baseline)) {
      anomaly = new OpenAnomaly(side, pendingStartMs(), newRegime(settings()));
      clearRun();
      anomaly.regime.add(tsMs, value);
      return step(tsMs, value, band, score, true, Transition.OPENED);
    }
    // closed: learn winsorized, so neither a spike nor a pending run drags the median
    double learned = Math.min(Math.max(value, band.lower()), band.upper());
    baseline.learn(tsMs, learned, learned != value);
    return step(tsMs, value, band, score, outside, Transition.NONE);
  }

  /**
   * Whether an observation belongs to the job's start-up ({@link #jobStarted}): out of the band
   * of a ready baseline before {@code settleLimitMs}, and nothing of this scope was back in band
   * since the start's first completed checkpoint ({@link #checkpointCompleted}): no failure
   * before the first checkpoint is tried is not the end of a start-up whose first checkpoints
   * are declined.
   */
  private boolean settling(long tsMs, double value, Band band) {
    if (tsMs >= settleLimitMs || !baseline.ready()
        || (signal != null && !signal.settlesAtStart())) {
      return false; // a learning baseline learns the start-up with the rest
    }
    if (value > band.upper() || value < band.lower()) {
      return true;
    }
    if (lastCompletionMs >= lastStartMs) {
      settleLimitMs = NO_RUN;
    }
    return false;
  }

  /**
   * The band a value is judged against: the baseline's, widened while the baseline is young, by
   * {@link #YOUTH_WIDENING} of its half-width when it starts learning, shrinking linearly to none
   * once its first learned observation is {@link #YOUTH_MS} old. A young baseline has not seen
   * the day's cycle yet (nor, after a new deployment, the new deployment's): the evening ramp is
   * news to it, not to the job, and its few observations say little about the tails.
   */
  private Band judgedBand(long tsMs, Band b, double ceiling) {
    long first = baseline.firstTimestamp();
    if (!b.defined() || first == RobustBaseline.NO_TIMESTAMP) {
      return b;
    }
    double young = (judging & NO_YOUTH) != 0 ? 0 : 1 - (double) (tsMs - first) / YOUTH_MS;
    if (!(young > 0)) {
      return b;
    }
    double h = b.halfWidth() * (1 + YOUTH_WIDENING * Math.min(1, young));
    double upper = Math.max(b.upper(), Math.min(b.expected() + h, ceiling));
    return new Band(b.expected(), b.expected() - h, upper, b.spread());
  }

  /**
   * Whether a run of {@code trend} steps from {@code fromValue} at {@code fromMs} to {@code value}
   * is growth rather than a load cycle the young band has not seen: {@link #TREND_STEPS} steps
   * the flagged way, rising by at least the own band's half-width per hour ({@link
   * #TREND_BANDS_PER_HOUR}). A daily cycle climbs for hours at a few percent of its level per
   * hour, and every band is at least {@code relativeFloor} of its level wide; growth a minutes-old
   * job must have named climbs through its band in minutes.
   */
  private boolean steadyTrend(int trend, long tsMs, double value, long fromMs, double fromValue,
      Band own) {
    if (!flags(Integer.signum(trend)) || Math.abs(trend) < TREND_STEPS || !own.defined()) {
      return false;
    }
    double hours = Math.max(tsMs - fromMs, 1) / 3_600_000.0;
    return Math.abs(value - fromValue) / hours >= TREND_BANDS_PER_HOUR * own.halfWidth();
  }

  /** The trend run {@code value} would make: one more step the same way, or a new one. */
  private int trendAfter(double value) {
    if (!(value != lastObserved) || Double.isNaN(lastObserved)) {
      return 0; // equal, or nothing to compare with
    }
    int way = value > lastObserved ? 1 : -1;
    return Integer.signum(trendRun) == way ? trendRun + way : way;
  }

  private boolean flags(int side) {
    return (side > 0 && (judging & FLAGS_HIGH) != 0) || (side < 0 && (judging & FLAGS_LOW) != 0);
  }

  /**
   * The side after the seasons had their say: the week's same time of day explains an outside
   * value it already reached, and accuses an inside one beyond everything it did.
   */
  private int seasonalSide(long tsMs, double value, int side, Band band) {
    double h = band.halfWidth();
    if (side != 0) {
      return seasons.explains(tsMs, value, side, seasonSlack(value, h)) ? 0 : side;
    }
    int accused = seasons.accuses(tsMs, value, h, SEASON_DAYS_TO_ACCUSE);
    return flags(accused) ? accused : 0;
  }

  /**
   * How far short of a value the same hour of an earlier day may have stopped and still explain
   * it: day-to-day noise of a peak; seven days give seven chances to have reached it.
   */
  private double seasonSlack(double value, double halfWidth) {
    return Math.max(0.5 * settings().relativeFloor() * Math.abs(value), 0.25 * halfWidth);
  }

  private Step becomeNormal(long tsMs, double value, Band band, double score) {
    RegimeWindow regime = anomaly.regime;
    baseline.relearn(regime);
    // the run is normal now: its hours belong in the seasons it was kept out of, and the hours
    // before it describe another level
    if (seasons == null) {
      seasons = new SeasonalEnvelope();
    }
    for (int i = 0; i < regime.size(); i++) {
      seasons.record(regime.timeAt(i), regime.valueAt(i));
    }
    seasons.levelChangedAt(anomaly.startMs);
    return close(tsMs, value, band, score, Transition.NEW_NORMAL);
  }

  private static RegimeWindow newRegime(DetectorSettings settings) {
    return new RegimeWindow(regimeCapacity(settings));
  }

  /** As many points as the baseline's window, and enough for the stability test. */
  private static int regimeCapacity(DetectorSettings settings) {
    return Math.max(16, settings.windowSize());
  }

  private Step close(long tsMs, double value, Band band, double score, Transition t) {
    long startedAt = anomaly.startMs;
    anomaly = null;
    return new Step(tsMs, value, band.expected(), band.lower(), band.upper(), score, false, t,
        startedAt);
  }

  /**
   * Whether the open anomaly's run has held as one level for long enough: {@code newNormalAfter}
   * of event time and at least {@code minObservations} observations, and {@link
   * RegimeWindow#holds stable} by the band this baseline would give it.
   */
  private boolean settledAsNewNormal(RegimeWindow regime) {
    if (!settings().learnsNewNormal() || (signal != null && !signal.mayBecomeNormal())) {
      return false;
    }
    if (regime.seen() < settings().minObservations()
        || regime.spanMs() < newNormalAfterMs(settings())) {
      return false;
    }
    return regime.holds(baseline::halfWidth);
  }

  private static long newNormalAfterMs(DetectorSettings settings) {
    try {
      return settings.newNormalAfter().toMillis();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private long runStartMs() {
    return anomaly != null ? anomaly.startMs : pendingStartMs();
  }

  private Step step(
      long tsMs, double value, Band band, double score, boolean outside, Transition t) {
    return new Step(tsMs, value, band.expected(), band.lower(), band.upper(), score, outside, t,
        runStartMs());
  }

  private double score(double value, Band band) {
    if (!band.defined()) {
      return Double.NaN;
    }
    double diff = value - band.expected();
    double denominator = Math.max(band.spread(), band.halfWidth() / settings().bandWidth());
    if (denominator > 0) {
      return diff / denominator;
    }
    return diff == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, diff);
  }

  /**
   * Whether one of the last seven days already reached {@code value} within an hour of this time
   * of day (give or take the slack the seasons allow an out-of-band value): a level the job's own
   * daily cycle explains, so a rise to it is no growth.
   *
   * @param formerScale how many times the level since the last deployment (or new normal) is the
   *     level before it: the days before are compared at the new level (1: as they were)
   */
  public boolean seasonReached(long tsMs, double value, double formerScale) {
    Band own = baseline.band();
    if (seasons == null || !own.defined()) {
      return false;
    }
    return seasons.reachedAbove(tsMs, value, formerScale, seasonSlack(value, own.halfWidth()));
  }

  /** The job completed a checkpoint at {@code tsMs} (event time). */
  public void checkpointCompleted(long tsMs) {
    lastCompletionMs = Math.max(lastCompletionMs, tsMs);
  }

  /**
   * The job (re)started at {@code tsMs}: a failover restart of the same job_id, or a new
   * deployment ({@code deployed}: a resubmission under a new job_id, perhaps with another
   * parallelism, interval or version, or a job first seen before its first checkpoint). What
   * follows a start is not this scope's normal and not a fault either:
   *
   * <ul>
   *   <li>Start-up, after either: until a value is back in band, at most two failure windows,
   *       out-of-band values are neither judged nor learned: no checkpoint completes while tasks
   *       deploy and restore, the first checkpoints are declined and stay in the failure count
   *       for a failure window, the backlog is caught up.
   *   <li>A new normal to learn, after a new deployment only: a closed baseline forgets its
   *       window and learns again from the first observations after the start-up, so a new
   *       parallelism, interval or version is not judged against the old deployment's level; the
   *       seasons keep explaining the load cycle but stop accusing for a week. Failed
   *       checkpoints and stopped writes are never learned as normal, so their baselines are
   *       kept. A failover restart runs the same deployment: its baselines stay.
   *   <li>An open anomaly stays open and keeps its baseline: trouble from before the start is
   *       judged against the normal it left.
   * </ul>
   *
   * A start within {@link #RESTART_QUIET_MS} of the previous one changes nothing: a job that
   * restarts again and again is in trouble, and its restarts must not hide it.
   */
  public void jobStarted(long tsMs, boolean deployed) {
    boolean crashLoop = lastStartMs != NO_RUN && tsMs - lastStartMs < RESTART_QUIET_MS;
    lastStartMs = Math.max(lastStartMs, tsMs);
    if (crashLoop || anomaly != null) {
      return;
    }
    settleLimitMs = Math.max(settleLimitMs, tsMs + 2 * settings().failureWindow().toMillis());
    clearRun();
    if (deployed && (signal == null || signal.relearnsAtDeploy())) {
      deployedAtMs = Math.max(deployedAtMs, tsMs);
      // by event time: observations after the start delivered before it stay learned
      baseline.forgetBefore(tsMs);
      if (seasons != null) {
        seasons.levelChangedAt(tsMs);
      }
    }
  }

  /** The persistence rule and what it learned of this scope. For tests. */
  OpeningRule openingRule() {
    return this;
  }

  /** True while an anomaly is open. */
  public boolean open() {
    return anomaly != null;
  }

  /** The catalog signal; null for a tracker made by {@link #forSeries}. */
  public Signal signal() {
    return signal;
  }

  /** True once the baseline learned enough to judge: {@link #view()}'s state is ready. */
  public boolean ready() {
    return baseline.ready();
  }

  /** Current band (after the last learn). */
  public Band band() {
    return baseline.band();
  }

  public BaselineView view() {
    Band b = baseline.band();
    return new BaselineView(
        baseline.ready() ? BaselineView.READY : BaselineView.LEARNING,
        b.expected(),
        b.lower(),
        b.upper(),
        baseline.observations(),
        lastTsMs,
        lastObserved);
  }

  // ---------------------------------------------------------------- snapshot

  /**
   * Writes version byte, the baseline, the anomaly state, the pending run with the scope's
   * out-of-band rates, the seasons, and the open anomaly's run of observations.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(SNAPSHOT_VERSION);
    baseline.writeTo(out);
    OpenAnomaly a = anomaly;
    out.writeBoolean(a != null);
    out.writeByte(a != null ? a.side : 0);
    out.writeLong(a != null ? a.startMs : NO_RUN);
    out.writeInt(a != null ? a.insideCount : 0);
    out.writeLong(lastTsMs);
    out.writeDouble(lastObserved);
    out.writeLong(lastStartMs);
    out.writeLong(settleLimitMs);
    out.writeLong(deployedAtMs);
    out.writeLong(lastCompletionMs);
    out.writeInt(trendRun);
    out.writeLong(trendFromMs);
    out.writeDouble(trendFromValue);
    writeRuleTo(out);
    SeasonalEnvelope.writeTo(seasons, out);
    out.writeBoolean(a != null);
    if (a != null) {
      a.regime.writeTo(out);
    }
  }

  /**
   * Restores a tracker written by {@link #writeTo}, by version 4 (no distances of a pending
   * run's observations: it is taken to have hugged the band's edge), by version 3 (no trend run
   * start: a pending
   * trend counts once a new run starts), or by versions 1 and 2 (no out-of-band rates: the
   * priors; the daily envelope as the newest two days of the seasons; an open anomaly's run
   * collected from the next observation on).
   *
   * @throws IOException on a truncated stream, an unknown version or inconsistent contents
   */
  public static SignalTracker readFrom(DataInput in, Signal signal, DetectorSettings settings)
      throws IOException {
    try {
      return read(in, signal, settings);
    } catch (EOFException e) {
      throw new IOException("truncated tracker snapshot", e);
    }
  }

  private static SignalTracker read(DataInput in, Signal signal, DetectorSettings settings)
      throws IOException {
    int version = in.readUnsignedByte();
    if (version < 1 || version > SNAPSHOT_VERSION) {
      throw new IOException("unsupported tracker snapshot version " + version);
    }
    RobustBaseline baseline = RobustBaseline.readFrom(in, signal, settings);
    boolean open = in.readBoolean();
    int side = in.readByte();
    OpeningRule opening;
    long openStartMs;
    int insideCount;
    long lastTsMs;
    double lastObserved;
    long lastStartMs = NO_RUN;
    long settleLimitMs = NO_RUN;
    long deployedAtMs = NO_RUN;
    long lastCompletionMs = NO_RUN;
    int trendRun = 0;
    long trendFromMs = NO_RUN; // before version 4 no run's start was kept: no trend until anew
    double trendFromValue = Double.NaN;
    SeasonalEnvelope seasons;
    RegimeWindow regime = null;
    if (version >= 3) {
      openStartMs = in.readLong();
      insideCount = in.readInt();
      lastTsMs = in.readLong();
      lastObserved = in.readDouble();
      lastStartMs = in.readLong();
      settleLimitMs = in.readLong();
      deployedAtMs = in.readLong();
      lastCompletionMs = in.readLong();
      trendRun = in.readInt();
      if (version >= 4) {
        trendFromMs = in.readLong();
        trendFromValue = in.readDouble();
      }
      opening = OpeningRule.readFrom(in, version >= 5);
      seasons = SeasonalEnvelope.readFrom(in);
      if (in.readBoolean()) {
        regime = RegimeWindow.readFrom(in, regimeCapacity(settings));
      }
    } else {
      int runLength = in.readInt();
      long runStartMs = in.readLong();
      insideCount = in.readInt();
      lastTsMs = in.readLong();
      lastObserved = in.readDouble();
      seasons = version == 2 ? SeasonalEnvelope.readDaily(in) : null;
      if (runLength < 0) {
        throw new IOException("tracker snapshot has a negative run length " + runLength);
      }
      if (open && runLength != 0) {
        throw new IOException("tracker snapshot is open with a pending run");
      }
      // before version 3 the open anomaly's side and start were the run's
      opening = open ? new OpeningRule() : OpeningRule.ofRun(side, runLength, runStartMs);
      openStartMs = open ? runStartMs : NO_RUN;
      side = open ? side : 0;
    }
    if (side < -1 || side > 1) {
      throw new IOException("tracker snapshot anomaly side " + side + " not in {-1, 0, 1}");
    }
    if (insideCount < 0) {
      throw new IOException("tracker snapshot has negative counters: inside " + insideCount);
    }
    if (open && (side == 0 || openStartMs == NO_RUN)) {
      throw new IOException("tracker snapshot is open without an anomaly side and start");
    }
    if (!open && (side != 0 || openStartMs != NO_RUN)) {
      throw new IOException("tracker snapshot is closed with an anomaly side or start");
    }
    if (open && opening.pendingLength() != 0) {
      throw new IOException("tracker snapshot is open with a pending run");
    }
    if (!open && insideCount != 0) {
      throw new IOException("tracker snapshot counts inside observations while closed");
    }
    if (regime != null && !open) {
      throw new IOException("tracker snapshot has a regime while closed");
    }
    if (open && signal.direction() == Direction.NONE) {
      throw new IOException("tracker snapshot is open for " + signal.id() + ", which never opens");
    }
    SignalTracker t = new SignalTracker(signal, settings, baseline);
    if (open) {
      t.anomaly = new OpenAnomaly(side, openStartMs, regime == null ? newRegime(settings) : regime);
      t.anomaly.insideCount = insideCount;
    }
    t.lastTsMs = lastTsMs;
    t.lastObserved = lastObserved;
    t.copyRuleFrom(opening);
    t.seasons = seasons;
    t.lastStartMs = lastStartMs;
    t.settleLimitMs = settleLimitMs;
    t.deployedAtMs = deployedAtMs;
    t.lastCompletionMs = lastCompletionMs;
    t.trendRun = trendRun;
    t.trendFromMs = trendFromMs;
    t.trendFromValue = trendFromValue;
    return t;
  }

  /** What an open anomaly holds: its side, its start, and its run of observations. */
  private static final class OpenAnomaly {
    final int side; // +1 above, -1 below
    final long startMs; // first observation of the anomaly's run
    // The observations since the anomaly opened: the level a lasting departure settles on,
    // which becomes the new normal once it holds.
    final RegimeWindow regime;
    int insideCount; // consecutive non-outside observations

    OpenAnomaly(int side, long startMs, RegimeWindow regime) {
      this.side = side;
      this.startMs = startMs;
      this.regime = regime;
    }
  }
}
