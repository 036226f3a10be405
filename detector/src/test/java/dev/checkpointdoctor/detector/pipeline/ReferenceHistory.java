package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * The straightforward layout {@link RecentHistory} had before it was packed (int time offsets and
 * values in plain arrays), with values rounded to float, fractional ones to 16 significant bits,
 * as RecentHistory now keeps them: the model its packed form is checked against. Test only.
 *
 * <p>Bounded raw history of one (job, signal, scope): points younger than {@link #SPAN_MS} of event
 * time, at most {@link #CAPACITY}. When full, the older half is thinned to every second point, so
 * the whole span stays covered with recent points at full resolution and older ones sparser.
 * Arrays start small and grow, because most scopes of a big job are sparse or short-lived.
 */
final class ReferenceHistory implements SeriesHistory {
  static final long SPAN_MS = RecentHistory.SPAN_MS;
  static final int CAPACITY = RecentHistory.CAPACITY;
  private static final int INITIAL = 8;

  private final Signal signal;
  private final String scope;
  // Times as int milliseconds from base: the span is 2 h, so an int holds every offset exactly and
  // a full history costs 3 KiB instead of 4 KiB.
  private long base = Long.MIN_VALUE;
  private int[] times = new int[INITIAL];
  private double[] values = new double[INITIAL];
  private int size;
  /** Points expired off the front so far: see {@link #firstPosition()}. */
  private long expiredCount;
  /** Bumped when thinning or a rebase removes points: see {@link #layoutVersion()}. */
  private long layoutVersion;

  ReferenceHistory(Signal signal, String scope) {
    this.signal = signal;
    this.scope = scope;
  }

  /** A float's fractional values on a grid of 16 significant bits, the nearest grid point. */
  static double kept(double value) {
    float f = (float) value;
    if (f == Math.rint(f) || !Float.isFinite(f)) {
      return f;
    }
    int exponent = Math.max(Math.getExponent(f), Float.MIN_EXPONENT); // subnormals: the same grid
    // Math.rint rounds half to even; scalb by powers of two is exact here
    return (float) Math.scalb(Math.rint(Math.scalb((double) f, 15 - exponent)), exponent - 15);
  }

  void add(long timeMs, double value) {
    int expired = 0;
    while (expired < size && timeMs(expired) < timeMs - SPAN_MS) {
      expired++;
    }
    if (expired > 0) {
      System.arraycopy(times, expired, times, 0, size - expired);
      System.arraycopy(values, expired, values, 0, size - expired);
      size -= expired;
      expiredCount += expired;
    }
    if (size == CAPACITY) {
      thinOlderHalf();
    }
    if (size == times.length) {
      int grown = Math.min(CAPACITY, times.length * 2);
      times = java.util.Arrays.copyOf(times, grown);
      values = java.util.Arrays.copyOf(values, grown);
    }
    if (size == 0 || !fits(timeMs)) {
      rebase(timeMs);
    }
    times[size] = (int) (timeMs - base);
    values[size] = kept(value);
    size++;
  }

  private boolean fits(long timeMs) {
    long offset = timeMs - base;
    return offset >= Integer.MIN_VALUE && offset <= Integer.MAX_VALUE;
  }

  /**
   * Moves the base to {@code timeMs}. Kept points lie within SPAN_MS of the newest, so they all
   * fit again; only a point more than 24 days out of order could not, and it is dropped.
   */
  private void rebase(long timeMs) {
    int w = 0;
    for (int r = 0; r < size; r++) {
      long t = base + times[r];
      long offset = t - timeMs;
      if (offset >= Integer.MIN_VALUE && offset <= Integer.MAX_VALUE) {
        times[w] = (int) offset;
        values[w] = values[r];
        w++;
      }
    }
    if (w < size) {
      layoutVersion++;
    }
    size = w;
    base = timeMs;
  }

  private void thinOlderHalf() {
    int half = size / 2;
    int w = 0;
    for (int r = 0; r < half; r += 2) {
      times[w] = times[r];
      values[w] = values[r];
      w++;
    }
    for (int r = half; r < size; r++) {
      times[w] = times[r];
      values[w] = values[r];
      w++;
    }
    size = w;
    layoutVersion++;
  }

  @Override
  public Signal signal() {
    return signal;
  }

  @Override
  public String scope() {
    return scope;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public long timeMs(int i) {
    return base + times[i];
  }

  @Override
  public double value(int i) {
    return values[i];
  }

  @Override
  public long firstPosition() {
    return expiredCount;
  }

  @Override
  public long layoutVersion() {
    return layoutVersion;
  }
}
