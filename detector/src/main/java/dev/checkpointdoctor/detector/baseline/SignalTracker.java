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
 *   <li>Closed and ready: the value is learned winsorized to {@code [lower, upper]} (inside values
 *       are unchanged); {@code openAfter} consecutive outside observations on the same side open
 *       an anomaly on the observation that completes the run, which is itself not learned.
 *   <li>Daily cycle: an outside value that the same hour of yesterday (within an hour) already
 *       reached, give or take {@code relativeFloor} of the value or half the band, is not outside: evening peaks of a job with
 *       a daily load pattern are normal once a day of history shows them.
 *   <li>Open: nothing is learned, so the fault never becomes the new normal; {@code resolveAfter}
 *       consecutive observations that are not outside resolve it.
 * </ul>
 *
 * <p>Non-finite values are ignored: they change no state and yield a step with {@code score =
 * NaN}, {@code outside = false} and {@link Transition#NONE}. Not thread-safe.
 */
public final class SignalTracker {

  /** {@link Step#runStartMs()} when no run is pending and no anomaly is open. */
  public static final long NO_RUN = Long.MIN_VALUE;

  static final byte SNAPSHOT_VERSION = 2;

  public enum Transition {
    NONE,
    OPENED,
    RESOLVED
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

  private final Signal signal; // null for a series tracker
  private final Direction direction;
  private final DetectorSettings settings;
  private final RobustBaseline baseline;
  // Created with the first value it records (once the baseline is ready): a learning baseline
  // has no day to remember yet, and most of a big fleet's baselines are young.
  private DailyEnvelope daily;

  private boolean open;
  private int runSide; // +1 above, -1 below, 0 none
  private int runLength; // consecutive outside observations on runSide (closed state)
  private long runStartMs = NO_RUN; // first observation of the pending run / open anomaly
  private int insideCount; // consecutive non-outside observations while open
  private long lastTsMs = RobustBaseline.NO_TIMESTAMP;
  private double lastObserved = Double.NaN;

  public SignalTracker(Signal signal, DetectorSettings settings) {
    this(signal, settings, new RobustBaseline(signal, settings));
  }

  private SignalTracker(Signal signal, DetectorSettings settings, RobustBaseline baseline) {
    this(signal, signal.direction(), settings, baseline);
  }

  private SignalTracker(
      Signal signal, Direction direction, DetectorSettings settings, RobustBaseline baseline) {
    this.signal = signal;
    this.direction = direction;
    this.settings = settings;
    this.baseline = baseline;
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
    Band band = baseline.band();
    if (!Double.isFinite(value)) {
      return new Step(tsMs, value, band.expected(), band.lower(), band.upper(), Double.NaN,
          false, Transition.NONE, runStartMs);
    }
    lastTsMs = tsMs;
    lastObserved = value;
    double score = score(value, band);

    if (!baseline.ready()) {
      baseline.learn(tsMs, value);
      return step(tsMs, value, band, score, false, Transition.NONE);
    }

    int side = value > band.upper() ? 1 : value < band.lower() ? -1 : 0;
    boolean outside =
        (side > 0 && direction.flagsHigh()) || (side < 0 && direction.flagsLow());
    // Slack: day-to-day noise of a peak is about as large as the band is wide.
    double slack = Math.max(settings.relativeFloor() * Math.abs(value),
        0.5 * (band.upper() - band.expected()));
    if (outside && !open && daily != null && daily.explains(tsMs, value, side, slack)) {
      // The daily cycle went this far yesterday at this hour: a peak, not a fault.
      outside = false;
      side = 0;
    }
    if (!open) {
      if (daily == null) {
        daily = new DailyEnvelope();
      }
      daily.record(tsMs, value);
    }

    if (open) {
      if (outside) {
        insideCount = 0;
        return step(tsMs, value, band, score, true, Transition.NONE);
      }
      insideCount++;
      if (insideCount >= settings.resolveAfter()) {
        long startedAt = runStartMs;
        open = false;
        insideCount = 0;
        runSide = 0;
        runLength = 0;
        runStartMs = NO_RUN;
        return new Step(tsMs, value, band.expected(), band.lower(), band.upper(), score, false,
            Transition.RESOLVED, startedAt);
      }
      return step(tsMs, value, band, score, false, Transition.NONE);
    }

    if (outside) {
      if (side == runSide) {
        runLength++;
      } else {
        runSide = side;
        runLength = 1;
        runStartMs = tsMs;
      }
      if (runLength >= settings.openAfter()) {
        open = true;
        insideCount = 0;
        runLength = 0;
        return step(tsMs, value, band, score, true, Transition.OPENED);
      }
    } else {
      runSide = 0;
      runLength = 0;
      runStartMs = NO_RUN;
    }
    // closed: learn winsorized, so neither a spike nor a pending run drags the median
    baseline.learn(tsMs, Math.min(Math.max(value, band.lower()), band.upper()));
    return step(tsMs, value, band, score, outside, Transition.NONE);
  }

  private Step step(
      long tsMs, double value, Band band, double score, boolean outside, Transition t) {
    return new Step(tsMs, value, band.expected(), band.lower(), band.upper(), score, outside, t,
        runStartMs);
  }

  private double score(double value, Band band) {
    if (!band.defined()) {
      return Double.NaN;
    }
    double diff = value - band.expected();
    double denominator = Math.max(band.spread(), band.halfWidth() / settings.bandWidth());
    if (denominator > 0) {
      return diff / denominator;
    }
    return diff == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, diff);
  }

  /** True while an anomaly is open. */
  public boolean open() {
    return open;
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

  /** Writes version byte, the baseline, then the anomaly state. */
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(SNAPSHOT_VERSION);
    baseline.writeTo(out);
    out.writeBoolean(open);
    out.writeByte(runSide);
    out.writeInt(runLength);
    out.writeLong(runStartMs);
    out.writeInt(insideCount);
    out.writeLong(lastTsMs);
    out.writeDouble(lastObserved);
    DailyEnvelope.writeTo(daily, out);
  }

  /**
   * Restores a tracker written by {@link #writeTo}.
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
    if (version != SNAPSHOT_VERSION && version != 1) {
      throw new IOException("unsupported tracker snapshot version " + version);
    }
    RobustBaseline baseline = RobustBaseline.readFrom(in, signal, settings);
    boolean open = in.readBoolean();
    int runSide = in.readByte();
    int runLength = in.readInt();
    long runStartMs = in.readLong();
    int insideCount = in.readInt();
    long lastTsMs = in.readLong();
    double lastObserved = in.readDouble();
    DailyEnvelope daily = version >= 2 ? DailyEnvelope.readFrom(in) : null;
    if (runSide < -1 || runSide > 1) {
      throw new IOException("tracker snapshot run side " + runSide + " not in {-1, 0, 1}");
    }
    if (runLength < 0 || insideCount < 0) {
      throw new IOException(
          "tracker snapshot has negative counters: run " + runLength + ", inside " + insideCount);
    }
    if (open && (runSide == 0 || runStartMs == NO_RUN || runLength != 0)) {
      throw new IOException("tracker snapshot is open without an anomaly side and start");
    }
    if (!open && insideCount != 0) {
      throw new IOException("tracker snapshot counts inside observations while closed");
    }
    if (!open && (runLength == 0) != (runSide == 0 && runStartMs == NO_RUN)) {
      throw new IOException("tracker snapshot has an inconsistent pending run");
    }
    if (open && signal.direction() == Direction.NONE) {
      throw new IOException("tracker snapshot is open for " + signal.id() + ", which never opens");
    }
    SignalTracker t = new SignalTracker(signal, settings, baseline);
    t.open = open;
    t.runSide = runSide;
    t.runLength = runLength;
    t.runStartMs = runStartMs;
    t.insideCount = insideCount;
    t.lastTsMs = lastTsMs;
    t.lastObserved = lastObserved;
    t.daily = daily;
    return t;
  }
}
