package dev.checkpointdoctor.detector.trend;

import java.util.Arrays;

/**
 * A few ranks of an array without sorting all of it: a Theil–Sen fit reads three or four ranks of
 * up to 11,175 pair slopes, and sorting them all was most of the trend test's CPU.
 *
 * <p>After {@link #place}, every requested position holds exactly the value {@link
 * Arrays#sort(double[], int, int)} would have put there, bit for bit: -0.0 before 0.0 as the sort
 * orders them, so a fit reads the same numbers either way.
 */
final class OrderStatistics {
  /** Ranges this small are sorted outright. */
  private static final int SORT_BELOW = 24;
  /** Ranges this large are first narrowed to the ranks' neighbourhood by a sample. */
  private static final int SAMPLE_FROM = 600;
  private static final int SAMPLE_SIZE = 128;

  private OrderStatistics() {}

  /**
   * Rearranges {@code a[from, to)} so that each of {@code ranks} (absolute positions in {@code
   * [from, to)}, ascending, no duplicates) holds the value a full sort would put there; the other
   * positions are left in some order.
   */
  static void place(double[] a, int from, int to, int[] ranks, int rankCount) {
    for (int i = from; i < to; i++) {
      if (Double.isNaN(a[i])) {
        Arrays.sort(a, from, to); // NaN compares with nothing: the sort knows where it goes
        return;
      }
    }
    if (rankCount == 0) {
      return;
    }
    int depthBudget = 2 * (32 - Integer.numberOfLeadingZeros(Math.max(1, to - from))) + 8;
    long parts = to - from >= SAMPLE_FROM ? narrow(a, from, to, ranks[0], ranks[rankCount - 1])
        : -1;
    if (parts == -1) {
      // quickselect degrades on adversarial orders: past this depth the rest is sorted instead
      select(a, from, to, ranks, 0, rankCount, depthBudget);
      return;
    }
    // [from, lt) < [lt, gt) < [gt, to): each part holds its own ranks, usually all in the middle
    int lt = (int) (parts >>> 32);
    int gt = (int) parts;
    int left = 0;
    while (left < rankCount && ranks[left] < lt) {
      left++;
    }
    int right = left;
    while (right < rankCount && ranks[right] < gt) {
      right++;
    }
    select(a, from, lt, ranks, 0, left, depthBudget);
    select(a, lt, gt, ranks, left, right, depthBudget);
    select(a, gt, to, ranks, right, rankCount, depthBudget);
  }

  /**
   * One pass that moves everything below a low pivot to the left and everything above a high
   * pivot to the right, the pivots read off a sorted sample of the range so that the ranks {@code
   * [first, last]} most likely fall between them (Floyd and Rivest's idea): the ranks are then in
   * a middle part of a few hundred values instead of thousands.
   *
   * @return the middle part as {@code from << 32 | to}, or -1 when the sample has one value
   *     across the ranks and nothing was moved
   */
  private static long narrow(double[] a, int from, int to, int first, int last) {
    int n = to - from;
    double[] sample = new double[SAMPLE_SIZE];
    for (int i = 0; i < SAMPLE_SIZE; i++) {
      sample[i] = a[from + (int) ((long) i * n / SAMPLE_SIZE)];
    }
    Arrays.sort(sample);
    // a guard of a few sample ranks each way: the sample's ranks scatter about sqrt(sample)
    int guard = 12;
    int low = (int) ((long) (first - from) * SAMPLE_SIZE / n) - guard;
    int high = (int) ((long) (last - from) * SAMPLE_SIZE / n) + guard;
    double lowPivot = low < 0 ? Double.NEGATIVE_INFINITY : sample[low];
    double highPivot = high >= SAMPLE_SIZE ? Double.POSITIVE_INFINITY : sample[high];
    if (!(lowPivot < highPivot)) {
      return -1; // one value spans the ranks: a three-way partition on it does this better
    }
    // values equal to a pivot (and both zeros when a pivot is zero) stay in the middle, which
    // select orders exactly
    return partition(a, from, to, lowPivot, highPivot);
  }

  /**
   * Moves the values of {@code a[from, to)} below {@code low} to the left and those above {@code
   * high} to the right, in one pass.
   *
   * @return the middle part, holding the values in {@code [low, high]}, as {@code lt << 32 | gt}
   */
  private static long partition(double[] a, int from, int to, double low, double high) {
    int lt = from;
    int i = from;
    int gt = to;
    while (i < gt) {
      double v = a[i];
      if (v < low) {
        a[i++] = a[lt];
        a[lt++] = v;
      } else if (v > high) {
        a[i] = a[--gt];
        a[gt] = v;
      } else {
        i++;
      }
    }
    return (long) lt << 32 | gt;
  }

  private static void select(double[] a, int lo, int hi, int[] ranks, int rlo, int rhi,
      int depthBudget) {
    while (rlo < rhi) {
      if (hi - lo < SORT_BELOW || depthBudget-- <= 0) {
        Arrays.sort(a, lo, hi);
        return;
      }
      double pivot = medianOfThree(a[lo], a[(lo + hi) >>> 1], a[hi - 1]);
      // three ways: pair slopes of integral values tie often, and ties must not recurse
      long parts = partition(a, lo, hi, pivot, pivot);
      int lt = (int) (parts >>> 32);
      int gt = (int) parts;
      if (pivot == 0) {
        // -0.0 == 0.0, but the sort puts every -0.0 first
        int negative = 0;
        for (int j = lt; j < gt; j++) {
          if (Double.doubleToRawLongBits(a[j]) < 0) {
            negative++;
          }
        }
        Arrays.fill(a, lt, lt + negative, -0.0);
        Arrays.fill(a, lt + negative, gt, 0.0);
      }
      int left = rlo;
      while (left < rhi && ranks[left] < lt) {
        left++;
      }
      int right = left;
      while (right < rhi && ranks[right] < gt) {
        right++;
      }
      // ranks in [lt, gt) hold the pivot already
      if (left - rlo < rhi - right) {
        select(a, lo, lt, ranks, rlo, left, depthBudget);
        lo = gt;
        rlo = right;
      } else {
        select(a, gt, hi, ranks, right, rhi, depthBudget);
        hi = lt;
        rhi = left;
      }
    }
  }

  private static double medianOfThree(double a, double b, double c) {
    if (a < b) {
      return b < c ? b : Math.max(a, c);
    }
    return a < c ? a : Math.max(b, c);
  }
}
