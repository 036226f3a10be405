package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SerialDependenceTest {

  /** {@code n} values of unit-variance AR(1) noise with correlation {@code rho}, plus a slope. */
  static double[] ar(long seed, int n, double rho, double slope) {
    Random r = new Random(seed);
    double[] x = new double[n];
    double s = r.nextGaussian();
    for (int i = 0; i < n; i++) {
      s = rho * s + Math.sqrt(1 - rho * rho) * r.nextGaussian();
      x[i] = 100 + s + slope * i;
    }
    return x;
  }

  @Test
  void independentNoiseShowsNoDependenceInAlmostEveryWindow() {
    int quiet = 0;
    for (long seed = 0; seed < 200; seed++) {
      if (SerialDependence.assuredRho(ar(seed, 120, 0, 0), 120) == 0) {
        quiet++;
      }
    }
    assertThat(quiet).isGreaterThanOrEqualTo(195);
  }

  @Test
  void wanderingNoiseShowsItsCorrelationLessTheDoubt() {
    for (long seed = 0; seed < 50; seed++) {
      assertThat(SerialDependence.assuredRho(ar(seed, 120, 0.9, 0), 120)).isBetween(0.45, 0.95);
    }
  }

  @Test
  void aMildCorrelationCountsAsNone() {
    // the band's slack over the prior rate covers it (a load's slow drift)
    for (long seed = 0; seed < 50; seed++) {
      assertThat(SerialDependence.assuredRho(ar(seed, 120, 0.3, 0), 120)).isZero();
    }
  }

  @Test
  void aSlopeAcrossTheWindowIsNoWandering() {
    // a load cycle's climb of ten noise deviations across the window
    int quiet = 0;
    for (long seed = 0; seed < 200; seed++) {
      if (SerialDependence.assuredRho(ar(seed, 120, 0, 10.0 / 120), 120) == 0) {
        quiet++;
      }
    }
    assertThat(quiet).isGreaterThanOrEqualTo(195);
  }

  @Test
  void aShortOrFlatWindowTellsNothing() {
    assertThat(SerialDependence.assuredRho(ar(1, 9, 0.99, 0), 9)).isZero();
    assertThat(SerialDependence.assuredRho(new double[50], 50)).isZero();
  }

  @Test
  void persistenceIsTheRateForIndependentNoiseAndGrowsWithTheCorrelation() {
    assertThat(SerialDependence.persistence(0.01, 0)).isEqualTo(0.01);
    // P(X > z, Y > z) / P(X > z) for z = 2.326 (1 %), from the bivariate normal
    assertThat(SerialDependence.persistence(0.01, 0.5)).isCloseTo(0.129, within(0.003));
    assertThat(SerialDependence.persistence(0.01, 0.9)).isCloseTo(0.542, within(0.005));
    assertThat(SerialDependence.upperTail(SerialDependence.upperQuantile(0.003)))
        .isCloseTo(0.003, within(1e-6));
  }

  @Test
  void runLengthKeepsThreeForIndependentNoiseAndLengthensForWanderingNoise() {
    assertThat(OpeningRule.runLength(OpeningRule.PRIOR_RATE, 0)).isEqualTo(3);
    assertThat(OpeningRule.runLength(0.03, 0)).isEqualTo(OpeningRule.runLength(0.03));
    // 0.01 * 0.542^16 < 1e-6 <= 0.01 * 0.542^15
    assertThat(OpeningRule.runLength(OpeningRule.PRIOR_RATE, 0.9)).isEqualTo(17);
    assertThat(OpeningRule.runLength(OpeningRule.PRIOR_RATE, 0.5)).isEqualTo(6);
  }
}
