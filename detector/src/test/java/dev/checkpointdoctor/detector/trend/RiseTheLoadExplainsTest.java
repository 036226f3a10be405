package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job a week old whose daily cycle is learned: a rise its daily profile does not know (the
 * morning the weekend's lower load fades out, the first hours of a redeploy's new level) is
 * growth only if the job's input rate does not explain it too (family 1 healthy_new_normal).
 */
class RiseTheLoadExplainsTest {
  static final long H = HourlyHistory.HOUR_MS;
  static final long T0 = HourlyHistoryTest.T0;
  static final long STEP = 60_000L;
  /** The last two days ran at 70 % of the load, which returns over four hours from day 7. */
  static final long RAMP_START = T0 + 7 * 24 * H;
  static final long NOW = RAMP_START + 3 * H;

  static double cycle(long t) {
    return 0.2 * Math.sin(2 * Math.PI * Math.floorMod(t, 24 * H) / (24.0 * H) - 1.3);
  }

  static double weekendDip(long t) {
    if (t >= RAMP_START - 48 * H && t < RAMP_START) {
      return 0.3;
    }
    if (t >= RAMP_START && t < RAMP_START + 4 * H) {
      return 0.3 * (1 - (t - RAMP_START) / (4.0 * H));
    }
    return 0;
  }

  /** A records-in scope: the load with a little deterministic noise of its own. */
  static HourlyHistoryTest.Raw recordsIn(java.util.function.LongToDoubleFunction load, int k) {
    HourlyHistoryTest.Raw r = new HourlyHistoryTest.Raw();
    for (long t = NOW - 3 * H; t < NOW; t += 15_000L) {
      r.add(t, 1000 * load.applyAsDouble(t) * (1 + 0.02 * Math.sin(t / 97_000.0 + k)));
    }
    return r;
  }

  static GrowthReading read(java.util.function.LongToDoubleFunction size,
      List<HourlyHistoryTest.Raw> recordsIn) {
    HourlyHistoryTest.Raw raw = new HourlyHistoryTest.Raw();
    HourlyHistory hourly = new HourlyHistory();
    for (long t = T0; t <= NOW; t += STEP) {
      double v = size.applyAsDouble(t);
      hourly.observe(t, v, raw);
      raw.add(t, v);
    }
    return GrowthTest.evaluate(Signal.CHECKPOINT_FULL_SIZE, raw, hourly, NOW,
        InputHistories.recentOnly(List.copyOf(recordsIn)), Long.MIN_VALUE);
  }

  @Test
  void aRiseTheInputRateExplainsIsNoGrowthOnceTheCycleIsLearned() {
    java.util.function.LongToDoubleFunction load = t -> Math.exp(cycle(t)) * (1 - weekendDip(t));
    // the state follows 60 % of the load's moves, the dip's end included
    java.util.function.LongToDoubleFunction size =
        t -> 5e8 * Math.exp(0.6 * cycle(t)) * (1 - 0.6 * weekendDip(t));

    GrowthReading r = read(size, List.of(recordsIn(load, 0), recordsIn(load, 1)));

    assertThat(r.growing()).as("growing: %s", r).isFalse();
    assertThat(r.adjustment()).isEqualTo(GrowthReading.Adjustment.INPUT_RATE);
  }

  @Test
  void theSameRiseWithAFlatInputRateIsGrowth() {
    java.util.function.LongToDoubleFunction load = t -> Math.exp(cycle(t));
    java.util.function.LongToDoubleFunction size =
        t -> 5e8 * Math.exp(0.6 * cycle(t)) * (1 - 0.6 * weekendDip(t));

    GrowthReading r = read(size, List.of(recordsIn(load, 0), recordsIn(load, 1)));

    assertThat(r.growing()).as("growing: %s", r).isTrue();
    assertThat(r.adjustment()).isEqualTo(GrowthReading.Adjustment.DAILY_CYCLE);
  }
}
