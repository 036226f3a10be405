package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OrderStatisticsTest {
  /** Every shape a pair-slope array takes: ties, signed zeros, runs, adversarial orders. */
  @Test
  void placesTheBitsAFullSortWouldPutThere() {
    Random rnd = new Random(7);
    for (int trial = 0; trial < 4000; trial++) {
      int n = 1 + rnd.nextInt(trial < 2000 ? 60 : 12_000);
      double[] a = new double[n];
      int shape = trial % 7;
      for (int i = 0; i < n; i++) {
        a[i] = switch (shape) {
          case 0 -> rnd.nextGaussian();
          case 1 -> rnd.nextInt(5) - 2; // integral values: many ties
          case 2 -> rnd.nextBoolean() ? 0.0 : -0.0; // the sort puts -0.0 first
          case 3 -> i; // sorted
          case 4 -> n - i; // reversed
          case 5 -> i < n / 2 ? i : n - i; // organ pipe
          default -> rnd.nextInt(3) == 0 ? (rnd.nextBoolean() ? 0.0 : -0.0) : rnd.nextInt(7) - 3;
        };
      }
      int[] ranks = new int[1 + rnd.nextInt(4)];
      for (int i = 0; i < ranks.length; i++) {
        // half the time as a fit reads them: the median and an interval's bounds around it
        ranks[i] = trial % 2 == 0 ? rnd.nextInt(n)
            : Math.max(0, Math.min(n - 1, n / 2 + (int) ((rnd.nextDouble() - 0.5) * n / 7)));
      }
      ranks = Arrays.stream(ranks).sorted().distinct().toArray();
      double[] sorted = a.clone();
      Arrays.sort(sorted);
      OrderStatistics.place(a, 0, n, ranks, ranks.length);
      for (int r : ranks) {
        assertThat(Double.doubleToRawLongBits(a[r]))
            .as("trial %d shape %d n %d rank %d", trial, shape, n, r)
            .isEqualTo(Double.doubleToRawLongBits(sorted[r]));
      }
      double[] placed = a.clone();
      Arrays.sort(placed);
      assertThat(placed).as("a permutation of the input").isEqualTo(sorted);
    }
  }

  @Test
  void withNaNPlacesAsTheSortDoes() {
    double[] a = {3, Double.NaN, 1, 2, Double.NaN, 0};
    OrderStatistics.place(a, 0, a.length, new int[] {2, 5}, 2);
    assertThat(a[2]).isEqualTo(2.0);
    assertThat(a[5]).isNaN();
  }
}
