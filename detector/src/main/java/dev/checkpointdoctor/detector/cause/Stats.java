package dev.checkpointdoctor.detector.cause;

import java.util.Arrays;

/** Small robust statistics over raw history slices. */
final class Stats {
  private Stats() {}

  static double median(double[] v) {
    return quantile(v, 0.5);
  }

  /** Linear-interpolated quantile; NaN for no values. */
  static double quantile(double[] v, double q) {
    if (v.length == 0) {
      return Double.NaN;
    }
    double[] s = v.clone();
    Arrays.sort(s);
    double pos = q * (s.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = Math.min(s.length - 1, lo + 1);
    return s[lo] + (s[hi] - s[lo]) * (pos - lo);
  }

  static double max(double[] v) {
    double m = Double.NaN;
    for (double x : v) {
      m = Double.isNaN(m) ? x : Math.max(m, x);
    }
    return m;
  }

  /** Share of values at or above {@code threshold}. */
  static double fractionAtLeast(double[] v, double threshold) {
    if (v.length == 0) {
      return 0;
    }
    int n = 0;
    for (double x : v) {
      if (x >= threshold) {
        n++;
      }
    }
    return (double) n / v.length;
  }

  /**
   * Theil–Sen line through (t, v): the median of pairwise slopes, so a few outliers (one slow
   * checkpoint) do not tilt it. Also reports the share of rising pairs, a Kendall-like measure
   * of how consistently the series trends.
   */
  static Trend trend(long[] t, double[] v) {
    int n = t.length;
    if (n < 3) {
      return new Trend(0, n == 0 ? Double.NaN : v[n - 1], n == 0 ? 0 : t[n - 1], 0.5);
    }
    // Pairs at least a quarter of the span apart: cheaper than all pairs, and short pairs carry
    // mostly noise.
    long span = t[n - 1] - t[0];
    int stride = Math.max(1, n / 40);
    double[] slopes = new double[(n / stride + 1) * (n / stride + 1)];
    int k = 0;
    int rising = 0;
    int counted = 0;
    for (int i = 0; i < n; i += stride) {
      for (int j = i + stride; j < n; j += stride) {
        long dt = t[j] - t[i];
        if (dt <= 0 || dt < span / 4) {
          continue;
        }
        double s = (v[j] - v[i]) / dt;
        slopes[k++] = s;
        if (v[j] != v[i]) {
          counted++;
          rising += v[j] > v[i] ? 1 : 0;
        }
      }
    }
    double slope = k == 0 ? 0 : median(Arrays.copyOf(slopes, k));
    long ref = t[n - 1];
    double[] at = new double[n];
    for (int i = 0; i < n; i++) {
      at[i] = v[i] + slope * (ref - t[i]);
    }
    return new Trend(slope, median(at), ref,
        counted == 0 ? 0.5 : (double) rising / counted);
  }

  /**
   * @param slopePerMs change per millisecond
   * @param valueAtRef the fitted value at {@code refMs}
   * @param risingShare share of (distinct) pairs where the later value is higher
   */
  record Trend(double slopePerMs, double valueAtRef, long refMs, double risingShare) {
    double perHour() {
      return slopePerMs * 3_600_000d;
    }
  }
}
