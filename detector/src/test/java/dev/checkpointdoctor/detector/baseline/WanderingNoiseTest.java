package dev.checkpointdoctor.detector.baseline;

import static dev.checkpointdoctor.detector.baseline.RobustBaselineTest.MINUTE;
import static dev.checkpointdoctor.detector.baseline.RobustBaselineTest.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.baseline.SignalTracker.Transition;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Direction;
import org.junit.jupiter.api.Test;

/** A run of out-of-band values opens later in a scope whose noise wanders than in a calm one. */
class WanderingNoiseTest {

  /** The first observation of {@code 40} just above the band that opens, or -1. */
  static int opensAt(double rho) {
    // floor 0: the band is the window's own spread
    SignalTracker t = SignalTracker.withoutYouth(
        SignalTracker.forSeries(Direction.UP, 0, DetectorSettings.defaults()));
    double[] noise = SerialDependenceTest.ar(7, 120, rho, 0);
    for (int i = 0; i < noise.length; i++) {
      t.observe(T0 + i * MINUTE, noise[i]);
    }
    for (int k = 0; k < 40; k++) {
      double justAbove = t.band().upper() + 0.1 * t.band().halfWidth();
      if (t.observe(T0 + (120 + k) * MINUTE, justAbove).transition() == Transition.OPENED) {
        return k + 1;
      }
    }
    return -1;
  }

  @Test
  void independentNoiseOpensAfterThree() {
    assertThat(opensAt(0)).isEqualTo(3);
  }

  @Test
  void wanderingNoiseNeedsALongerRun() {
    // its window's correlation, less the doubt of 120 values, is about 0.7: eight or more
    assertThat(opensAt(0.9)).isBetween(7, 17);
  }
}
