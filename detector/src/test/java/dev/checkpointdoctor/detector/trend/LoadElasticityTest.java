package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The elasticity of a signal to the input rate, from pairs of window slopes, and how much of a
 * young job's growth the input rate explains with and without it.
 */
class LoadElasticityTest {
  /** Pairs of a signal following a cycling load by {@code beta}, with noise and a steady drift. */
  private static LoadElasticity pairs(double beta, double drift, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    LoadElasticity e = new LoadElasticity();
    for (int i = 0; i < n; i++) {
      double load = 0.1 * Math.sin(2 * Math.PI * i / 24);
      e.add(load, drift + beta * load + 0.005 * (rnd.nextDouble() - 0.5));
    }
    return e;
  }

  @Test
  void aStateThatBarelyFollowsTheLoadHasASmallElasticity() {
    LoadElasticity.Estimate e = pairs(0.2, 0, 12, 1).estimate();
    assertThat(e).isNotNull();
    assertThat(e.lower()).isLessThanOrEqualTo(0.2);
    assertThat(e.upper()).isBetween(0.2, 0.4);
  }

  @Test
  void aSteadyGrowthDuringThePairsDoesNotBendTheElasticity() {
    LoadElasticity.Estimate e = pairs(1.0, 0.03, 12, 2).estimate();
    assertThat(e).isNotNull();
    assertThat(e.lower()).isBetween(0.8, 1.0);
    assertThat(e.upper()).isBetween(1.0, 1.2);
  }

  @Test
  void tooFewPairsOrALoadThatHardlyMovedTellNothing() {
    assertThat(pairs(0.2, 0, LoadElasticity.MIN_PAIRS - 1, 3).estimate()).isNull();
    LoadElasticity flat = new LoadElasticity();
    for (int i = 0; i < 12; i++) {
      flat.add(0.001 * (i % 2), 0.01);
    }
    assertThat(flat.estimate()).isNull();
  }

  @Test
  void aSnapshotKeepsWhatWasLearned() throws java.io.IOException {
    LoadElasticity e = pairs(0.4, 0.01, 9, 4);
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    e.writeTo(new java.io.DataOutputStream(b));
    LoadElasticity back = LoadElasticity.readFrom(new java.io.DataInputStream(
        new java.io.ByteArrayInputStream(b.toByteArray())));
    assertThat(back.estimate()).isEqualTo(e.estimate());
    back.add(0.05, 0.02);
    assertThat(back.estimate().pairs()).isEqualTo(10);
  }

  @Test
  void aRisingLoadExplainsOnlyWhatTheSignalFollows() {
    SenSlope.Fit rising = new SenSlope.Fit(0.08, 0.05, 0.11, 0, 24);
    // unknown elasticity: the fastest rise the load's interval allows, in full
    assertThat(GrowthTest.loadExplains(rising, null)).isEqualTo(0.11);
    // 0.2 * 0.08 = 0.016, plus 2.576 standard errors of the product (0.0040)
    double part = GrowthTest.loadExplains(rising, new LoadElasticity.Estimate(0.2, 0.04, 12));
    assertThat(part).isCloseTo(0.0262, Offset.offset(5e-4));
    // never more than the load's rise in full
    assertThat(GrowthTest.loadExplains(rising, new LoadElasticity.Estimate(1.2, 0.2, 12)))
        .isEqualTo(0.11);
  }

  @Test
  void aFallingLoadGivesBackWhatTheSignalSurelyFollows() {
    SenSlope.Fit falling = new SenSlope.Fit(-0.08, -0.11, -0.05, 0, 24);
    assertThat(GrowthTest.loadExplains(falling, null)).isZero();
    // 0.7 * -0.08 = -0.056, less 2.576 standard errors of the product (0.0091) towards 0
    assertThat(GrowthTest.loadExplains(falling, new LoadElasticity.Estimate(0.7, 0.05, 12)))
        .isCloseTo(-0.0326, Offset.offset(5e-4));
    // a fall the intervals do not establish gives nothing back
    SenSlope.Fit unsure = new SenSlope.Fit(-0.02, -0.06, 0.01, 0, 24);
    assertThat(GrowthTest.loadExplains(unsure, new LoadElasticity.Estimate(0.7, 0.05, 12)))
        .isZero();
  }
}
