package dev.checkpointdoctor.detector.baseline;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;

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
 * <p>The band is cached and recomputed lazily (two sorts of at most {@code windowSize} values)
 * after a learn. Not thread-safe.
 */
public final class RobustBaseline {

  /** Consistency constant turning a MAD into a standard deviation for normal data. */
  public static final double MAD_TO_SIGMA = 1.4826;

  /** Returned by {@link #firstTimestamp()} / {@link #lastTimestamp()} before any observation. */
  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  static final byte SNAPSHOT_VERSION = 1;
  private static final int MAX_WINDOW = 4096;

  private final double absoluteFloor;
  private final double bandWidth;
  private final double relativeFloor;
  private final double halfLifeMs;
  private final int minObservations;
  private final int windowSize;

  private final long[] timestamps;
  private final double[] values;
  private int head; // slot of the next write
  private int count; // filled slots
  private int observations; // ever learned, saturating
  private long firstTs = NO_TIMESTAMP;
  private long lastTs = NO_TIMESTAMP;

  // scratch for the band computation, allocated once
  private final double[] keys;
  private final double[] weights;
  private Band cached = Band.EMPTY; // null means stale

  public RobustBaseline(Signal signal, DetectorSettings settings) {
    this(signal.absoluteFloor(), settings);
  }

  /** For series outside the signal catalog, whose unit floor the caller knows. */
  RobustBaseline(double absoluteFloor, DetectorSettings settings) {
    this.absoluteFloor = absoluteFloor;
    this.bandWidth = settings.bandWidth();
    this.relativeFloor = settings.relativeFloor();
    // seconds + nanos: toNanos()/toMillis() would overflow or truncate for extreme half-lives
    this.halfLifeMs =
        settings.halfLife().getSeconds() * 1000.0 + settings.halfLife().getNano() / 1e6;
    this.minObservations = settings.minObservations();
    this.windowSize = settings.windowSize();
    this.timestamps = new long[windowSize];
    this.values = new double[windowSize];
    this.keys = new double[windowSize];
    this.weights = new double[windowSize];
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
    timestamps[head] = tsMs;
    values[head] = value;
    head = head + 1 == windowSize ? 0 : head + 1;
    if (count < windowSize) {
      count++;
    }
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
    return observations >= minObservations;
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
    double total = 0;
    for (int i = 0; i < n; i++) {
      keys[i] = values[i];
      double w = weightAt(timestamps[i]);
      weights[i] = w;
      total += w;
    }
    double median = weightedMedian(keys, weights, n, total);
    for (int i = 0; i < n; i++) {
      keys[i] = Math.abs(keys[i] - median);
    }
    double mad = weightedMedian(keys, weights, n, total);
    double spread = MAD_TO_SIGMA * mad;
    double h =
        Math.max(bandWidth * spread, Math.max(relativeFloor * Math.abs(median), absoluteFloor));
    return new Band(median, median - h, median + h, spread);
  }

  /**
   * Sorts {@code keys[0..n)} with their weights and returns the smallest key whose cumulative
   * weight reaches half of {@code total}.
   */
  static double weightedMedian(double[] keys, double[] weights, int n, double total) {
    heapSort(keys, weights, n);
    double half = total / 2;
    double cumulative = 0;
    for (int k = 0; k < n; k++) {
      cumulative += weights[k];
      if (cumulative >= half) {
        return keys[k];
      }
    }
    return keys[n - 1]; // only reachable through rounding of the running sum
  }

  /** In-place heap sort of {@code keys[0..n)} ascending, moving {@code weights} along. */
  private static void heapSort(double[] keys, double[] weights, int n) {
    for (int i = n / 2 - 1; i >= 0; i--) {
      siftDown(keys, weights, i, n);
    }
    for (int end = n - 1; end > 0; end--) {
      swap(keys, weights, 0, end);
      siftDown(keys, weights, 0, end);
    }
  }

  private static void siftDown(double[] keys, double[] weights, int root, int n) {
    while (true) {
      int child = 2 * root + 1;
      if (child >= n) {
        return;
      }
      if (child + 1 < n && keys[child + 1] > keys[child]) {
        child++;
      }
      if (keys[root] >= keys[child]) {
        return;
      }
      swap(keys, weights, root, child);
      root = child;
    }
  }

  private static void swap(double[] keys, double[] weights, int a, int b) {
    double k = keys[a];
    keys[a] = keys[b];
    keys[b] = k;
    double w = weights[a];
    weights[a] = weights[b];
    weights[b] = w;
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
        b.timestamps[b.head] = ts;
        b.values[b.head] = v;
        b.head = b.head + 1 == b.windowSize ? 0 : b.head + 1;
        b.count++;
      }
    }
    b.observations = observations;
    b.firstTs = observations == 0 ? NO_TIMESTAMP : first;
    b.lastTs = observations == 0 ? NO_TIMESTAMP : last;
    b.cached = null;
    return b;
  }
}
