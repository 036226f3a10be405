package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SpreadTestTest {
  @Test
  void studentTTailsMatchTheirTables() {
    // Cauchy: P(T > 1) = 1/4 exactly; table values of t at one-sided 5 % and 1 %
    assertThat(SpreadTest.studentTSurvival(1, 1)).isCloseTo(0.25, within(1e-9));
    assertThat(SpreadTest.studentTSurvival(2.015048, 5)).isCloseTo(0.05, within(1e-6));
    assertThat(SpreadTest.studentTSurvival(6.964557, 2)).isCloseTo(0.01, within(1e-6));
    assertThat(SpreadTest.studentTSurvival(-6.964557, 2)).isCloseTo(0.99, within(1e-6));
    // many degrees of freedom: the normal tail
    assertThat(SpreadTest.studentTSurvival(2.326348, 1e6)).isCloseTo(0.01, within(1e-5));
    assertThat(SpreadTest.logGamma(0.5)).isCloseTo(Math.log(Math.sqrt(Math.PI)), within(1e-12));
    assertThat(SpreadTest.logGamma(10)).isCloseTo(Math.log(362880), within(1e-10));
  }

  @Test
  void aStepFarOutsideTheEarlierSpreadDecidesWhereRanksCannot() {
    Random r = new Random(7);
    double[] before = new double[40];
    for (int i = 0; i < before.length; i++) {
      before[i] = 2e6 * Math.exp(0.2 * r.nextGaussian());
    }
    double[] recent = {5e7, 6e7, 4.5e7};
    double dependence = 4; // correlated earlier values (lag-1 0.6): about 10 independent ones
    assertThat(RankTests.mannWhitney(before, recent, dependence).pGreater())
        .as("the rank test at its best with three values").isGreaterThan(Change.ALPHA);
    assertThat(SpreadTest.pHigher(before, recent, dependence)).isLessThan(Change.ALPHA);
  }

  @Test
  void aStepWithinTheEarlierSpreadDoesNotDecide() {
    Random r = new Random(11);
    double[] before = new double[40];
    for (int i = 0; i < before.length; i++) {
      before[i] = 2e6 * Math.exp(0.5 * r.nextGaussian());
    }
    double[] recent = {4e6, 5e6, 4.5e6}; // about 1.6 spreads above the median
    assertThat(SpreadTest.pHigher(before, recent, 1)).isGreaterThan(0.05);
  }

  @Test
  void oneFarValueAmongThreeIsNotAStep() {
    double[] before = {2e6, 2.1e6, 1.9e6, 2.2e6, 1.8e6, 2e6, 2.05e6, 1.95e6, 2.1e6, 1.9e6};
    double[] recent = {2e6, 9e7, 2.1e6}; // a burst: the median has not moved
    assertThat(SpreadTest.pHigher(before, recent, 1)).isGreaterThan(0.4);
  }

  @Test
  void valuesThatAreNotPositiveCannotBeJudgedOnALogScale() {
    double[] before = {0, 0, 0, 0, 0, 0, 0, 0};
    assertThat(SpreadTest.pHigher(before, new double[] {5e7, 6e7, 7e7}, 1)).isEqualTo(1);
  }

  @Test
  void farAboveTheBandDecidesAndJustAboveItsMiddleDoesNot() {
    // a band of 4 spreads of 1 MiB around 4 MiB
    double spread = 1 << 20;
    assertThat(SpreadTest.pHigherThanBand(4 << 20, spread, new double[] {6e7, 5e7, 7e7}))
        .isLessThan(0.001);
    assertThat(SpreadTest.pHigherThanBand(4 << 20, spread, new double[] {5e6, 5.5e6, 4.8e6}))
        .isGreaterThan(0.1);
  }
}
