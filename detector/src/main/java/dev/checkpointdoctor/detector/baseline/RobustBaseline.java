package dev.checkpointdoctor.detector.baseline;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;

/**
 * Online, event-time robust baseline of one (job, signal, scope).
 *
 * <p>Keeps the last {@code windowSize} learned observations {@code (t_i, x_i)} in a ring buffer of
 * primitive arrays. Every observation carries the weight {@code w_i = 2^(-(t_now - t_i) /
 * halfLife)}, where {@code t_now} is the largest event timestamp ever learned (never the wall
 * clock); an observation with {@code t_i > t_now} cannot exist, so all weights are in (0, 1] and
 * the newest observation weighs exactly 1.
 *
 * <p><b>Weighted median.</b> Sort the window by value (ties in any order), let {@code W = sum
 * w_i}. The weighted median is the smallest value {@code x_(k)} in that order whose cumulative
 * weight {@code w_(1) + ... + w_(k)} is {@code >= W / 2}. With equal weights and an even count
 * this is the lower of the two middle values.
 *
 * <p><b>Weighted MAD.</b> The weighted median (same definition, same weights) of the absolute
 * deviations {@code |x_i - median|}. {@code spread = 1.4826 x MAD}.
 *
 * <p><b>Band.</b> {@code h = max(bandWidth x spread, relativeFloor x |expected|,
 * signal.absoluteFloor())}, {@code lower = expected - h}, {@code upper = expected + h}.
 *
 * <p>The band is cached and recomputed lazily after a learn. The window is kept ordered by value
 * as it changes (one binary search and one array move per learn), so a recompute is a walk over
 * the ordered window: the weighted median directly, and the MAD as a merge of the deviations
 * below and above the median, which are already ordered on each side. Arrays start small and grow
 * to {@code windowSize}, because most baselines of a big fleet are young or sparse. Not
 * thread-safe.
 */
public final class RobustBaseline {

  /** Consistency constant turning a MAD into a standard deviation for normal data. */
  public static final double MAD_TO_SIGMA = 1.4826;

  /** Returned by {@link #firstTimestamp()} / {@link #lastTimestamp()} before any observation. */
  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  static final byte SNAPSHOT_VERSION = 1;
  private static final int MAX_WINDOW = 4096;
  private static final int INITIAL_CAPACITY = 4;

  // Baselines are only used by one thread at a time (the detector holds its lock), so one scratch
  // per thread serves them all instead of arrays per baseline.
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private final double absoluteFloor;
  private final DetectorSettings settings;
  private final double halfLifeMs;
  private final int windowSize;

  // ring buffer in arrival order; grows until it holds windowSize slots
  private long[] timestamps;
  private double[] values;
  // ring slots ordered by value (ascending); short is enough for MAX_WINDOW
  private short[] order;
  private int head; // slot of the next write
  private int count; // filled slots
  private int observations; // ever learned, saturating
  private long firstTs = NO_TIMESTAMP;
  private long lastTs = NO_TIMESTAMP;

  private Band cached = Band.EMPTY; // null means stale

  public RobustBaseline(Signal signal, DetectorSettings settings) {
    this(signal.absoluteFloor(), settings);
  }

  /** For series outside the signal catalog, whose unit floor the caller knows. */
  RobustBaseline(double absoluteFloor, DetectorSettings settings) {
    this.absoluteFloor = absoluteFloor;
    this.settings = settings;
    // seconds + nanos: toNanos()/toMillis() would overflow or truncate for extreme half-lives
    this.halfLifeMs =
        settings.halfLife().getSeconds() * 1000.0 + settings.halfLife().getNano() / 1e6;
    this.windowSize = settings.windowSize();
    int initial = Math.min(INITIAL_CAPACITY, windowSize);
    this.timestamps = new long[initial];
    this.values = new double[initial];
    this.order = new short[initial];
  }

  /**
   * Learns one observation. NaN and infinite values are rejected silently.
   *
   * @return false when the value was rejected
   */
  public boolean learn(long tsMs, double value) {
    if (!Double.isFinite(value)) {
      return false;
    }
    store(tsMs, value);
    if (observations == 0) {
      firstTs = tsMs;
      lastTs = tsMs;
    } else {
      firstTs = Math.min(firstTs, tsMs);
      lastTs = Math.max(lastTs, tsMs);
    }
    if (observations < Integer.MAX_VALUE) {
      observations++;
    }
    cached = null;
    return true;
  }

  /** Writes the observation into the ring (evicting the oldest when full) and the value order. */
  private void store(long tsMs, double value) {
    int slot = head;
    int n = count;
    if (n == windowSize) {
      // the slot about to be overwritten holds the oldest observation: drop it from the order
      int at = 0;
      while (order[at] != slot) {
        at++;
      }
      System.arraycopy(order, at + 1, order, at, n - 1 - at);
      n--;
    } else if (n == timestamps.length) {
      int grown = Math.min(windowSize, n * 2);
      timestamps = Arrays.copyOf(timestamps, grown);
      values = Arrays.copyOf(values, grown);
      order = Arrays.copyOf(order, grown);
    }
    timestamps[slot] = tsMs;
    values[slot] = value;
    // after every equal value, so equal values keep their arrival order
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (values[order[mid]] <= value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    System.arraycopy(order, lo, order, lo + 1, n - lo);
    order[lo] = (short) slot;
    head = head + 1 == windowSize ? 0 : head + 1;
    if (count < windowSize) {
      count++;
    }
  }

  /** The current band; {@link Band#EMPTY all NaN} before the first observation. */
  public Band band() {
    Band b = cached;
    if (b == null) {
      b = compute();
      cached = b;
    }
    return b;
  }

  /** True once at least {@code minObservations} observations were learned. */
  public boolean ready() {
    return observations >= settings.minObservations();
  }

  /** Observations ever learned (saturates at {@link Integer#MAX_VALUE}), not only the window. */
  public int observations() {
    return observations;
  }

  /** Observations currently in the window, {@code min(observations, windowSize)}. */
  public int windowCount() {
    return count;
  }

  /** Smallest event timestamp ever learned, or {@link #NO_TIMESTAMP}. */
  public long firstTimestamp() {
    return firstTs;
  }

  /** Largest event timestamp ever learned ({@code t_now}), or {@link #NO_TIMESTAMP}. */
  public long lastTimestamp() {
    return lastTs;
  }

  /** Weight of an observation at {@code tsMs} relative to {@link #lastTimestamp()}. */
  double weightAt(long tsMs) {
    double age = Math.max(0.0, (double) lastTs - (double) tsMs);
    return Math.pow(2.0, -age / halfLifeMs);
  }

  private Band compute() {
    int n = count;
    if (n == 0) {
      return Band.EMPTY;
    }
    double only = values[order[0]];
    if (only == values[order[n - 1]] && (only != 0 || sameBits(n, only))) {
      // One value fills the window (a gauge at 0, a counter that does not move): it is the
      // weighted median whatever the weights, and every deviation is 0.
      return band(only, 0.0);
    }
    return weightedBand();
  }

  /** True when the first n slots hold this very double; -0.0 and 0.0 compare equal but differ. */
  private boolean sameBits(int n, double value) {
    long bits = Double.doubleToRawLongBits(value);
    for (int i = 0; i < n; i++) {
      if (Double.doubleToRawLongBits(values[i]) != bits) {
        return false;
      }
    }
    return true;
  }

  /** The band through the weights, without the shortcut for a window of one value. */
  Band weightedBand() {
    int n = count;
    if (n == 0) {
      return Band.EMPTY;
    }
    Scratch scratch = SCRATCH.get();
    double[] weights = scratch.weights;
    double total;
    if (scratch.holdsWeightsOf(timestamps, n, lastTs, halfLifeMs)) {
      total = scratch.total;
    } else {
      total = 0;
      // summed in slot order, as the definition's W is; the order of a float sum matters
      for (int i = 0; i < n; i++) {
        double w = scratch.weight(Math.max(0.0, (double) lastTs - (double) timestamps[i]),
            halfLifeMs);
        weights[i] = w;
        total += w;
      }
      scratch.keptWeightsOf(timestamps, n, lastTs, halfLifeMs, total);
    }
    double half = total / 2;
    double[] vals = values;
    short[] ord = order;

    // weighted median: smallest value whose cumulative weight reaches half
    int m = n - 1; // only kept through rounding of the running sum
    double cumulative = 0;
    for (int k = 0; k < n; k++) {
      cumulative += weights[ord[k]];
      if (cumulative >= half) {
        m = k;
        break;
      }
    }
    double median = vals[ord[m]];

    // Weighted MAD. Values at or below the median, walked downwards, have ascending deviations;
    // so do the values above it walked upwards; merging the two walks orders all deviations.
    int below = m;
    while (below + 1 < n && vals[ord[below + 1]] <= median) {
      below++;
    }
    int above = below + 1;
    double mad = 0;
    cumulative = 0;
    boolean found = false;
    double lastDeviation = 0;
    while (below >= 0 || above < n) {
      int slot;
      double deviation;
      double dLow = below >= 0 ? Math.abs(vals[ord[below]] - median) : Double.POSITIVE_INFINITY;
      double dHigh = above < n ? Math.abs(vals[ord[above]] - median) : Double.POSITIVE_INFINITY;
      if (dLow <= dHigh) {
        slot = ord[below--];
        deviation = dLow;
      } else {
        slot = ord[above++];
        deviation = dHigh;
      }
      lastDeviation = deviation;
      cumulative += weights[slot];
      if (cumulative >= half) {
        mad = deviation;
        found = true;
        break;
      }
    }
    if (!found) {
      mad = lastDeviation; // the largest deviation, only through rounding of the running sum
    }
    return band(median, mad);
  }

  private Band band(double median, double mad) {
    double spread = MAD_TO_SIGMA * mad;
    double h = Math.max(settings.bandWidth() * spread,
        Math.max(settings.relativeFloor() * Math.abs(median), absoluteFloor));
    return new Band(median, median - h, median + h, spread);
  }

  /**
   * Per-thread scratch: the weights of one recompute, and a memo of {@code 2^(-age / halfLife)}.
   * Series scraped from one target share their timestamps, so their baselines see the same ages
   * over and over; the memo returns the very double {@code Math.pow} gave for that age, so bands
   * are bit-for-bit what computing every weight would give.
   *
   * <p>The weights and their sum depend on nothing but the window's timestamps in slot order, the
   * newest timestamp and the half-life. The baselines of one target's series are usually
   * recomputed one after another with equal windows, so the scratch remembers what its weights
   * were computed from: comparing the timestamps is cheaper than looking up every weight again.
   */
  private static final class Scratch {
    private static final int MEMO_SLOTS = 1 << 12;

    final double[] weights = new double[MAX_WINDOW];
    /** Sum of {@code weights[0, keptCount)} in slot order; valid while keptCount >= 0. */
    double total;
    private final long[] keptTimestamps = new long[MAX_WINDOW];
    private int keptCount = -1;
    private long keptLastTs;
    private double keptHalfLifeMs;
    private final double[] ages = new double[MEMO_SLOTS];
    private final double[] powers = new double[MEMO_SLOTS];
    private double memoHalfLifeMs = Double.NaN;

    Scratch() {
      Arrays.fill(ages, Double.NaN); // NaN equals no age
    }

    /** True when {@code weights} and {@code total} are those of this window. */
    boolean holdsWeightsOf(long[] timestamps, int n, long lastTs, double halfLifeMs) {
      return n == keptCount && lastTs == keptLastTs && halfLifeMs == keptHalfLifeMs
          && Arrays.equals(timestamps, 0, n, keptTimestamps, 0, n);
    }

    void keptWeightsOf(long[] timestamps, int n, long lastTs, double halfLifeMs, double total) {
      System.arraycopy(timestamps, 0, keptTimestamps, 0, n);
      keptCount = n;
      keptLastTs = lastTs;
      keptHalfLifeMs = halfLifeMs;
      this.total = total;
    }

    double weight(double age, double halfLifeMs) {
      if (halfLifeMs != memoHalfLifeMs) {
        Arrays.fill(ages, Double.NaN);
        memoHalfLifeMs = halfLifeMs;
      }
      long bits = Double.doubleToRawLongBits(age);
      int slot = (int) ((bits * 0x9E3779B97F4A7C15L) >>> 52);
      if (ages[slot] == age) {
        return powers[slot];
      }
      double w = Math.pow(2.0, -age / halfLifeMs);
      ages[slot] = age;
      powers[slot] = w;
      return w;
    }
  }

  // ---------------------------------------------------------------- snapshot

  /**
   * Writes the state: version byte, window size of the writer, observations, first and last
   * timestamp, window count, then the window oldest first as {@code (long ts, double value)}.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(SNAPSHOT_VERSION);
    out.writeInt(windowSize);
    out.writeInt(observations);
    out.writeLong(firstTs);
    out.writeLong(lastTs);
    out.writeInt(count);
    int start = count < windowSize ? 0 : head;
    for (int i = 0; i < count; i++) {
      int slot = (start + i) % windowSize;
      out.writeLong(timestamps[slot]);
      out.writeDouble(values[slot]);
    }
  }

  /**
   * Restores a baseline written by {@link #writeTo}. When the snapshot's window is larger than the
   * current {@code windowSize}, only its newest {@code windowSize} observations are kept.
   *
   * @throws IOException on a truncated stream, an unknown version or inconsistent contents
   */
  public static RobustBaseline readFrom(DataInput in, Signal signal, DetectorSettings settings)
      throws IOException {
    try {
      return read(in, signal, settings);
    } catch (EOFException e) {
      throw new IOException("truncated baseline snapshot", e);
    }
  }

  private static RobustBaseline read(DataInput in, Signal signal, DetectorSettings settings)
      throws IOException {
    int version = in.readUnsignedByte();
    if (version != SNAPSHOT_VERSION) {
      throw new IOException("unsupported baseline snapshot version " + version);
    }
    int storedWindow = in.readInt();
    int observations = in.readInt();
    long first = in.readLong();
    long last = in.readLong();
    int count = in.readInt();
    if (storedWindow < 1 || storedWindow > MAX_WINDOW) {
      throw new IOException("baseline snapshot window size out of range: " + storedWindow);
    }
    if (observations < 0) {
      throw new IOException("baseline snapshot has negative observation count " + observations);
    }
    if (count < 0 || count > storedWindow) {
      throw new IOException(
          "baseline snapshot window count " + count + " outside [0, " + storedWindow + "]");
    }
    if (count != Math.min(observations, storedWindow)) {
      throw new IOException(
          "baseline snapshot window count " + count + " does not match " + observations
              + " observations in a window of " + storedWindow);
    }
    if (observations > 0 && first > last) {
      throw new IOException("baseline snapshot first timestamp after last timestamp");
    }
    RobustBaseline b = new RobustBaseline(signal, settings);
    int skip = Math.max(0, count - b.windowSize);
    for (int i = 0; i < count; i++) {
      long ts = in.readLong();
      double v = in.readDouble();
      if (!Double.isFinite(v)) {
        throw new IOException("baseline snapshot value " + i + " is not finite");
      }
      if (ts < first || ts > last) {
        throw new IOException("baseline snapshot timestamp " + i + " outside [first, last]");
      }
      if (i >= skip) {
        b.store(ts, v);
      }
    }
    b.observations = observations;
    b.firstTs = observations == 0 ? NO_TIMESTAMP : first;
    b.lastTs = observations == 0 ? NO_TIMESTAMP : last;
    b.cached = null;
    return b;
  }
}
