package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A CPU quota that bites gradually on one TaskManager: its throttled share climbs from the
 * container's usual 2 % by a point a minute, its window subtasks slow down and, three minutes
 * in, back-pressure their source. The throttling left its own range first but clears the band
 * the signal's 5-point floor sets only after the back-pressure began, and its rise passes that
 * floor minutes later still: back-pressure must not be named meanwhile, nor outrank it after.
 */
class CpuThrottlingOnsetTest {
  /** Minutes the quota takes to bite fully. */
  static final double RAMP_MIN = 20;
  /** Throttled share the ramp ends at, above the usual ~2 %. */
  static final double RISE = 0.2;
  /** The window subtasks can no longer keep up: the source is back-pressured. */
  static final long PRESSED_AFTER_MS = 3 * 60_000L;

  @ParameterizedTest
  @ValueSource(longs = {3, 4, 5, 6})
  void gradualThrottlingIsNamedBeforeTheBackPressureItCauses(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, (int) (15 + 15 * (seed % 2)), seed % 2 == 0);
    s.run(NORMAL_MIN, 0, (x, f) -> { });
    long start = s.now;
    List<String> named = new ArrayList<>();
    for (int minute = 1; minute <= 12; minute++) {
      s.run(0, 1, (x, ignored) -> gradualQuota(x, x.now - start));
      s.detector.diagnosis(s.job).ifPresent(d -> named.add(d.cause()));
    }
    Diagnosis d = diagnosis(s);
    assertThat(CauseRankerScenarioTest.confidenceOf(d, Cause.BACKPRESSURE)).as(describe(d))
        .isGreaterThan(0);
    assertThat(d.cause()).as(describe(d)).isEqualTo("cpu_throttling");
    assertThat(named).as("causes named minute by minute").doesNotContain("backpressure");
  }

  /**
   * A back-pressure fault beside a small lasting rise of the throttled share (3 points, never
   * the floor's 5): the rise holds the back-pressure back for a while, not for good.
   */
  @ParameterizedTest
  @ValueSource(longs = {3, 4})
  void aSmallLastingRiseDoesNotHoldBackPressureForGood(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, (int) (15 + 15 * (seed % 2)), seed % 2 == 0);
    s.run(NORMAL_MIN, 0, (x, f) -> { });
    s.run(0, 30, (x, f) -> {
      x.cpuThrottled[0] += 0.03;
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[1][i] = Math.min(1000, x.busy[1][i] * 3);
        x.bp[0][i] = 600 + 200 * x.rnd.nextDouble();
      }
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("backpressure");
  }

  private static void gradualQuota(FlinkJobSim x, long faultMs) {
    double level = Math.min(1, faultMs / (RAMP_MIN * 60_000));
    x.cpuThrottled[0] += RISE * level;
    for (int i = 0; i < x.parallelism; i += x.tms) { // the window subtasks on TaskManager 0
      x.busy[1][i] = Math.min(1000, x.busy[1][i] * (1 + 2 * level));
      x.bp[1][i] = 5 * x.rnd.nextDouble();
    }
    if (faultMs >= PRESSED_AFTER_MS) {
      for (int i = 0; i < x.parallelism; i++) {
        x.bp[0][i] = 600 + 200 * x.rnd.nextDouble();
      }
    }
  }
}
