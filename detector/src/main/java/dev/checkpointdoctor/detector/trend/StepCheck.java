package dev.checkpointdoctor.detector.trend;

/**
 * Tells a step from a trend. A level shift (a redeploy with another parallelism, a fault that
 * made every checkpoint slower at once) has a slope too when a window straddles it, but a single
 * step explains the points far better than a line does; steady growth is explained better by the
 * line. The two fits are compared by their squared residuals, with a penalty for the step's extra
 * freedom (where it is placed), as a Bayesian information criterion would: the step wins only by
 * more than {@code 2 ln(n)} noise variances.
 */
final class StepCheck {
  private StepCheck() {}

  /**
   * @param line the Theil–Sen line through the same points
   * @return whether one step between two flat levels fits the first {@code n} points (in time
   *     order) clearly better than the line
   */
  static boolean stepFitsBetter(double[] x, double[] y, int n, SenSlope.Fit line) {
    if (n < 8) {
      return false;
    }
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = y[i] - line.at(x[i]);
    }
    // The noise, from differences of neighbours: a step or a trend moves few of them.
    double[] d = new double[n - 1];
    for (int i = 1; i < n; i++) {
      d[i - 1] = y[i] - y[i - 1];
    }
    double scale = 1.4826 * medianAbs(d) / Math.sqrt(2);
    if (!(scale > 0)) {
      return false;
    }
    // Outliers (one slow checkpoint) clipped to three noise widths, for both fits alike.
    double clip = 3 * scale;
    double[] w = new double[n];
    double lineSsr = 0;
    for (int i = 0; i < n; i++) {
      double c = Math.max(-clip, Math.min(clip, r[i]));
      w[i] = line.at(x[i]) + c;
      lineSsr += c * c;
    }
    double[] sum = new double[n + 1];
    double[] sq = new double[n + 1];
    for (int i = 0; i < n; i++) {
      sum[i + 1] = sum[i] + w[i];
      sq[i + 1] = sq[i] + w[i] * w[i];
    }
    int min = Math.max(3, n / 10);
    double stepSsr = Double.POSITIVE_INFINITY;
    for (int k = min; k <= n - min; k++) {
      stepSsr = Math.min(stepSsr, ssr(sum, sq, 0, k) + ssr(sum, sq, k, n));
    }
    return lineSsr - stepSsr > 2 * Math.log(n) * scale * scale;
  }

  /** Squared deviations of {@code w[from..to)} from their mean, by prefix sums. */
  private static double ssr(double[] sum, double[] sq, int from, int to) {
    int m = to - from;
    double s = sum[to] - sum[from];
    return Math.max(0, sq[to] - sq[from] - s * s / m);
  }

  private static double medianAbs(double[] r) {
    double[] a = new double[r.length];
    for (int i = 0; i < r.length; i++) {
      a[i] = Math.abs(r[i]);
    }
    java.util.Arrays.sort(a);
    int n = a.length;
    return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
  }
}
