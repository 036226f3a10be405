package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.baseline.SignalTracker.Step;
import dev.checkpointdoctor.detector.baseline.SignalTracker.Transition;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Property-style checks over seeded random series (deterministic, no extra libraries). */
class SignalTrackerPropertyTest {

  static final DetectorSettings S = DetectorSettings.defaults();
  static final long T0 = 1_700_000_000_000L;
  static final long STEP_MS = 60_000L;
  static final int SERIES = 1000;

  /**
   * Stationary series: Gaussian noise with a random mean in [500, 20000) ms and a coefficient of
   * variation in [0.02, 0.3), plus isolated 5x spikes with probability 1% per observation.
   *
   * <p>Why at most 1% may open: the band half-width is at least 4 robust sigmas, a one-sided
   * Gaussian tail beyond 4 sigma is 3.2e-5. Even if a 20-point MAD underestimates sigma by 40%
   * (band at 2.4 sigma, tail 0.8%), three consecutive exceedances cost 0.008^3 = 5e-7 per position,
   * about 1e-4 per 200-point series. Three spikes in a row (a real, if synthetic, anomaly) cost
   * 0.01^3 x 200 = 2e-4 per series. Expected opens over 1000 series are therefore well below 1;
   * 10 (1%) leaves a wide margin while still catching a detector that opens on noise.
   */
  @Test
  void stationarySeriesRarelyOpen() {
    Random rnd = new Random(20_240_901L);
    int opened = 0;
    for (int n = 0; n < SERIES; n++) {
      double mean = 500 + rnd.nextDouble() * 19_500;
      double cv = 0.02 + rnd.nextDouble() * 0.28;
      int length = 100 + rnd.nextInt(200);
      SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, S);
      boolean everOpened = false;
      for (int i = 0; i < length; i++) {
        double v = Math.max(0, mean * (1 + cv * rnd.nextGaussian()));
        if (rnd.nextDouble() < 0.01) {
          v = 5 * mean;
        }
        Step s = t.observe(T0 + i * STEP_MS, v);
        everOpened |= s.transition() == Transition.OPENED;
      }
      if (everOpened) {
        opened++;
      }
    }
    assertThat(opened).as("stationary series that opened").isLessThanOrEqualTo(SERIES / 100);
  }

  /**
   * Series with bounded noise (uniform within +-c x mean, c in [0.01, 0.1], mean >= 500 ms) that
   * shift to 3x after readiness. Before the shift every value is in [0.9m, 1.1m], so the median
   * is <= 1.1m and the MAD <= 0.2m; two winsorized pending values move the median by at most one
   * order statistic of at least 20 originals, so still <= 1.1m. Hence upper <= 1.1m + max(4 x
   * 1.4826 x 0.2m = 1.19m, 0.11m, 250 <= 0.5m) <= 2.29m < 2.7m <= every shifted value: each
   * series must open, and must not open before the shift.
   */
  @Test
  void everySustainedThreefoldShiftOpensPromptly() {
    Random rnd = new Random(7_000_003L);
    int maxLag = 0;
    for (int n = 0; n < SERIES; n++) {
      double mean = 500 + rnd.nextDouble() * 19_500;
      double c = 0.01 + rnd.nextDouble() * 0.09;
      int shiftAt = S.minObservations() + rnd.nextInt(100);
      SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, S);
      int openedAt = -1;
      long runStart = 0;
      for (int i = 0; i < shiftAt + S.openAfter() + 2 && openedAt < 0; i++) {
        double v = mean * (1 + c * (2 * rnd.nextDouble() - 1));
        if (i >= shiftAt) {
          v *= 3;
        }
        Step s = t.observe(T0 + i * STEP_MS, v);
        if (s.transition() == Transition.OPENED) {
          openedAt = i;
          runStart = s.runStartMs();
        }
      }
      assertThat(openedAt).as("series %d (shift at %d) opened at", n, shiftAt)
          .isGreaterThanOrEqualTo(shiftAt)
          .isLessThan(shiftAt + S.openAfter() + 2);
      assertThat(runStart).isGreaterThanOrEqualTo(T0 + shiftAt * STEP_MS);
      maxLag = Math.max(maxLag, openedAt - shiftAt + 1);
    }
    // by the argument above the run can never be interrupted: exactly openAfter observations
    assertThat(maxLag).isEqualTo(S.openAfter());
  }
}
