package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The selecting quantile must give, bit for bit, what interpolating a sorted copy gives. */
class StatsTest {
  private static final double[] QS = {0, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 1};

  @Test
  void quantileEqualsTheSortedReferenceBitForBit() {
    Random r = new Random(11);
    for (int trial = 0; trial < 4000; trial++) {
      int n = 1 + r.nextInt(trial < 2000 ? 40 : 400);
      double[] v = new double[n];
      int kind = trial % 5;
      for (int i = 0; i < n; i++) {
        v[i] = switch (kind) {
          case 0 -> r.nextGaussian() * 100;
          case 1 -> r.nextInt(4); // many ties
          case 2 -> r.nextBoolean() ? 0.0 : -0.0; // signed zeros: sort puts -0.0 first
          case 3 -> i; // already sorted
          default -> r.nextInt(10) == 0 ? Double.NaN : n - i; // reversed, with NaNs (last)
        };
      }
      for (double q : QS) {
        double expected = reference(v, q);
        double actual = Stats.quantile(v, q);
        assertThat(Double.doubleToRawLongBits(actual))
            .as("trial %d kind %d n %d q %s: %s vs %s", trial, kind, n, q, actual, expected)
            .isEqualTo(Double.doubleToRawLongBits(expected));
      }
    }
  }

  @Test
  void quantileLeavesItsInputAlone() {
    double[] v = {5, 1, 4, 2, 3};
    assertThat(Stats.median(v)).isEqualTo(3);
    assertThat(v).containsExactly(5, 1, 4, 2, 3);
    assertThat(Stats.quantile(new double[0], 0.5)).isNaN();
  }

  private static double reference(double[] v, double q) {
    double[] s = v.clone();
    Arrays.sort(s);
    double pos = q * (s.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = Math.min(s.length - 1, lo + 1);
    return s[lo] + (s[hi] - s[lo]) * (pos - lo);
  }
}
