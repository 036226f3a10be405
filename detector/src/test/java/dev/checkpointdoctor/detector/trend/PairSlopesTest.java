package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sampled selection of pair slopes gives the fits a full sort of every pair slope gives, bit
 * for bit: the reference here stores all slopes and sorts them, as the fit did before.
 */
class PairSlopesTest {
  private static final double CONFIDENCE = 0.9;

  @Test
  void fitsEqualThoseOfSortingEveryPairSlope() {
    Random rnd = new Random(26);
    int[] sizes = {2, 3, 5, 17, 40, 77, 99, 100, 101, 120, 149, 150, 151, 240, 480};
    int cases = 0;
    for (int round = 0; round < 40; round++) {
      for (int n : sizes) {
        for (Shape shape : Shape.values()) {
          double[][] xy = series(rnd, n, shape);
          double confidence = round % 3 == 0 ? 0.99 : round % 3 == 1 ? CONFIDENCE : 0.5;
          assertSame(SenSlope.fit(xy[0], xy[1], n, confidence), reference(xy[0], xy[1], n,
              confidence, true), shape + " n=" + n + " round " + round);
          assertSame(SenSlope.line(xy[0], xy[1], n), reference(xy[0], xy[1], n, Double.NaN,
              false), shape + " line n=" + n + " round " + round);
          cases++;
        }
      }
    }
    assertThat(cases).isGreaterThan(4_000);
  }

  /** Without this the test above could pass with every fit made the old way. */
  @Test
  void theSampledSelectionIsTakenAndReadsTheSortedRanks() {
    Random rnd = new Random(5);
    int taken = 0;
    int tries = 0;
    for (Shape shape : new Shape[] {Shape.NOISY, Shape.INTEGRAL, Shape.EQUAL_TIMES,
        Shape.SIGNED_ZEROS}) {
      for (int n : new int[] {PairSlopes.FROM_POINTS, 120, 150}) {
        for (int round = 0; round < 30; round++) {
          double[][] xy = series(rnd, n, shape);
          double[] sorted = sortedSlopes(xy[0], xy[1], n);
          int k = sorted.length;
          int[] ranks = {k / 5, k / 2 - 1, k / 2, k - 1 - k / 5};
          double[] out = new double[4];
          tries++;
          if (PairSlopes.select(xy[0], xy[1], n, k, ranks, 4, out)) {
            taken++;
            for (int i = 0; i < 4; i++) {
              assertThat(Double.doubleToRawLongBits(out[i]))
                  .as("%s n=%d rank %d", shape, n, ranks[i])
                  .isEqualTo(Double.doubleToRawLongBits(sorted[ranks[i]]));
            }
          }
        }
      }
    }
    assertThat(taken).isGreaterThan(tries * 9 / 10);
  }

  enum Shape {
    NOISY, INTEGRAL, CONSTANT, EQUAL_TIMES, UNSORTED_TIMES, INFINITE_TIMES, SIGNED_ZEROS, NOT_FINITE,
    HUGE, STEPS
  }

  private static double[][] series(Random rnd, int n, Shape shape) {
    double[] x = new double[n];
    double[] y = new double[n];
    double t = -2 + rnd.nextDouble();
    for (int i = 0; i < n; i++) {
      // 15 s scrapes in hours, as the trend test's x; some timestamps repeat
      t += shape == Shape.EQUAL_TIMES && rnd.nextInt(3) == 0 ? 0 : 15 / 3600.0;
      x[i] = t;
      double level = 5 + 0.01 * i;
      y[i] = switch (shape) {
        case NOISY, EQUAL_TIMES, UNSORTED_TIMES, INFINITE_TIMES -> Math.log(level * (1 + 0.05 * rnd.nextGaussian()));
        case INTEGRAL -> Math.rint(20 + 3 * rnd.nextGaussian());
        case CONSTANT -> 7;
        case SIGNED_ZEROS -> rnd.nextInt(4) == 0 ? -0.0 : rnd.nextInt(3) == 0 ? 0.0
            : rnd.nextInt(5) - 2;
        case NOT_FINITE -> rnd.nextInt(40) == 0 ? pick(rnd, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY) : rnd.nextGaussian();
        case HUGE -> rnd.nextGaussian() * (rnd.nextInt(20) == 0 ? 1e308 : 1);
        case STEPS -> i < n / 2 ? 3 : 4 + rnd.nextInt(2);
      };
    }
    if (shape == Shape.UNSORTED_TIMES) {
      for (int i = n - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        double s = x[i];
        x[i] = x[j];
        x[j] = s;
      }
      if (n > 3) {
        x[1] = x[0];
        x[2] = Double.POSITIVE_INFINITY;
        x[3] = Double.POSITIVE_INFINITY;
      }
    }
    if (shape == Shape.INFINITE_TIMES && n > 3) {
      // in order, yet infinity minus infinity is NaN: a pair although the two x are equal
      x[n - 2] = Double.POSITIVE_INFINITY;
      x[n - 1] = Double.POSITIVE_INFINITY;
    }
    if (shape == Shape.SIGNED_ZEROS && n > 2) {
      x[n / 2] = -0.0;
      x[n / 2 + 1] = 0.0;
    }
    return new double[][] {x, y};
  }

  private static double pick(Random rnd, double... values) {
    return values[rnd.nextInt(values.length)];
  }

  private static void assertSame(SenSlope.Fit actual, SenSlope.Fit expected, String what) {
    assertThat(bits(actual)).as(what).containsExactly(bits(expected));
  }

  private static long[] bits(SenSlope.Fit f) {
    return new long[] {Double.doubleToRawLongBits(f.slope()), Double.doubleToRawLongBits(f.lower()),
        Double.doubleToRawLongBits(f.upper()), Double.doubleToRawLongBits(f.atZero()), f.n()};
  }

  private static double[] sortedSlopes(double[] x, double[] y, int n) {
    double[] s = new double[n * (n - 1) / 2];
    int k = 0;
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        double dx = x[b] - x[a];
        if (dx != 0) {
          s[k++] = (y[b] - y[a]) / dx;
        }
      }
    }
    double[] out = Arrays.copyOf(s, k);
    Arrays.sort(out);
    return out;
  }

  /** The fit as defined: every pair slope stored and sorted, ranks as Sen gives them. */
  private static SenSlope.Fit reference(double[] x, double[] y, int n, double confidence,
      boolean interval) {
    if (n < 2) {
      return new SenSlope.Fit(0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
          n == 1 ? y[0] : Double.NaN, n);
    }
    int m = Math.min(n, SenSlope.MAX_POINTS);
    double[] ux = new double[m];
    double[] uy = new double[m];
    for (int i = 0; i < m; i++) {
      int j = m == n ? i : (int) Math.round((double) i * (n - 1) / (m - 1));
      ux[i] = x[j];
      uy[i] = y[j];
    }
    double[] slopes = sortedSlopes(ux, uy, m);
    int k = slopes.length;
    if (k == 0) {
      return new SenSlope.Fit(0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
          median(uy.clone()), m);
    }
    double slope = median(slopes);
    double lower = Double.NEGATIVE_INFINITY;
    double upper = Double.POSITIVE_INFINITY;
    if (interval) {
      double c = NormalQuantile.of(0.5 + confidence / 2)
          * Math.sqrt(m * (m - 1.0) * (2.0 * m + 5) / 18);
      long lowRank = (long) Math.floor((k - c) / 2);
      long highRank = (long) Math.ceil((k + c) / 2) + 1;
      lower = lowRank >= 1 ? slopes[(int) lowRank - 1] : lower;
      upper = highRank <= k ? slopes[(int) highRank - 1] : upper;
    }
    double[] rest = new double[m];
    for (int i = 0; i < m; i++) {
      rest[i] = uy[i] - slope * ux[i];
    }
    return new SenSlope.Fit(slope, lower, upper, median(rest), m);
  }

  private static double median(double[] v) {
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
