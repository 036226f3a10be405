package dev.checkpointdoctor.detector.trend;

import java.util.Arrays;

/**
 * How much wider a slope's interval must be because the noise is not independent from point to
 * point. Sen's interval assumes it is; real checkpoint series wander (the input rate drifts for
 * tens of minutes), and a wander looks like a trend to an interval built for white noise. The
 * residuals of the fit are cut into blocks of consecutive points: white noise gives block medians
 * that scatter {@code 1.25 sigma / sqrt(block)}; when they scatter more, the interval is widened
 * by the ratio (never narrowed).
 */
final class SlowNoise {
  static final int BLOCKS = 8;
  static final int MIN_BLOCK = 4;

  private SlowNoise() {}

  static double inflation(double[] x, double[] y, int n, SenSlope.Fit fit) {
    int block = Math.max(MIN_BLOCK, n / BLOCKS);
    int blocks = n / block;
    if (blocks < 4) {
      return 1;
    }
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = y[i] - fit.at(x[i]);
    }
    double pointSigma = 1.4826 * medianAbs(r, 0, n);
    if (!(pointSigma > 0)) {
      return 1;
    }
    double[] medians = new double[blocks];
    for (int b = 0; b < blocks; b++) {
      double[] part = Arrays.copyOfRange(r, b * block, (b + 1) * block);
      Arrays.sort(part);
      medians[b] = block % 2 == 1 ? part[block / 2]
          : (part[block / 2 - 1] + part[block / 2]) / 2;
    }
    // root mean square around zero: the line already took the blocks' common level out
    double ss = 0;
    for (double m : medians) {
      ss += m * m;
    }
    double observed = Math.sqrt(ss / blocks);
    double white = 1.2533 * pointSigma / Math.sqrt(block);
    return Math.max(1, observed / white);
  }

  private static double medianAbs(double[] v, int from, int to) {
    double[] a = new double[to - from];
    for (int i = from; i < to; i++) {
      a[i - from] = Math.abs(v[i]);
    }
    Arrays.sort(a);
    int n = a.length;
    return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
  }
}
