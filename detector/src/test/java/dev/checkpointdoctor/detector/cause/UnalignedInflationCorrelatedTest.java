package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * In-flight data that follows the slowly changing fill of the network buffers: from one
 * checkpoint to the next it wanders (AR(1) in log space, 0.95 per checkpoint), so the rank test,
 * its variance inflated for that correlation, cannot decide even a thirtyfold rise within the
 * checkpoints the back-pressure may be held back for. Back-pressure used to be named first, and
 * once the earlier checkpoints had aged out of the raw history the sign test against the
 * baseline's median hovered around significance and the diagnosis went back and forth.
 */
class UnalignedInflationCorrelatedTest {
  /** A job checkpointing unaligned every 5 min, its in-flight data wandering around ~2 MiB. */
  private static FlinkJobSim wandering(long seed, double[] wander) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 30, seed % 2 == 0);
    s.intervalMs = 300_000;
    s.run(0, 3 * 60, (x, f) -> x.persisted = inFlight(x, wander, 2L << 20));
    return s;
  }

  /** One checkpoint's in-flight data: the wander moves once per checkpoint interval. */
  private static double inFlight(FlinkJobSim x, double[] wander, double level) {
    long checkpoint = x.now / x.intervalMs;
    if (checkpoint != (long) wander[1]) {
      wander[1] = checkpoint;
      wander[0] = 0.95 * wander[0] + Math.sqrt(1 - 0.95 * 0.95) * x.rnd.nextGaussian();
    }
    return level * Math.exp(0.5 * wander[0]) * (1 + 0.03 * x.rnd.nextGaussian());
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void aThirtyfoldRiseOfWanderingInFlightDataIsNamedFirstAndStays(long seed) {
    double[] wander = {0, -1};
    FlinkJobSim s = wandering(seed, wander);
    List<String> named = UnalignedInflationWaitTest.named(s, 4 * 60, (x, f) -> {
      UnalignedInflationWaitTest.pressed(x);
      // the buffers are full from the second checkpoint after the back-pressure began
      x.persisted = f >= x.intervalMs + 30_000 ? inFlight(x, wander, 60L << 20)
          : inFlight(x, wander, 2L << 20);
    });
    UnalignedInflationWaitTest.assertInflationFirst(s, named);
    assertThat(named).as("causes named in turn over four hours of the fault, past the raw "
        + "history's two").containsOnly("unaligned_checkpoint_inflation");
  }

  /**
   * Without back-pressure the buffers are not full: an excursion of the wandering in-flight data
   * far outside its normal is the wander (or a burst of wide records), not the buffers carried
   * into every checkpoint, and naming it inflation alerted hours before any fault.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void anExcursionWithoutBackPressureIsNotNamedInflation(long seed) {
    double[] wander = {0, -1};
    FlinkJobSim s = wandering(seed, wander);
    // four checkpoints thirty times the usual: too few for the rank test on data this
    // correlated, enough for the spread test were it asked without back-pressure
    List<String> named = UnalignedInflationWaitTest.named(s, 60, (x, f) -> x.persisted =
        inFlight(x, wander, f < 4 * x.intervalMs ? 60L << 20 : 2L << 20));
    assertThat(named).as("causes named in turn").doesNotContain("unaligned_checkpoint_inflation");
  }
}
