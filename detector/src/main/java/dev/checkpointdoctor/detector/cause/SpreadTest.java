package dev.checkpointdoctor.detector.cause;

/**
 * How far recent values of a positive, multiplicative series (bytes) sit above the earlier ones,
 * measured in the earlier values' own spread on a log scale. A rank test cannot tell a step of
 * ten percent from one of twenty times: every recent value above every earlier one is the most it
 * can say, and for a series so strongly correlated from one value to the next that its variance
 * is inflated several times (in-flight data that follows the slowly changing fill of the network
 * buffers) that is not enough to decide within the checkpoints an operator can wait for.
 *
 * <p>The null is that the recent values come from the earlier values' distribution, log-normal
 * around their median with their median absolute deviation as spread. The earlier values are
 * worth only {@code n / dependence} independent ones, so the location and spread are uncertain:
 * the recent median is compared with a Student t prediction bound with that many degrees of
 * freedom. The recent values may be as dependent as they like: their median is above a level
 * only when at least half of them are, and by Markov's inequality that happens with at most
 * {@code m / ceil(m / 2)} times the probability of one value being there.
 */
final class SpreadTest {
  /** Spread below which the earlier values count as constant (5 %): the test needs a scale. */
  static final double MIN_LOG_SPREAD = 0.05;
  /** MAD to standard deviation under normality. */
  private static final double MAD_TO_SD = 1.4826;

  private SpreadTest() {}

  /**
   * One-sided p-value of "the recent values are higher than the earlier ones" (1 when any value
   * is not positive or either sample is empty).
   *
   * @param dependence variance inflation of the earlier values ({@link RankTests#dependence})
   */
  static double pHigher(double[] before, double[] recent, double dependence) {
    int n = before.length;
    int m = recent.length;
    if (n < 2 || m == 0) {
      return 1;
    }
    double[] logBefore = logs(before);
    double[] logRecent = logs(recent);
    if (logBefore == null || logRecent == null) {
      return 1;
    }
    double centre = Stats.median(logBefore);
    double[] deviations = new double[n];
    for (int i = 0; i < n; i++) {
      deviations[i] = Math.abs(logBefore[i] - centre);
    }
    double spread = Math.max(MIN_LOG_SPREAD, MAD_TO_SD * Stats.median(deviations));
    double effective = Math.max(2, n / Math.max(1, dependence));
    double z = (Stats.median(logRecent) - centre) / (spread * Math.sqrt(1 + 1 / effective));
    double one = studentTSurvival(z, effective - 1);
    int half = (m + 1) / 2;
    return Math.min(1, one * m / half);
  }

  /**
   * One-sided p-value of "the recent values are higher than the learned normal": their median
   * against the baseline's expected value in units of {@code spread}. The baseline's window is
   * worth few independent values when the series is strongly correlated, and its tails are not
   * known: Student's t with {@link #BAND_DF} degrees of freedom, the heaviest tail with a finite
   * variance, stands for them.
   */
  static double pHigherThanBand(double expected, double spread, double[] recent) {
    int m = recent.length;
    if (m == 0 || !(spread > 0) || !Double.isFinite(expected)) {
      return 1;
    }
    double z = (Stats.median(recent) - expected) / spread;
    int half = (m + 1) / 2;
    return Math.min(1, studentTSurvival(z, BAND_DF) * m / half);
  }

  static final double BAND_DF = 3;

  private static double[] logs(double[] v) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      if (!(v[i] > 0)) {
        return null;
      }
      out[i] = Math.log(v[i]);
    }
    return out;
  }

  /** P(T > t) for Student's t with {@code df} (> 0, not necessarily whole) degrees of freedom. */
  static double studentTSurvival(double t, double df) {
    if (Double.isNaN(t)) {
      return 1;
    }
    double tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
    return t >= 0 ? tail : 1 - tail;
  }

  /** The regularized incomplete beta function I_x(a, b), by its continued fraction. */
  static double regularizedBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    if (x > (a + 1) / (a + b + 2)) {
      return 1 - regularizedBeta(1 - x, b, a); // the fraction converges fast on this side only
    }
    double front = Math.exp(a * Math.log(x) + b * Math.log(1 - x)
        - (logGamma(a) + logGamma(b) - logGamma(a + b)));
    return front * betaFraction(x, a, b) / a;
  }

  /** The continued fraction of the incomplete beta function, by the modified Lentz method. */
  private static double betaFraction(double x, double a, double b) {
    double tiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    double h = d;
    for (int k = 1; k <= 300; k++) {
      int k2 = 2 * k;
      double even = k * (b - k) * x / ((a + k2 - 1) * (a + k2));
      d = 1 + even * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + even / c;
      c = Math.abs(c) < tiny ? tiny : c;
      h *= d * c;
      double odd = -(a + k) * (a + b + k) * x / ((a + k2) * (a + k2 + 1));
      d = 1 + odd * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + odd / c;
      c = Math.abs(c) < tiny ? tiny : c;
      double step = d * c;
      h *= step;
      if (Math.abs(step - 1) < 1e-13) {
        break;
      }
    }
    return h;
  }

  private static final double[] LANCZOS = {0.99999999999980993, 676.5203681218851,
      -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
      -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};

  /** ln Γ(x) for x > 0 (Lanczos, g = 7; relative error about 1e-15). */
  static double logGamma(double x) {
    if (x < 0.5) {
      // reflection: Γ(x) Γ(1 - x) = π / sin(πx)
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    double y = x - 1;
    double sum = LANCZOS[0];
    for (int i = 1; i < LANCZOS.length; i++) {
      sum += LANCZOS[i] / (y + i);
    }
    double t = y + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
  }
}
