package dev.checkpointdoctor.detector.trend;

import java.util.Arrays;

/**
 * Theil–Sen line with Sen's rank-based confidence interval for its slope (Sen 1968; Hollander &
 * Wolfe, Nonparametric Statistical Methods, ch. 9): the slope is the median of the slopes of all
 * point pairs, and the interval is read off the same sorted pair slopes at ranks given by the
 * null distribution of Kendall's S. No normality is assumed, and a few outliers (one slow
 * checkpoint, one retried upload) move neither the slope nor its bounds much.
 */
public final class SenSlope {
  /**
   * At most this many points enter the pairs (every k-th of a longer series, first and last
   * kept): 150 points make 11,175 pairs. The interval is computed for the points used, so
   * thinning widens it rather than faking precision.
   */
  public static final int MAX_POINTS = 150;

  private SenSlope() {}

  /**
   * @param slope median pair slope, in y units per x unit
   * @param lower lower bound of the two-sided interval (-infinity when too few points)
   * @param upper upper bound (+infinity when too few points)
   * @param atZero the fitted value at x = 0: median of {@code y - slope * x}
   * @param n points used
   */
  public record Fit(double slope, double lower, double upper, double atZero, int n) {
    public double at(double x) {
      return atZero + slope * x;
    }

    /** The same fit with its interval {@code factor} times as wide around the slope. */
    public Fit widened(double factor) {
      return new Fit(slope, slope - (slope - lower) * factor, slope + (upper - slope) * factor,
          atZero, n);
    }
  }

  /**
   * The fewest points (distinct x, no ties) whose two-sided interval at {@code confidence} has a
   * finite lower bound: with fewer, even points that all rise cannot rule out a flat line.
   */
  public static int fewestPoints(double confidence) {
    double z = NormalQuantile.of(0.5 + confidence / 2);
    for (int m = 2; ; m++) {
      double k = m * (m - 1) / 2.0;
      double c = z * Math.sqrt(m * (m - 1.0) * (2.0 * m + 5) / 18);
      if (Math.floor((k - c) / 2) >= 1) {
        return m;
      }
    }
  }

  /**
   * Fits the first {@code n} points. Pairs with equal x carry no slope and are skipped.
   *
   * @param confidence two-sided level of the interval, e.g. 0.9
   */
  public static Fit fit(double[] x, double[] y, int n, double confidence) {
    return fit(x, y, n, confidence, true);
  }

  /**
   * The line alone: the same slope and level as {@link #fit}, bit for bit, with the interval
   * left unbounded (-infinity, +infinity) instead of read off the pair slopes, for callers that
   * read only the line ({@link Fit#at}, {@link Fit#slope}). Selecting the median alone narrows
   * the pair slopes far more than selecting it with the interval's bounds, which lie apart.
   */
  public static Fit line(double[] x, double[] y, int n) {
    return fit(x, y, n, Double.NaN, false);
  }

  private static Fit fit(double[] x, double[] y, int n, double confidence, boolean interval) {
    return fit(x, y, n, confidence, interval, true);
  }

  /**
   * @param sampled whether the ranks may be selected by {@link PairSlopes} (same values, bit for
   *     bit) rather than among all slopes stored; false only to compare the two
   */
  static Fit fit(double[] x, double[] y, int n, double confidence, boolean interval,
      boolean sampled) {
    if (n < 2) {
      double level = n == 1 ? y[0] : Double.NaN;
      return new Fit(0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, level, n);
    }
    int[] used = pick(n);
    int m = used.length;
    double[] ux = new double[m];
    double[] uy = new double[m];
    for (int i = 0; i < m; i++) {
      ux[i] = x[used[i]];
      uy[i] = y[used[i]];
    }
    int k = pairsWithDifferentX(ux, m);
    if (k == 0) {
      return new Fit(0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, median(y, used), m);
    }
    // four ranks of the pairs are read: selecting them is linear, sorting all of them was not
    long lowRank = 0; // 1-based rank of the lower bound; none without an interval
    long highRank = (long) k + 1; // 1-based rank of the upper bound
    if (interval) {
      double c = c(m, confidence);
      lowRank = (long) Math.floor((k - c) / 2);
      highRank = (long) Math.ceil((k + c) / 2) + 1;
    }
    int[] ranks = new int[4];
    int r = 0;
    if (lowRank >= 1) {
      ranks[r++] = (int) lowRank - 1;
    }
    if (k % 2 == 0) {
      ranks[r++] = k / 2 - 1;
    }
    ranks[r++] = k / 2;
    if (highRank <= k) {
      ranks[r++] = (int) highRank - 1;
    }
    r = ascendingDistinct(ranks, r);
    double[] at = new double[r];
    if (!sampled || !PairSlopes.select(ux, uy, m, k, ranks, r, at)) {
      double[] slopes = new double[k];
      int j = 0;
      for (int a = 0; a < m; a++) {
        double xa = ux[a];
        double ya = uy[a];
        for (int b = a + 1; b < m; b++) {
          double dx = ux[b] - xa;
          if (dx != 0) {
            slopes[j++] = (uy[b] - ya) / dx;
          }
        }
      }
      OrderStatistics.place(slopes, 0, k, ranks, r);
      for (int i = 0; i < r; i++) {
        at[i] = slopes[ranks[i]];
      }
    }
    double slope = k % 2 == 1 ? valueAt(ranks, at, r, k / 2)
        : (valueAt(ranks, at, r, k / 2 - 1) + valueAt(ranks, at, r, k / 2)) / 2;
    double lower = lowRank >= 1 ? valueAt(ranks, at, r, (int) lowRank - 1)
        : Double.NEGATIVE_INFINITY;
    double upper = highRank <= k ? valueAt(ranks, at, r, (int) highRank - 1)
        : Double.POSITIVE_INFINITY;
    double[] rest = new double[m];
    for (int i = 0; i < m; i++) {
      rest[i] = uy[i] - slope * ux[i];
    }
    OrderStatistics.place(rest, 0, m, medianRanks(m), m % 2 == 0 ? 2 : 1);
    return new Fit(slope, lower, upper, medianOfSorted(rest, m), m);
  }

  /** Pairs {@code a < b} with {@code x[a] != x[b]}: all but those within runs of equal x. */
  private static int pairsWithDifferentX(double[] x, int m) {
    int all = m * (m - 1) / 2;
    // infinity minus infinity is NaN, which counts as a pair although the two are equal
    boolean ascending = Double.isFinite(x[0]);
    for (int i = 1; i < m && ascending; i++) {
      ascending = x[i - 1] <= x[i] && Double.isFinite(x[i]);
    }
    int equal = 0;
    if (ascending) {
      // times in order: equal x come in runs (x[i - 1] == x[i] also for -0.0 and 0.0)
      int run = 1;
      for (int i = 1; i <= m; i++) {
        if (i < m && x[i] == x[i - 1]) {
          run++;
        } else {
          equal += run * (run - 1) / 2;
          run = 1;
        }
      }
      return all - equal;
    }
    for (int a = 0; a < m; a++) {
      for (int b = a + 1; b < m; b++) {
        // as the fit decides: a pair unless the difference is exactly 0
        equal += x[b] - x[a] != 0 ? 0 : 1;
      }
    }
    return all - equal;
  }

  private static double valueAt(int[] ranks, double[] at, int r, int rank) {
    for (int i = 0; i < r; i++) {
      if (ranks[i] == rank) {
        return at[i];
      }
    }
    throw new IllegalStateException("rank " + rank + " was not selected");
  }

  /**
   * Kendall's S has variance n(n-1)(2n+5)/18 without ties; C is its two-sided critical value at
   * {@code confidence} for {@code m} points.
   */
  private static double c(int m, double confidence) {
    return NormalQuantile.of(0.5 + confidence / 2)
        * Math.sqrt(m * (m - 1.0) * (2.0 * m + 5) / 18);
  }

  /** Sorts the first {@code n} ranks (at most four) and drops repeats; returns how many left. */
  private static int ascendingDistinct(int[] ranks, int n) {
    for (int i = 1; i < n; i++) {
      int r = ranks[i];
      int j = i;
      for (; j > 0 && ranks[j - 1] > r; j--) {
        ranks[j] = ranks[j - 1];
      }
      ranks[j] = r;
    }
    int out = 0;
    for (int i = 0; i < n; i++) {
      if (out == 0 || ranks[out - 1] != ranks[i]) {
        ranks[out++] = ranks[i];
      }
    }
    return out;
  }

  private static int[] medianRanks(int n) {
    return n % 2 == 0 ? new int[] {n / 2 - 1, n / 2} : new int[] {n / 2};
  }

  /** Indices of the points used: all of them, or evenly spread ones with the first and last. */
  private static int[] pick(int n) {
    int m = Math.min(n, MAX_POINTS);
    int[] out = new int[m];
    for (int i = 0; i < m; i++) {
      out[i] = m == n ? i : (int) Math.round((double) i * (n - 1) / (m - 1));
    }
    return out;
  }

  private static double median(double[] y, int[] used) {
    double[] v = new double[used.length];
    for (int i = 0; i < used.length; i++) {
      v[i] = y[used[i]];
    }
    OrderStatistics.place(v, 0, v.length, medianRanks(v.length), v.length % 2 == 0 ? 2 : 1);
    return medianOfSorted(v, v.length);
  }

  private static double medianOfSorted(double[] v, int n) {
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
