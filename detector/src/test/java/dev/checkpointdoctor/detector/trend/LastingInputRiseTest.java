package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * A job ten hours old, too young for its daily cycle: its state rises 3 % an hour with the
 * morning's load. The input rose 6 % an hour for hours, but its last two hours wander flat, as a
 * real input's minutes do; the state of windowed aggregations follows the hours, not the
 * minutes. Read over two hours alone the input explained nothing and the rise was named growth
 * (family 1 healthy_cycle, seed 10, 14:33 of its first day).
 */
class LastingInputRiseTest {
  static final long H = HourlyHistory.HOUR_MS;
  static final long T0 = HourlyHistoryTest.T0;
  static final long NOW = T0 + 10 * H + 5 * 60_000L;
  static final long STEP = 60_000L;

  /** Hours before now, negative in the past. */
  static double hours(long t) {
    return (t - NOW) / (double) H;
  }

  /** Input that rose 6 %/h until two hours ago and wandered flat since. */
  static double risingThenFlat(long t) {
    return 1000 * Math.exp(0.06 * Math.min(hours(t), -2));
  }

  static double stateRising3PerHour(long t) {
    return 5e8 * Math.exp(0.03 * hours(t));
  }

  static GrowthReading read(LongToDoubleFunction size, LongToDoubleFunction input,
      long deployedAtMs) {
    HourlyHistoryTest.Raw raw = new HourlyHistoryTest.Raw();
    HourlyHistory hourly = new HourlyHistory();
    List<SeriesHistory> recent = new ArrayList<>();
    List<HourlyHistory> inputHours = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      HourlyHistoryTest.Raw r = new HourlyHistoryTest.Raw();
      HourlyHistory ih = new HourlyHistory(LoadTrend.INPUT_HOURS + 1);
      for (long t = T0; t <= NOW; t += 15_000L) {
        double v = input.applyAsDouble(t) * (1 + 0.02 * Math.sin(t / 97_000.0 + k));
        ih.observe(t, v, r);
        r.add(t, v);
      }
      recent.add(r);
      inputHours.add(ih);
    }
    for (long t = T0; t <= NOW; t += STEP) {
      double v = size.applyAsDouble(t);
      hourly.observe(t, v, raw);
      raw.add(t, v);
    }
    return GrowthTest.evaluate(Signal.CHECKPOINT_FULL_SIZE, raw, hourly, NOW,
        new InputHistories(recent, inputHours), deployedAtMs);
  }

  @Test
  void aRiseTheInputsLastHoursExplainIsNoGrowth() {
    GrowthReading r = read(LastingInputRiseTest::stateRising3PerHour,
        LastingInputRiseTest::risingThenFlat, Long.MIN_VALUE);

    assertThat(r.growing()).as("growing: %s", r).isFalse();
    assertThat(r.adjustment()).isEqualTo(GrowthReading.Adjustment.INPUT_RATE);
  }

  @Test
  void theSameRiseBesideAnInputFlatForHoursIsGrowth() {
    GrowthReading r = read(LastingInputRiseTest::stateRising3PerHour, t -> 1000, Long.MIN_VALUE);

    assertThat(r.growing()).as("growing: %s", r).isTrue();
  }

  @Test
  void hoursBeforeTheLastDeploymentAreNotRead() {
    // redeployed 2.5 h ago: the input's earlier rise belongs to the previous run
    GrowthReading r = read(LastingInputRiseTest::stateRising3PerHour,
        LastingInputRiseTest::risingThenFlat, NOW - 150 * 60_000L);

    assertThat(r.growing()).as("growing: %s", r).isTrue();
  }

  @Test
  void theLastingSlopeIsTheInputsRiseOverItsLastHours() {
    List<HourlyHistory> inputs = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      HourlyHistoryTest.Raw r = new HourlyHistoryTest.Raw();
      HourlyHistory ih = new HourlyHistory(LoadTrend.INPUT_HOURS + 1);
      for (long t = T0; t <= NOW; t += 60_000L) {
        double v = (100 + 50 * k) * Math.exp(0.05 * hours(t));
        ih.observe(t, v, r);
        r.add(t, v);
      }
      inputs.add(ih);
    }

    assertThat(LoadTrend.lastingSlope(inputs, NOW, Long.MIN_VALUE)).isCloseTo(0.05,
        within(0.002));
    assertThat(LoadTrend.lastingSlope(inputs, NOW, NOW - 2 * H)).as("two hours since deploy")
        .isNaN();
    assertThat(LoadTrend.lastingSlope(List.of(), NOW, Long.MIN_VALUE)).isNaN();
  }
}
