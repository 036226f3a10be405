package dev.checkpointdoctor.detector.trend;

/** Merge sort of keys that counts, and on request lists, their inversions (for PairSlopes). */
final class Inversions {
  private Inversions() {}

  /**
   * The pairs a merge finds out of order, as points {@code a < b} of a pair slope: each slope
   * is computed as the fit computes it and counted below {@code low}, kept within {@code [low,
   * high]}, or dropped above.
   */
  static final class Between {
    private final double[] x;
    private final double[] y;
    private final double low;
    private final double high;
    final double[] kept;
    int n;
    long below;
    /** False once a pair came out of index order: a key comparison the bound did not cover. */
    boolean consistent = true;

    Between(double[] x, double[] y, double low, double high, int room) {
      this.x = x;
      this.y = y;
      this.low = low;
      this.high = high;
      this.kept = new double[room];
    }

    /** @return false to stop: no room left, or an inconsistency */
    boolean pair(int first, int second) {
      if (first > second) {
        consistent = false;
        return false;
      }
      double slope = (y[second] - y[first]) / (x[second] - x[first]);
      if (slope < low) {
        below++;
      } else if (slope <= high) {
        if (n == kept.length) {
          n++; // over the limit: the caller falls back
          return false;
        }
        kept[n++] = slope;
      }
      return true;
    }
  }

  /**
   * Sorts {@code keys[0, m)} ascending, stably, carrying {@code order} along.
   *
   * @param list when not null, receives every inverted pair (earlier element first) until it
   *     returns false
   * @return the number of pairs {@code i < j} with {@code keys[j] < keys[i]}
   */
  static long sort(double[] keys, int[] order, double[] keyBuffer, int[] orderBuffer, int m,
      Between list) {
    long inversions = 0;
    double[] k = keys;
    int[] o = order;
    double[] kb = keyBuffer;
    int[] ob = orderBuffer;
    for (int width = 1; width < m; width *= 2) {
      for (int lo = 0; lo < m; lo += 2 * width) {
        int mid = Math.min(lo + width, m);
        int hi = Math.min(lo + 2 * width, m);
        int i = lo;
        int j = mid;
        int out = lo;
        while (i < mid && j < hi) {
          if (k[j] < k[i]) {
            inversions += mid - i;
            if (list != null) {
              for (int t = i; t < mid; t++) {
                if (!list.pair(o[t], o[j])) {
                  return -1;
                }
              }
            }
            kb[out] = k[j];
            ob[out++] = o[j++];
          } else {
            kb[out] = k[i];
            ob[out++] = o[i++];
          }
        }
        while (i < mid) {
          kb[out] = k[i];
          ob[out++] = o[i++];
        }
        while (j < hi) {
          kb[out] = k[j];
          ob[out++] = o[j++];
        }
      }
      double[] swapKeys = k;
      k = kb;
      kb = swapKeys;
      int[] swapOrder = o;
      o = ob;
      ob = swapOrder;
    }
    if (k != keys) {
      System.arraycopy(k, 0, keys, 0, m);
      System.arraycopy(o, 0, order, 0, m);
    }
    return inversions;
  }
}
