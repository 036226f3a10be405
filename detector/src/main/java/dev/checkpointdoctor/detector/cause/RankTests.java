package dev.checkpointdoctor.detector.cause;

import java.util.Arrays;

/**
 * The distribution-free tests the cause rules decide with, in plain Java (the detector module
 * stays free of dependencies; {@code RankTestsTest} checks them against SciPy's values on fixed
 * inputs): Mann–Whitney U for "higher / lower than before", two-sample Kolmogorov–Smirnov for
 * "distributed differently than before", and the normal distribution they need.
 */
final class RankTests {
  /** Exact U distribution up to this many pairs without ties; normal approximation above. */
  static final int EXACT_MAX_PAIRS = 400;

  private RankTests() {}

  /**
   * Mann–Whitney U of {@code y} against {@code x}: is {@code y} stochastically larger?
   *
   * @param u the U statistic of {@code y}: pairs (x, y) with y > x, ties counting half
   * @param superiority {@code u / (n·m)}: the probability that a value of {@code y} exceeds one of
   *     {@code x} (0.5 = no difference, 1 = every y above every x); an effect size that does not
   *     depend on the scale of the values
   * @param pGreater one-sided p-value of "y larger"
   * @param pLess one-sided p-value of "y smaller"
   */
  record MannWhitney(double u, double superiority, double pGreater, double pLess, int n, int m) {}

  /**
   * Mann–Whitney U with the exact null distribution for small samples without ties, else the
   * normal approximation with tie correction and continuity correction (as SciPy's
   * {@code mannwhitneyu(method="asymptotic")}). {@code dependence} ≥ 1 inflates the variance for
   * serially correlated samples (see {@link #dependence}); 1 for independent values.
   */
  static MannWhitney mannWhitney(double[] x, double[] y, double dependence) {
    int n = x.length;
    int m = y.length;
    if (n == 0 || m == 0) {
      return new MannWhitney(Double.NaN, 0.5, 1, 1, n, m);
    }
    // ranks by merging the two sorted samples: no boxing, O((n + m) log(n + m))
    double[] a = x.clone();
    double[] b = y.clone();
    java.util.Arrays.sort(a);
    java.util.Arrays.sort(b);
    double rankSumY = 0;
    double tieTerm = 0;
    boolean ties = false;
    int i = 0;
    int j = 0;
    int below = 0; // values ranked so far
    while (i < n || j < m) {
      double v = j >= m || (i < n && a[i] <= b[j]) ? a[i] : b[j];
      int inX = 0;
      while (i < n && a[i] == v) {
        i++;
        inX++;
      }
      int inY = 0;
      while (j < m && b[j] == v) {
        j++;
        inY++;
      }
      int t = inX + inY;
      double r = below + (t + 1) / 2.0; // mid-rank of the tied group
      rankSumY += r * inY;
      if (t > 1) {
        ties = true;
        tieTerm += (double) t * t * t - t;
      }
      below += t;
    }
    double u = rankSumY - m * (m + 1) / 2.0;
    double sup = u / ((double) n * m);
    if (!ties && (long) n * m <= EXACT_MAX_PAIRS && dependence <= 1) {
      double[] cdf = cachedUCdf(n, m);
      int ui = (int) Math.round(u);
      double pLess = cdf[ui];
      double pGreater = 1 - (ui == 0 ? 0 : cdf[ui - 1]);
      return new MannWhitney(u, sup, clamp(pGreater), clamp(pLess), n, m);
    }
    double mean = n * (double) m / 2;
    double total = n + m;
    double var = n * (double) m / 12 * ((total + 1) - tieTerm / (total * (total - 1)));
    var *= Math.max(1, dependence);
    if (!(var > 0)) {
      return new MannWhitney(u, sup, 1, 1, n, m);
    }
    double sd = Math.sqrt(var);
    double pGreater = 1 - normalCdf((u - mean - 0.5) / sd);
    double pLess = normalCdf((u - mean + 0.5) / sd);
    return new MannWhitney(u, sup, clamp(pGreater), clamp(pLess), n, m);
  }

  /**
   * The smallest one-sided p-value {@link #mannWhitney} can give {@code m} values against {@code
   * n} earlier ones: every one of them above every earlier one, without ties (the same exact or
   * normal branch the test takes). While it is above the significance level no outcome is
   * significant, however large the change: the count of values a judgment needs depends on how
   * many earlier values there are and how strongly they are correlated, not on a fixed number.
   */
  static double separatedP(int n, int m, double dependence) {
    if (n == 0 || m == 0) {
      return 1;
    }
    if ((long) n * m <= EXACT_MAX_PAIRS && dependence <= 1) {
      double arrangements = 1; // C(n + m, m): only one of them puts every y above every x
      for (int i = 1; i <= m; i++) {
        arrangements = arrangements * (n + i) / i;
      }
      return clamp(1 / arrangements);
    }
    double total = n + m;
    double var = n * (double) m / 12 * (total + 1) * Math.max(1, dependence);
    return clamp(1 - normalCdf((n * (double) m / 2 - 0.5) / Math.sqrt(var)));
  }

  /**
   * The fewest values (at most {@code max}) that could be significant at {@code alpha} against
   * {@code n} earlier ones with this dependence (see {@link #separatedP}), or -1 when even
   * {@code max} could not.
   */
  static int fewestToDecide(int n, double dependence, double alpha, int max) {
    for (int m = 1; m <= max; m++) {
      if (separatedP(n, m, dependence) <= alpha) {
        return m;
      }
    }
    return -1;
  }

  /**
   * Variance inflation for serially correlated samples: {@code (1 + r) / (1 - r)} for the lag-1
   * autocorrelation r of the earlier sample {@code x} (clipped to [0, 0.8]), the series' own
   * behaviour without the change (the recent sample's autocorrelation mostly measures the
   * change's own ramp). Scrapes of a slowly wandering load are far from independent, and an
   * uncorrected test would call any drift significant.
   */
  static double dependence(double[] x, double[] y) {
    double r = Math.max(0, Math.min(0.8, lag1(x)));
    return (1 + r) / (1 - r);
  }

  private static double lag1(double[] v) {
    int n = v.length;
    if (n < 4) {
      return 0;
    }
    double mean = 0;
    for (double d : v) {
      mean += d;
    }
    mean /= n;
    double num = 0;
    double den = 0;
    for (int i = 0; i < n; i++) {
      double d = v[i] - mean;
      den += d * d;
      if (i > 0) {
        num += d * (v[i - 1] - mean);
      }
    }
    return den > 0 ? num / den : 0;
  }

  /**
   * Recently used exact U distributions, one slot per size pair by its hash. The rules test the
   * same few sample sizes on every diagnosis (a window of so many values against so many before),
   * and the recurrence costs n·m arrays of n·m + 1 doubles each time; the distribution of a pair
   * never changes. A slot is replaced whole: a racing thread at worst computes it again.
   */
  private static final UCdf[] U_CDFS = new UCdf[64];

  private record UCdf(int n, int m, double[] cdf) {}

  /** {@link #exactUCdf}, from the cache when it holds the pair; the array is not to be changed. */
  static double[] cachedUCdf(int n, int m) {
    int slot = (n * 31 + m) & (U_CDFS.length - 1);
    UCdf c = U_CDFS[slot];
    if (c == null || c.n != n || c.m != m) {
      c = new UCdf(n, m, exactUCdf(n, m));
      U_CDFS[slot] = c;
    }
    return c.cdf;
  }

  /** P(U ≤ u) for u = 0..n·m under the null, by the counting recurrence of Mann and Whitney. */
  static double[] exactUCdf(int n, int m) {
    int max = n * m;
    // f[i][j][u]: arrangements of i x's and j y's with U = u; rolled over i
    double[][] prev = new double[m + 1][];
    for (int j = 0; j <= m; j++) {
      prev[j] = new double[max + 1];
      prev[j][0] = 1; // no x: U = 0
    }
    for (int i = 1; i <= n; i++) {
      double[][] cur = new double[m + 1][max + 1];
      cur[0][0] = 1; // no y: U = 0
      for (int j = 1; j <= m; j++) {
        // the largest value is a y (it beats all i x's) or an x (adds nothing)
        for (int u = 0; u <= max; u++) {
          double c = prev[j][u];
          if (u >= i) {
            c += cur[j - 1][u - i];
          }
          cur[j][u] = c;
        }
      }
      prev = cur;
    }
    double[] f = prev[m];
    double total = 0;
    for (double c : f) {
      total += c;
    }
    double[] cdf = new double[max + 1];
    double acc = 0;
    for (int u = 0; u <= max; u++) {
      acc += f[u];
      cdf[u] = acc / total;
    }
    return cdf;
  }

  /**
   * Two-sample Kolmogorov–Smirnov: the largest gap between the empirical distribution functions,
   * with the asymptotic two-sided p-value (SciPy's {@code ks_2samp(method="asymp")}).
   */
  record KolmogorovSmirnov(double d, double p) {}

  static KolmogorovSmirnov kolmogorovSmirnov(double[] x, double[] y) {
    int n = x.length;
    int m = y.length;
    if (n == 0 || m == 0) {
      return new KolmogorovSmirnov(0, 1);
    }
    double[] a = x.clone();
    double[] b = y.clone();
    Arrays.sort(a);
    Arrays.sort(b);
    int i = 0;
    int j = 0;
    double d = 0;
    while (i < n && j < m) {
      double v = Math.min(a[i], b[j]);
      while (i < n && a[i] == v) {
        i++;
      }
      while (j < m && b[j] == v) {
        j++;
      }
      d = Math.max(d, Math.abs((double) i / n - (double) j / m));
    }
    double en = (double) n * m / (n + m);
    return new KolmogorovSmirnov(d, kolmogorovSurvival(d * Math.sqrt(en)));
  }

  /** P(K > λ) of the Kolmogorov distribution. */
  static double kolmogorovSurvival(double lambda) {
    if (lambda <= 0) {
      return 1;
    }
    if (lambda < 1.18) {
      // the alternating series converges slowly here; use the theta-function form
      double w = Math.sqrt(2 * Math.PI) / lambda;
      double q = Math.exp(-Math.PI * Math.PI / (8 * lambda * lambda));
      double s = 0;
      for (int k = 1; k < 50; k += 2) {
        s += Math.pow(q, (double) k * k);
      }
      return clamp(1 - w * s);
    }
    double s = 0;
    for (int k = 1; k <= 100; k++) {
      double term = Math.exp(-2.0 * k * k * lambda * lambda);
      s += (k % 2 == 1 ? 2 : -2) * term;
      if (term < 1e-17) {
        break;
      }
    }
    return clamp(s);
  }

  /** Standard normal CDF, through {@link #erfc}. */
  static double normalCdf(double z) {
    return 0.5 * erfc(-z / Math.sqrt(2));
  }

  /** The z with {@code normalCdf(z) = p}, by bisection (called rarely, on fixed levels). */
  static double normalQuantile(double p) {
    double lo = -40;
    double hi = 40;
    for (int i = 0; i < 200; i++) {
      double mid = (lo + hi) / 2;
      if (normalCdf(mid) < p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  /** Complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7). */
  static double erfc(double x) {
    double z = Math.abs(x);
    double t = 1 / (1 + 0.5 * z);
    double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196
        + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398
        + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? r : 2 - r;
  }

  private static double clamp(double p) {
    return Math.max(0, Math.min(1, p));
  }
}
