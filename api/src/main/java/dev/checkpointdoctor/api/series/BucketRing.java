package dev.checkpointdoctor.api.series;

import java.util.Arrays;

/**
 * Fixed-width event-time buckets of one series, oldest first, in a growable ring. Columns are
 * primitive arrays so a bucket costs 31 bytes (int index, six floats, the second of its first
 * observation, one flag byte); floats keep about seven significant digits, plenty for a chart.
 * The first observation's time lets a chart draw a change where it happened, not at the bucket's
 * edge. Capacity doubles up to the cap, so a series
 * that has seen little costs little. Not thread-safe: {@link SeriesHistory} guards it.
 */
final class BucketRing {
  private static final int INITIAL_CAPACITY = 8;
  static final int BYTES_PER_BUCKET = 4 + 6 * 4 + 2 + 1;
  private static final byte OUTSIDE = 1;

  private final long bucketMs;
  private int[] index = new int[0];
  private float[] min = new float[0];
  private float[] max = new float[0];
  private float[] last = new float[0];
  private float[] expected = new float[0];
  private float[] lower = new float[0];
  private float[] upper = new float[0];
  private char[] firstSecond = new char[0];
  private byte[] flags = new byte[0];
  private int head;
  private int size;

  BucketRing(long bucketMs) {
    this.bucketMs = bucketMs;
  }

  long bucketMs() {
    return bucketMs;
  }

  int size() {
    return size;
  }

  /** Start of the oldest bucket, or Long.MAX_VALUE when empty. */
  long oldestStartMs() {
    return size == 0 ? Long.MAX_VALUE : (long) index[head] * bucketMs;
  }

  long newestStartMs() {
    return size == 0 ? Long.MIN_VALUE : (long) index[slot(size - 1)] * bucketMs;
  }

  /**
   * Adds one judged observation. Returns the change in stored buckets (may be negative when the
   * cap or the retention evicts). An observation older than every stored bucket, or falling in a
   * gap between them, is dropped: the detector hands them over in event-time order per series.
   */
  int add(long tsMs, double observed, double exp, double lo, double hi, boolean outside,
      int maxBuckets, long retentionMs) {
    int before = size;
    int idx = (int) Math.floorDiv(tsMs, bucketMs);
    // Observations arrive in event-time order per series, so nearly all fall in the newest
    // bucket or start the next one: look there before searching the ring.
    int newest = size == 0 ? 0 : index[slot(size - 1)];
    int pos = size == 0 || idx > newest ? -1 : idx == newest ? size - 1 : find(idx);
    if (pos >= 0) {
      merge(slot(pos), observed, exp, lo, hi, outside);
    } else if (size == 0 || idx > newest) {
      append(idx, observed, exp, lo, hi, outside, maxBuckets);
      // seconds into the bucket (a bucket is at most 10 min): exact enough to draw a step
      firstSecond[slot(size - 1)] = (char) Math.min(Character.MAX_VALUE,
          (tsMs - (long) idx * bucketMs) / 1000);
    }
    long oldestKept = Math.floorDiv(tsMs - retentionMs, bucketMs);
    while (size > 0 && (index[head] < oldestKept || size > maxBuckets)) {
      dropOldest();
    }
    return size - before;
  }

  /** Evicts the oldest buckets until at most {@code maxBuckets} remain; returns how many went. */
  int trimTo(int maxBuckets) {
    int dropped = 0;
    while (size > maxBuckets) {
      dropOldest();
      dropped++;
    }
    return dropped;
  }

  /** Calls back every bucket whose start lies in [fromMs, toMs), oldest first. */
  void forEach(long fromMs, long toMs, BucketConsumer out) {
    for (int i = 0; i < size; i++) {
      int s = slot(i);
      long start = (long) index[s] * bucketMs;
      if (start + bucketMs <= fromMs) {
        continue;
      }
      if (start >= toMs) {
        break;
      }
      out.accept(start, start + firstSecond[s] * 1000L, min[s], max[s], last[s], expected[s],
          lower[s], upper[s], (flags[s] & OUTSIDE) != 0);
    }
  }

  interface BucketConsumer {
    void accept(long startMs, long firstMs, float min, float max, float last, float expected,
        float lower, float upper, boolean outside);
  }

  private int find(int idx) {
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int v = index[slot(mid)];
      if (v < idx) {
        lo = mid + 1;
      } else if (v > idx) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  private void merge(int s, double observed, double exp, double lo, double hi, boolean outside) {
    float o = (float) observed;
    min[s] = Math.min(min[s], o);
    max[s] = Math.max(max[s], o);
    last[s] = o;
    // The band of the bucket's latest judgement: what the value was last held against.
    expected[s] = (float) exp;
    lower[s] = (float) lo;
    upper[s] = (float) hi;
    if (outside) {
      flags[s] |= OUTSIDE;
    }
  }

  private void append(int idx, double observed, double exp, double lo, double hi,
      boolean outside, int maxBuckets) {
    if (size == index.length) {
      if (size >= maxBuckets) {
        dropOldest();
      } else {
        grow(Math.min(Math.max(INITIAL_CAPACITY, index.length * 2), maxBuckets));
      }
    }
    int s = slot(size);
    index[s] = idx;
    float o = (float) observed;
    min[s] = o;
    max[s] = o;
    last[s] = o;
    expected[s] = (float) exp;
    lower[s] = (float) lo;
    upper[s] = (float) hi;
    flags[s] = outside ? OUTSIDE : 0;
    size++;
  }

  private void dropOldest() {
    head = (head + 1) % index.length;
    size--;
  }

  private void grow(int capacity) {
    index = reorder(index, capacity);
    min = reorder(min, capacity);
    max = reorder(max, capacity);
    last = reorder(last, capacity);
    expected = reorder(expected, capacity);
    lower = reorder(lower, capacity);
    upper = reorder(upper, capacity);
    flags = reorder(flags, capacity);
    firstSecond = reorder(firstSecond, capacity);
    head = 0;
  }

  private int[] reorder(int[] a, int capacity) {
    int[] b = new int[capacity];
    unwrap(a, a.length, b);
    return b;
  }

  private float[] reorder(float[] a, int capacity) {
    float[] b = new float[capacity];
    Arrays.fill(b, size, capacity, Float.NaN);
    unwrap(a, a.length, b);
    return b;
  }

  private char[] reorder(char[] a, int capacity) {
    char[] b = new char[capacity];
    unwrap(a, a.length, b);
    return b;
  }

  private byte[] reorder(byte[] a, int capacity) {
    byte[] b = new byte[capacity];
    unwrap(a, a.length, b);
    return b;
  }

  /** Copies the ring's buckets of {@code from} (of {@code length} slots) oldest first to 0. */
  private void unwrap(Object from, int length, Object to) {
    int tail = Math.min(size, length - head); // from head to the end of the array
    System.arraycopy(from, head, to, 0, tail);
    System.arraycopy(from, 0, to, tail, size - tail);
  }

  private int slot(int logical) {
    return (head + logical) % index.length;
  }
}
