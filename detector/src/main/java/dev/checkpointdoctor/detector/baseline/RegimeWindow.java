package dev.checkpointdoctor.detector.baseline;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The observations of one open anomaly, from its opening on: the regime the signal runs in since
 * it left its band. Whether that regime is a level that holds (a new normal) or still moves (a
 * trend, a fault that worsens) is judged on these points by {@link #holds}.
 *
 * <p>Keeps at most {@code capacity} points evenly spread over the whole run: when full, every
 * second point is dropped and from then on only every second arrival is kept (the stride
 * doubles), so a run of days costs as much as a run of minutes and its early part is never
 * forgotten. Not thread-safe.
 */
final class RegimeWindow {
  /** Mann-Kendall |Z| above which a monotone drift is taken as real (about 1 in 370 by chance). */
  static final double DRIFT_Z = 3.0;

  private final int capacity;
  private long[] times;
  private double[] values;
  private int count;
  private int stride = 1; // an arrival is kept when its sequence number is a multiple of this
  private long seen; // arrivals since the run began
  private long firstMs;
  private long lastMs;

  RegimeWindow(int capacity) {
    if (capacity < 8) {
      throw new IllegalArgumentException("a regime window needs at least 8 points");
    }
    this.capacity = capacity;
    int initial = Math.min(capacity, 16);
    this.times = new long[initial];
    this.values = new double[initial];
  }

  /**
   * Adds one observation (event time never decreases within one tracker).
   *
   * @return true when it was kept (a new point to judge on)
   */
  boolean add(long tsMs, double value) {
    if (seen == 0) {
      firstMs = tsMs;
    }
    lastMs = Math.max(lastMs, tsMs);
    long sequence = seen++;
    if (sequence % stride != 0) {
      return false;
    }
    if (count == capacity) {
      // keep the even positions: the points whose sequence number is a multiple of 2 x stride
      int kept = 0;
      for (int i = 0; i < count; i += 2) {
        times[kept] = times[i];
        values[kept] = values[i];
        kept++;
      }
      count = kept;
      stride *= 2;
      if (sequence % stride != 0) {
        return false;
      }
    }
    if (count == times.length) {
      int grown = Math.min(capacity, count * 2);
      times = Arrays.copyOf(times, grown);
      values = Arrays.copyOf(values, grown);
    }
    times[count] = tsMs;
    values[count] = value;
    count++;
    return true;
  }

  /** Observations since the run began, kept or not. */
  long seen() {
    return seen;
  }

  /** Points kept. */
  int size() {
    return count;
  }

  /** Event time of the run's first observation. */
  long firstMs() {
    return firstMs;
  }

  /** Event-time span from the first to the latest observation. */
  long spanMs() {
    return seen == 0 ? 0 : lastMs - firstMs;
  }

  long timeAt(int i) {
    return times[i];
  }

  double valueAt(int i) {
    return values[i];
  }

  /**
   * Whether the run is one level that holds rather than a move still under way. With {@code c}
   * the run's median and {@code h = halfWidth(c, spread)} the band it would have as a baseline:
   *
   * <ul>
   *   <li>its two halves (by time) agree: their medians differ by at most {@code h / 2}; and
   *   <li>it does not drift: either Mann-Kendall finds no monotone trend (|Z| below {@link
   *       #DRIFT_Z}), or the Theil-Sen slope moves the level by at most {@code h / 4} over the
   *       run, too little to leave the new band soon.
   * </ul>
   *
   * A steady trend fails the second test however slow it is, once it is significant and has moved
   * the level by a quarter of the band; a fault that keeps worsening fails the first.
   */
  boolean holds(BandRule band) {
    int n = count;
    if (n < 8) {
      return false;
    }
    double[] scratch = Arrays.copyOf(values, n);
    Arrays.sort(scratch);
    double center = median(scratch, 0, n);
    for (int i = 0; i < n; i++) {
      scratch[i] = Math.abs(values[i] - center);
    }
    Arrays.sort(scratch);
    double spread = RobustBaseline.MAD_TO_SIGMA * median(scratch, 0, n);
    double h = band.halfWidth(center, spread);

    int half = n / 2;
    double first = sortedMedian(0, half);
    double second = sortedMedian(n - half, n);
    if (Math.abs(second - first) > h / 2) {
      return false;
    }
    if (Math.abs(mannKendallZ()) < DRIFT_Z) {
      return true;
    }
    return Math.abs(theilSenSlope() * (times[n - 1] - times[0])) <= h / 4;
  }

  private double sortedMedian(int from, int to) {
    double[] part = Arrays.copyOfRange(values, from, to);
    Arrays.sort(part);
    return median(part, 0, part.length);
  }

  private static double median(double[] sorted, int from, int to) {
    int n = to - from;
    int mid = from + n / 2;
    return n % 2 == 1 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
  }

  /** Mann-Kendall statistic over the kept points in time order, with continuity correction. */
  double mannKendallZ() {
    int n = count;
    long s = 0;
    for (int i = 0; i < n - 1; i++) {
      double vi = values[i];
      for (int j = i + 1; j < n; j++) {
        s += Double.compare(values[j], vi) > 0 ? 1 : values[j] < vi ? -1 : 0;
      }
    }
    double variance = n * (n - 1.0) * (2.0 * n + 5) / 18.0;
    if (s == 0) {
      return 0;
    }
    return (s - Math.signum(s)) / Math.sqrt(variance);
  }

  /** Median of the pairwise slopes (value per millisecond) over the kept points. */
  double theilSenSlope() {
    int n = count;
    double[] slopes = new double[n * (n - 1) / 2];
    int k = 0;
    for (int i = 0; i < n - 1; i++) {
      for (int j = i + 1; j < n; j++) {
        long dt = times[j] - times[i];
        if (dt > 0) {
          slopes[k++] = (values[j] - values[i]) / dt;
        }
      }
    }
    if (k == 0) {
      return 0;
    }
    Arrays.sort(slopes, 0, k);
    return median(slopes, 0, k);
  }

  /** How a center and spread become a band half-width (the baseline's rule). */
  @FunctionalInterface
  interface BandRule {
    double halfWidth(double center, double spread);
  }

  // ---------------------------------------------------------------- snapshot

  void writeTo(DataOutput out) throws IOException {
    out.writeInt(stride);
    out.writeLong(seen);
    out.writeLong(firstMs);
    out.writeLong(lastMs);
    out.writeInt(count);
    for (int i = 0; i < count; i++) {
      out.writeLong(times[i]);
      out.writeDouble(values[i]);
    }
  }

  static RegimeWindow readFrom(DataInput in, int capacity) throws IOException {
    int stride = in.readInt();
    long seen = in.readLong();
    long first = in.readLong();
    long last = in.readLong();
    int count = in.readInt();
    if (stride < 1 || Integer.bitCount(stride) != 1) {
      throw new IOException("regime snapshot stride " + stride + " is not a power of two");
    }
    if (seen < 0 || count < 0 || count > seen || (seen > 0) != (count > 0) || first > last) {
      throw new IOException("regime snapshot is inconsistent: " + count + " of " + seen
          + " points");
    }
    if (count > (1 << 20)) {
      throw new IOException("regime snapshot has " + count + " points");
    }
    RegimeWindow w = new RegimeWindow(capacity);
    w.times = new long[Math.max(count, 1)];
    w.values = new double[Math.max(count, 1)];
    long previous = Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      long t = in.readLong();
      double v = in.readDouble();
      if (!Double.isFinite(v) || t < previous || t < first || t > last) {
        throw new IOException("regime snapshot point " + i + " is out of order or not finite");
      }
      previous = t;
      w.times[i] = t;
      w.values[i] = v;
    }
    w.count = count;
    // written by a tracker with a larger window: thin as the writer would have
    while (w.count > capacity) {
      int kept = 0;
      for (int i = 0; i < w.count; i += 2) {
        w.times[kept] = w.times[i];
        w.values[kept] = w.values[i];
        kept++;
      }
      w.count = kept;
      stride *= 2;
    }
    w.stride = stride;
    w.seen = seen;
    w.firstMs = first;
    w.lastMs = last;
    return w;
  }
}
