package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.sentences;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A heap that a leak fills over an hour and a half (family 1 train seed 18 {@code gc_pressure_a}
 * at {@code --severity-scale 0.5 --onset-minutes 90}, seed 11 at {@code --severity-scale 0.3}):
 * GC time climbs from a few ms/s to a fifth of the time so slowly that its band follows it and
 * it never opens an anomaly of its own. The first thing that does is the checkpoints, which take
 * longer as the task threads pause; by then the raw history before them holds the climb, not the
 * quiet JVM before it, and the test of GC time against it may not decide. The job spends a
 * tenth of its time and more collecting a nearly full heap: that is the cause, named from the
 * first diagnosis on.
 */
class GcPressureSlowLeakTest {
  static final double NORMAL_MIN = 60;
  /** Minutes the leak takes to fill the heap. */
  static final double LEAK_MIN = 90;
  /** Minutes into the leak at which the checkpoints slow down. */
  static final double SLOWER_AFTER_MIN = 80;

  static FlinkJobSim.Scenario leak() {
    return (x, faultMs) -> {
      double level = Math.min(1, faultMs / (LEAK_MIN * 60_000));
      for (int m = 0; m < x.tms; m++) {
        x.gcMsPerS[m] += 190 * level * x.jitter();
        x.heap[m] = Math.min(0.99, x.heap[m] + (0.93 - 0.5) * level);
      }
      if (faultMs >= SLOWER_AFTER_MIN * 60_000) {
        x.durationMs = x.baseDurationMs * 2.5 * x.jitter();
      }
    };
  }

  @ParameterizedTest
  @ValueSource(longs = {18, 19, 20, 21})
  void gcTimeClimbingWithTheHeapOverAnHourIsNamedFirst(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 15, seed % 2 == 0);
    s.run(NORMAL_MIN, 0, (x, f) -> { });
    List<String> named = s.namedScrapeByScrape((int) ((SLOWER_AFTER_MIN + 10) * 4),
        leak());
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("gc_pressure");
    assertThat(sentences(d)).containsPattern("spends \\d+ ms/s in garbage collection")
        .containsPattern("\\d+ % full");
    assertThat(named).as("causes named scrape by scrape").containsOnly("gc_pressure");
  }
}
