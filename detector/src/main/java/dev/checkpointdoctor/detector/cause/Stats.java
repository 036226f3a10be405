package dev.checkpointdoctor.detector.cause;

import java.util.Arrays;

/** Small robust statistics over raw history slices. */
final class Stats {
  private Stats() {}

  static double median(double[] v) {
    return quantile(v, 0.5);
  }

  /**
   * Linear-interpolated quantile; NaN for no values. Only the two order statistics the
   * interpolation reads are selected (quickselect) instead of sorting the whole copy: a diagnosis
   * takes medians of every series of a job, and sorting them was most of its time. Values are
   * ordered as {@link Arrays#sort(double[])} orders them ({@link Double#compare}: -0.0 before
   * 0.0, NaN last), so the result is the one a full sort gives.
   */
  static double quantile(double[] v, double q) {
    return quantileInPlace(v.clone(), v.length, q);
  }

  /**
   * {@link #quantile} of {@code a[0..n)}, rearranging those values: for callers that copied them
   * into a scratch buffer of their own.
   */
  static double quantileInPlace(double[] a, int n, double q) {
    if (n == 0) {
      return Double.NaN;
    }
    double pos = q * (n - 1);
    int lo = (int) Math.floor(pos);
    int hi = Math.min(n - 1, lo + 1);
    double low = select(a, n, lo);
    double high = lo == hi ? low : smallestFrom(a, n, lo + 1);
    return interpolate(low, high, pos, lo);
  }

  /** {@link #quantile} of the first {@code n} values of {@code sorted}, in sort order. */
  static double quantileOfSorted(double[] sorted, int n, double q) {
    if (n == 0) {
      return Double.NaN;
    }
    double pos = q * (n - 1);
    int lo = (int) Math.floor(pos);
    int hi = Math.min(n - 1, lo + 1);
    double low = sorted[lo];
    double high = lo == hi ? low : sorted[lo + 1];
    return interpolate(low, high, pos, lo);
  }

  /** One expression for both paths, so selected and sorted quantiles agree to the bit. */
  private static double interpolate(double low, double high, double pos, int lo) {
    return low + (high - low) * (pos - lo);
  }

  /**
   * Rearranges {@code a[0..n)} so that {@code a[k]} is the value a sort would put there, everything
   * before it not greater and everything after it not smaller, and returns {@code a[k]}.
   */
  static double select(double[] a, int n, int k) {
    int left = 0;
    int right = n - 1;
    while (right > left) {
      if (right - left < 16) {
        insertionSort(a, left, right);
        return a[k];
      }
      // median of three as the pivot keeps sorted and reversed slices linear
      int mid = (left + right) >>> 1;
      if (Double.compare(a[mid], a[left]) < 0) {
        swap(a, mid, left);
      }
      if (Double.compare(a[right], a[left]) < 0) {
        swap(a, right, left);
      }
      if (Double.compare(a[right], a[mid]) < 0) {
        swap(a, right, mid);
      }
      double pivot = a[mid];
      int i = left;
      int j = right;
      while (i <= j) {
        while (Double.compare(a[i], pivot) < 0) {
          i++;
        }
        while (Double.compare(a[j], pivot) > 0) {
          j--;
        }
        if (i <= j) {
          swap(a, i, j);
          i++;
          j--;
        }
      }
      if (k <= j) {
        right = j;
      } else if (k >= i) {
        left = i;
      } else {
        return a[k];
      }
    }
    return a[k];
  }

  private static double smallestFrom(double[] a, int n, int from) {
    double m = a[from];
    for (int i = from + 1; i < n; i++) {
      if (Double.compare(a[i], m) < 0) {
        m = a[i];
      }
    }
    return m;
  }

  private static void insertionSort(double[] a, int left, int right) {
    for (int i = left + 1; i <= right; i++) {
      double x = a[i];
      int j = i - 1;
      while (j >= left && Double.compare(a[j], x) > 0) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  private static void swap(double[] a, int i, int j) {
    double t = a[i];
    a[i] = a[j];
    a[j] = t;
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
