package dev.checkpointdoctor.detector.baseline;

/**
 * How much a scope's noise carries over from one observation to the next, and what that does to
 * runs of out-of-band observations.
 *
 * <p>The opening rule's run length assumes independent noise: a run of {@code k} out-of-band
 * observations comes by chance at {@code rate^k}. Noise that wanders (a gauge averaged over
 * longer than the scrape, a load that drifts for minutes) leaves the band in runs: once out, it
 * stays out far more often than {@code rate}. This measures the wandering before any excursion,
 * from the baseline window's own values in the order they came, and turns it into the chance of
 * staying out.
 *
 * <p>Pure functions; no state.
 */
final class SerialDependence {
  /** Observations below which the window says nothing about its serial dependence. */
  static final int MIN_VALUES = 10;
  /**
   * Standard errors of the estimate taken off it: independent noise in a window of 120 shows
   * a lag-1 correlation of up to about 0.19 once in a hundred windows, which must not lengthen
   * its runs.
   */
  static final double ASSURANCE = 2.0;
  /**
   * Least correlation (after the doubt) that counts: the prior out-of-band rate the run count
   * rests on (1 %) is far above what a band of four deviations lets independent noise out, and
   * that slack covers a mild correlation, such as a load's slow drift in family 1 and the corpus
   * (0.13-0.37 before their faults, where counting it delayed state_growth_b past 15 min and
   * lost interval_too_short_a's cause).
   */
  static final double MIN_RHO = 0.4;
  /** Highest correlation used: a window that looks like a random walk is not taken as one. */
  static final double MAX_RHO = 0.95;

  private SerialDependence() {}

  /**
   * The lag-1 autocorrelation of {@code values} (oldest first) around their least-squares line,
   * less {@link #ASSURANCE} standard errors ({@code 1 / sqrt(n)}), 0 below {@link #MIN_RHO}, at
   * most {@link #MAX_RHO}: 0 for independent noise and for a window too short to tell. The line takes out the slope of a
   * load cycle across the window, which is no wandering of the noise.
   *
   * @param n values used, the first {@code n} of the array
   */
  static double assuredRho(double[] values, int n) {
    if (n < MIN_VALUES) {
      return 0;
    }
    double meanT = (n - 1) / 2.0;
    double meanX = 0;
    for (int i = 0; i < n; i++) {
      meanX += values[i];
    }
    meanX /= n;
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < n; i++) {
      sxy += (i - meanT) * (values[i] - meanX);
      sxx += (i - meanT) * (i - meanT);
    }
    double slope = sxy / sxx;
    double lagged = 0;
    double squares = 0;
    double previous = 0;
    for (int i = 0; i < n; i++) {
      double e = values[i] - meanX - slope * (i - meanT);
      squares += e * e;
      if (i > 0) {
        lagged += e * previous;
      }
      previous = e;
    }
    if (!(squares > 0) || !Double.isFinite(lagged / squares)) {
      return 0; // a flat window (or one of huge values): nothing wanders
    }
    double rho = lagged / squares - ASSURANCE / Math.sqrt(n);
    return rho < MIN_RHO ? 0 : Math.min(MAX_RHO, rho);
  }

  /**
   * The chance that an observation is out of band on the same side again after one that was, for
   * Gaussian noise leaving the band at {@code rate} (per side) whose consecutive observations
   * correlate by {@code rho}: {@code P(X > z, Y > z) / P(X > z)} with {@code P(X > z) = rate}.
   * {@code rate} itself for {@code rho <= 0}, and never less.
   */
  static double persistence(double rate, double rho) {
    if (!(rho > 0) || !(rate > 0) || rate >= 0.5) {
      return rate;
    }
    double z = upperQuantile(rate);
    return Math.min(1, Math.max(rate, bothAbove(z, Math.min(rho, MAX_RHO)) / rate));
  }

  /**
   * {@code P(X > z, Y > z)} for standard normals correlated by {@code rho} in (0, 1):
   * {@code integral from z of phi(x) P(Y > z | x) dx} by Simpson's rule over twelve standard
   * deviations.
   */
  static double bothAbove(double z, double rho) {
    int steps = 400;
    double h = 12.0 / steps;
    double s = Math.sqrt(1 - rho * rho);
    double sum = 0;
    for (int i = 0; i <= steps; i++) {
      double x = z + i * h;
      double f = density(x) * upperTail((z - rho * x) / s);
      sum += (i == 0 || i == steps ? 1 : i % 2 == 1 ? 4 : 2) * f;
    }
    return sum * h / 3;
  }

  /** {@code z} with {@code P(X > z) = p} for a standard normal, by bisection. */
  static double upperQuantile(double p) {
    double lo = -10;
    double hi = 10;
    for (int i = 0; i < 80; i++) {
      double mid = (lo + hi) / 2;
      if (upperTail(mid) > p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  private static double density(double x) {
    return Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  }

  /**
   * {@code P(X > x)} for a standard normal, from Abramowitz and Stegun's 7.1.26 for the
   * complementary error function (absolute error below 1.5e-7, far below the rates judged).
   */
  static double upperTail(double x) {
    double z = Math.abs(x) / Math.sqrt(2);
    double t = 1 / (1 + 0.3275911 * z);
    double erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
        + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-z * z);
    return x >= 0 ? erfc / 2 : 1 - erfc / 2;
  }
}
