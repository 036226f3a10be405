package dev.checkpointdoctor.detector.cause;

import java.util.Arrays;

/**
 * Theil–Sen slope of (t, v) with Sen's (1968) distribution-free confidence interval: the median
 * of the pairwise slopes, bounded by the order statistics of those slopes that Kendall's S
 * variance puts at the chosen confidence. "Rising" means the lower bound is above zero, so a
 * noisy job needs a longer or steeper climb than a quiet one before it counts.
 *
 * @param perMs the slope (change per millisecond)
 * @param lowerPerMs lower confidence bound of the slope
 * @param upperPerMs upper confidence bound
 * @param confidence two-sided confidence of the bounds
 * @param n points used
 */
record SenSlope(double perMs, double lowerPerMs, double upperPerMs, double confidence, int n) {
  /** More points are thinned evenly to this many: the pairs grow with its square. */
  static final int MAX_POINTS = 120;

  static SenSlope of(long[] t, double[] v, double confidence) {
    int n0 = Math.min(t.length, v.length);
    int n = Math.min(n0, MAX_POINTS);
    if (n < 3) {
      return new SenSlope(Double.NaN, Double.NaN, Double.NaN, confidence, n);
    }
    long[] tt = new long[n];
    double[] vv = new double[n];
    for (int i = 0; i < n; i++) {
      int k = (int) ((long) i * (n0 - 1) / Math.max(1, n - 1));
      tt[i] = t[k];
      vv[i] = v[k];
    }
    double[] slopes = new double[n * (n - 1) / 2];
    int k = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        long dt = tt[j] - tt[i];
        if (dt > 0) {
          slopes[k++] = (vv[j] - vv[i]) / dt;
        }
      }
    }
    if (k == 0) {
      return new SenSlope(Double.NaN, Double.NaN, Double.NaN, confidence, n);
    }
    Arrays.sort(slopes, 0, k);
    double median = Stats.quantileOfSorted(slopes, k, 0.5);
    double varS = n * (n - 1.0) * (2 * n + 5) / 18;
    double z = RankTests.normalQuantile(1 - (1 - confidence) / 2);
    double c = z * Math.sqrt(varS);
    // Sen's bounds: the ((N - C) / 2)-th and ((N + C) / 2 + 1)-th ordered slopes (1-based),
    // rounded as SciPy's theilslopes rounds them
    int lo = Math.max((int) Math.rint((k - c) / 2) - 1, 0);
    int hi = Math.min((int) Math.rint((k + c) / 2), k - 1);
    double lower = slopes[lo];
    double upper = slopes[hi];
    return new SenSlope(median, lower, upper, confidence, n);
  }

  /** The fitted line's value at {@code when}: the median of the points moved along the slope. */
  double at(long[] t, double[] v, long when) {
    double[] moved = new double[Math.min(t.length, v.length)];
    for (int i = 0; i < moved.length; i++) {
      moved[i] = v[i] + perMs * (when - t[i]);
    }
    return Stats.median(moved);
  }

  double perHour() {
    return perMs * 3_600_000d;
  }

  boolean rising() {
    return lowerPerMs > 0;
  }

  boolean falling() {
    return upperPerMs < 0;
  }
}
