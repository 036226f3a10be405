package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A CPU quota that bites gradually on one TaskManager: its throttled share climbs from the
 * container's usual 2 % by a point a minute, its window subtasks slow down and, once they cannot
 * keep up, back-pressure their source. The throttling left its own range first; it clears the
 * band the signal's 5-point floor sets only after the back-pressure began, and must still rank
 * above the back-pressure it explains.
 */
class CpuThrottlingOnsetTest {
  /** Minutes the quota takes to bite fully. */
  static final double RAMP_MIN = 20;
  /** Throttled share the ramp ends at, above the usual ~2 %. */
  static final double RISE = 0.2;
  /** The window subtasks can no longer keep up: the source is back-pressured. */
  static final long PRESSED_AFTER_MS = 3 * 60_000L;

  @ParameterizedTest
  @ValueSource(longs = {3, 4, 5})
  void gradualThrottlingOutranksTheBackPressureItCauses(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, (int) (15 + 15 * (seed % 2)), seed % 2 == 0);
    s.run(NORMAL_MIN, 12, (x, f) -> {
      double level = Math.min(1, f / (RAMP_MIN * 60_000));
      x.cpuThrottled[0] += RISE * level;
      for (int i = 0; i < x.parallelism; i += x.tms) { // the window subtasks on TaskManager 0
        x.busy[1][i] = Math.min(1000, x.busy[1][i] * (1 + 2 * level));
        x.bp[1][i] = 5 * x.rnd.nextDouble();
      }
      if (f >= PRESSED_AFTER_MS) {
        for (int i = 0; i < x.parallelism; i++) {
          x.bp[0][i] = 600 + 200 * x.rnd.nextDouble();
        }
      }
    });
    Diagnosis d = diagnosis(s);
    assertThat(CauseRankerScenarioTest.confidenceOf(d, Cause.BACKPRESSURE)).as(describe(d))
        .isGreaterThan(0);
    assertThat(d.cause()).as(describe(d)).isEqualTo("cpu_throttling");
  }
}
