package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SenSlopeTest {
  @Test
  void normalQuantilesMatchTheTables() {
    assertThat(NormalQuantile.of(0.5)).isCloseTo(0, within(1e-9));
    assertThat(NormalQuantile.of(0.95)).isCloseTo(1.644854, within(1e-6));
    assertThat(NormalQuantile.of(0.975)).isCloseTo(1.959964, within(1e-6));
    assertThat(NormalQuantile.of(0.001)).isCloseTo(-3.090232, within(1e-6));
    assertThat(NormalQuantile.of(0.999)).isCloseTo(3.090232, within(1e-6));
  }

  @Test
  void aFewOutliersDoNotTiltTheLine() {
    int n = 40;
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = i;
      y[i] = 10 + 0.5 * i;
    }
    y[7] = 500; // one slow checkpoint
    y[30] = -200;
    SenSlope.Fit f = SenSlope.fit(x, y, n, 0.9);
    assertThat(f.slope()).isCloseTo(0.5, within(1e-12));
    assertThat(f.atZero()).isCloseTo(10, within(1e-12));
    assertThat(f.at(10)).isCloseTo(15, within(1e-12));
    assertThat(f.lower()).isLessThanOrEqualTo(0.5);
    assertThat(f.upper()).isGreaterThanOrEqualTo(0.5);
  }

  /**
   * By hand for five points on y = x with the third raised by 1: the ten pair slopes sorted are
   * 0, 0.5, 1, 1, 1, 1, 1, 1, 1.5, 2; median 1. At 80 %, C = 1.2816 * sqrt(5*4*15/18) = 5.23,
   * so the bounds are the floor((10-5.23)/2) = 2nd and the ceil((10+5.23)/2)+1 = 9th smallest.
   */
  @Test
  void boundsAreTheRankedPairSlopesSenDefines() {
    double[] x = {0, 1, 2, 3, 4};
    double[] y = {0, 1, 3, 3, 4};
    SenSlope.Fit f = SenSlope.fit(x, y, 5, 0.8);
    assertThat(f.slope()).isEqualTo(1.0);
    assertThat(f.lower()).isEqualTo(0.5);
    assertThat(f.upper()).isEqualTo(1.5);
    // too few points for a 99 % bound on either side
    SenSlope.Fit wide = SenSlope.fit(x, y, 5, 0.99);
    assertThat(wide.lower()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(wide.upper()).isEqualTo(Double.POSITIVE_INFINITY);
  }

  /** The 90 % interval holds the true slope about 90 % of the time, short or thinned series. */
  @Test
  void intervalCoversTheTrueSlopeAtItsLevel() {
    Random rnd = new Random(7);
    for (int n : new int[] {12, 60, 400}) {
      int covered = 0;
      int runs = 600;
      for (int r = 0; r < runs; r++) {
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
          x[i] = i * 0.1 + rnd.nextDouble() * 0.05;
          y[i] = 3 + 0.2 * x[i] + rnd.nextGaussian();
        }
        SenSlope.Fit f = SenSlope.fit(x, y, n, 0.9);
        if (f.lower() <= 0.2 && 0.2 <= f.upper()) {
          covered++;
        }
      }
      assertThat(covered / (double) runs).as("coverage with %d points", n).isBetween(0.86, 0.96);
    }
  }

  @Test
  void degenerateInputs() {
    assertThat(SenSlope.fit(new double[0], new double[0], 0, 0.9).atZero()).isNaN();
    SenSlope.Fit one = SenSlope.fit(new double[] {1}, new double[] {4}, 1, 0.9);
    assertThat(one.slope()).isZero();
    assertThat(one.atZero()).isEqualTo(4);
    SenSlope.Fit sameX = SenSlope.fit(new double[] {1, 1, 1}, new double[] {1, 2, 3}, 3, 0.9);
    assertThat(sameX.slope()).isZero();
    assertThat(sameX.atZero()).isEqualTo(2);
  }

  /**
   * The fewest points an interval needs is where a strictly rising run first gets a finite lower
   * bound: a fit of fewer can never call anything growing.
   */
  @Test
  void fewestPointsIsWhereARisingRunFirstGetsALowerBound() {
    for (double confidence : new double[] {0.9, 0.99}) {
      int fewest = SenSlope.fewestPoints(confidence);
      double[] x = new double[fewest];
      double[] y = new double[fewest];
      for (int i = 0; i < fewest; i++) {
        x[i] = i;
        y[i] = Math.pow(1.5, i);
      }
      assertThat(SenSlope.fit(x, y, fewest - 1, confidence).lower())
          .as("%d points at %s", fewest - 1, confidence).isEqualTo(Double.NEGATIVE_INFINITY);
      assertThat(SenSlope.fit(x, y, fewest, confidence).lower())
          .as("%d points at %s", fewest, confidence).isPositive();
    }
    assertThat(SenSlope.fewestPoints(0.99)).isEqualTo(7);
  }

  /**
   * The fit reads its ranks by selection; it must give what Sen's definition gives by sorting
   * every pair slope, bit for bit (replays compare reports byte for byte): noisy, flat, integral,
   * thinned, and with repeated x.
   */
  @Test
  void selectedRanksAreThoseOfTheFullySortedPairs() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 300; trial++) {
      int n = 2 + rnd.nextInt(trial % 3 == 0 ? 500 : 40);
      double[] x = new double[n];
      double[] y = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = trial % 5 == 0 ? i / 4 : i * 0.25 - 3;
        y[i] = switch (trial % 4) {
          case 0 -> 3 + 0.2 * x[i] + rnd.nextGaussian();
          case 1 -> 7; // flat: every slope 0, -0.0 where x falls
          case 2 -> rnd.nextInt(4);
          default -> Math.log(1 + i + rnd.nextInt(3));
        };
      }
      double confidence = trial % 2 == 0 ? 0.99 : 0.9;
      SenSlope.Fit f = SenSlope.fit(x, y, n, confidence);
      double[] sorted = sortedDefinition(x, y, n, confidence);
      assertThat(new double[] {f.slope(), f.lower(), f.upper(), f.atZero()})
          .as("trial %d", trial).containsExactly(sorted);
      for (int i = 0; i < 4; i++) {
        assertThat(Double.doubleToRawLongBits(new double[] {f.slope(), f.lower(), f.upper(),
            f.atZero()}[i])).isEqualTo(Double.doubleToRawLongBits(sorted[i]));
      }
    }
  }

  /**
   * The line alone is the fit's line, bit for bit (the trend test reads only the line of most of
   * its fits), with an unbounded interval, on the same shapes (thinned ones included, where the
   * pair slopes are many enough to be narrowed around the median).
   */
  @Test
  void theLineAloneIsTheFitsLine() {
    Random rnd = new Random(13);
    for (int trial = 0; trial < 300; trial++) {
      int n = 2 + rnd.nextInt(trial % 3 == 0 ? 500 : 40);
      double[] x = new double[n];
      double[] y = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = trial % 5 == 0 ? i / 4 : i * 0.25 - 3;
        y[i] = switch (trial % 4) {
          case 0 -> 3 + 0.2 * x[i] + rnd.nextGaussian();
          case 1 -> 7;
          case 2 -> rnd.nextInt(4);
          default -> Math.log(1 + i + rnd.nextInt(3));
        };
      }
      double[] sorted = sortedDefinition(x, y, n, 0.99);
      SenSlope.Fit line = SenSlope.line(x, y, n);
      assertThat(Double.doubleToRawLongBits(line.slope())).as("trial %d", trial)
          .isEqualTo(Double.doubleToRawLongBits(sorted[0]));
      assertThat(Double.doubleToRawLongBits(line.atZero())).as("trial %d", trial)
          .isEqualTo(Double.doubleToRawLongBits(sorted[3]));
      assertThat(line.lower()).isEqualTo(Double.NEGATIVE_INFINITY);
      assertThat(line.upper()).isEqualTo(Double.POSITIVE_INFINITY);
      assertThat(line.n()).isEqualTo(Math.min(n, SenSlope.MAX_POINTS));
    }
  }

  /** Slope, lower, upper and level as the definition reads them off all sorted pair slopes. */
  private static double[] sortedDefinition(double[] x, double[] y, int n, double confidence) {
    int m = Math.min(n, SenSlope.MAX_POINTS);
    int[] used = new int[m];
    for (int i = 0; i < m; i++) {
      used[i] = m == n ? i : (int) Math.round((double) i * (n - 1) / (m - 1));
    }
    double[] slopes = new double[m * (m - 1) / 2];
    int k = 0;
    for (int a = 0; a < m; a++) {
      for (int b = a + 1; b < m; b++) {
        double dx = x[used[b]] - x[used[a]];
        if (dx != 0) {
          slopes[k++] = (y[used[b]] - y[used[a]]) / dx;
        }
      }
    }
    if (k == 0) { // no pair with distinct x: flat at the median
      double[] v = new double[m];
      for (int i = 0; i < m; i++) {
        v[i] = y[used[i]];
      }
      java.util.Arrays.sort(v);
      return new double[] {0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
          m % 2 == 1 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2};
    }
    java.util.Arrays.sort(slopes, 0, k);
    double slope = k % 2 == 1 ? slopes[k / 2] : (slopes[k / 2 - 1] + slopes[k / 2]) / 2;
    double c = NormalQuantile.of(0.5 + confidence / 2)
        * Math.sqrt(m * (m - 1.0) * (2.0 * m + 5) / 18);
    long lowRank = (long) Math.floor((k - c) / 2);
    long highRank = (long) Math.ceil((k + c) / 2) + 1;
    double[] rest = new double[m];
    for (int i = 0; i < m; i++) {
      rest[i] = y[used[i]] - slope * x[used[i]];
    }
    java.util.Arrays.sort(rest);
    return new double[] {slope,
        lowRank >= 1 ? slopes[(int) lowRank - 1] : Double.NEGATIVE_INFINITY,
        highRank <= k ? slopes[(int) highRank - 1] : Double.POSITIVE_INFINITY,
        m % 2 == 1 ? rest[m / 2] : (rest[m / 2 - 1] + rest[m / 2]) / 2};
  }
}
