package dev.checkpointdoctor.detector.baseline;

import static dev.checkpointdoctor.detector.baseline.RobustBaselineTest.MINUTE;
import static dev.checkpointdoctor.detector.baseline.RobustBaselineTest.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.baseline.SignalTracker.Transition;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Direction;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** A run of out-of-band values opens later in a scope whose noise wanders than in a calm one. */
class WanderingNoiseTest {

  /** The first observation of {@code 40} just above the band that opens, or -1. */
  static int opensAt(double rho) {
    return opensAt(rho, k -> 0.02);
  }

  /**
   * The first observation of {@code 40} above the band that opens, or -1: the {@code k}-th
   * (from 0) is {@code beyond.applyAsDouble(k)} half-widths beyond the band's edge.
   */
  static int opensAt(double rho, IntToDoubleFunction beyond) {
    return opensAt(wanderingTracker(rho, SPREAD_ONLY), beyond);
  }

  static int opensAt(SignalTracker t, IntToDoubleFunction beyond) {
    for (int k = 0; k < 40; k++) {
      if (t.observe(T0 + (120 + k) * MINUTE, above(t, beyond.applyAsDouble(k))).transition()
          == Transition.OPENED) {
        return k + 1;
      }
    }
    return -1;
  }

  /** The defaults without a relative floor: the band is the window's own spread. */
  static final DetectorSettings SPREAD_ONLY = new DetectorSettings(20, 120, Duration.ofDays(3),
      4.0, 0, 3, 3, Duration.ofHours(6), Duration.ofMinutes(30), Duration.ofMinutes(10),
      Map.of());

  /** A tracker that has learnt 120 minutes of AR(1) noise correlated by {@code rho}. */
  static SignalTracker wanderingTracker(double rho, DetectorSettings settings) {
    SignalTracker t = SignalTracker.withoutYouth(
        SignalTracker.forSeries(Direction.UP, 0, settings));
    double[] noise = SerialDependenceTest.ar(7, 120, rho, 0);
    for (int i = 0; i < noise.length; i++) {
      t.observe(T0 + i * MINUTE, noise[i]);
    }
    return t;
  }

  static double above(SignalTracker t, double halfWidths) {
    return t.band().upper() + halfWidths * t.band().halfWidth();
  }

  @Test
  void independentNoiseOpensAfterThree() {
    assertThat(opensAt(0)).isEqualTo(3);
    assertThat(opensAt(0, k -> 0.6)).isEqualTo(3);
  }

  @Test
  void wanderingNoiseNeedsALongerRun() {
    // its window's correlation, less the doubt of 120 values, is about 0.7: eight or more
    assertThat(opensAt(0.9)).isBetween(7, 17);
  }

  /**
   * Wandering noise that crosses the edge lingers just past it; a level that sits well out (a
   * skewed subtask) is no such lingering and needs no longer run than in a calm scope by much.
   */
  @Test
  void aRunWellOutNeedsLessThanOneAtTheEdge() {
    int atEdge = opensAt(0.9);
    int wellOut = opensAt(0.9, k -> 0.6);
    assertThat(wellOut).isBetween(3, 4).isLessThan(atEdge);
  }

  /**
   * A growth crosses the edge and climbs: judged by its newest observations, it opens once they
   * are out far enough for long enough, before a run that hugs the edge would.
   */
  @Test
  void aClimbingRunOpensBeforeOneThatHugsTheEdge() {
    int atEdge = opensAt(0.9);
    int climbing = opensAt(0.9, k -> 0.1 * k);
    assertThat(climbing).isGreaterThan(3).isLessThan(atEdge);
    // and the climb is no excuse at its start: a run that went far out only after hugging the
    // edge still needs its far part to be long enough (one far observation is not)
    assertThat(opensAt(0.9, k -> k < atEdge - 2 ? 0.05 : 0.6)).isEqualTo(atEdge - 1);
  }

  /**
   * A band its floor holds wider than the noise's spread asks (here the default 10 % of a level
   * of 100, for noise of unit variance: ten deviations against four) has its edge far out in the
   * noise: wandering does not get there, and a run past it opens as in a calm scope.
   */
  @Test
  void pastAFlooredEdgeIsFarOutInTheNoise() {
    SignalTracker floored = wanderingTracker(0.9, DetectorSettings.defaults());
    assertThat(floored.band().halfWidth()).isGreaterThan(2 * 4.0 * floored.band().spread());
    assertThat(opensAt(floored, k -> 0.02)).isEqualTo(3);
  }

  /**
   * How far out a pending run went survives a snapshot; a rule from a version-4 tracker
   * snapshot, which kept no distances, restores its pending run as if it hugged the edge.
   */
  @Test
  void aPendingRunKeepsItsDistancesAcrossASnapshot() throws IOException {
    RobustBaseline window = new RobustBaseline(0, DetectorSettings.defaults());
    double[] noise = SerialDependenceTest.ar(7, 120, 0.9, 0);
    for (int i = 0; i < noise.length; i++) {
      window.learn(T0 + i * MINUTE, noise[i]);
    }
    OpeningRule original = new OpeningRule();
    for (int k = 0; k < 2; k++) {
      assertThat(original.runOpens(T0 + k * MINUTE, 1, 1.6, 3, window)).isFalse();
    }
    byte[] bytes = RobustBaselineTest.bytes(original::writeRuleTo);
    OpeningRule copy = OpeningRule.readFrom(new DataInputStream(new ByteArrayInputStream(bytes)));
    // version 4 wrote the same but for the distances: their count and two floats at the end
    OpeningRule old = OpeningRule.readFrom(new DataInputStream(
        new ByteArrayInputStream(bytes, 0, bytes.length - 4 - 2 * 4)), false);
    assertThat(original.runOpens(T0 + 2 * MINUTE, 1, 1.6, 3, window)).isTrue();
    assertThat(copy.runOpens(T0 + 2 * MINUTE, 1, 1.6, 3, window)).isTrue();
    assertThat(old.runOpens(T0 + 2 * MINUTE, 1, 1.6, 3, window)).isFalse();
  }
}
