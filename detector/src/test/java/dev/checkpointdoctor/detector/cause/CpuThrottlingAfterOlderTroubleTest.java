package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checkpoints that began to run longer half an hour before a CPU quota bites (family 1 train
 * seed 10 at {@code --load-rise 2 --exporter-scrape-seconds 60}): their anomaly stays open and
 * dates the job's trouble, so the present the throttled share is judged on holds half an hour
 * of normal shares. The kubelet is scraped every 60 s beside Flink every 15 s. The throttling
 * must be named within minutes of the bite, judged on the shares since it left its own range,
 * and the back-pressure it causes never before it.
 */
class CpuThrottlingAfterOlderTroubleTest {
  /** Minutes the checkpoints run longer before the quota bites. */
  static final double SLOWER_FOR_MIN = 30;
  /** Throttled share under the quota, above the container's usual ~2 %. */
  static final double THROTTLED = 0.3;
  /** The window subtasks fall behind and back-pressure their source this soon. */
  static final long PRESSED_AFTER_MS = 60_000L;

  @ParameterizedTest
  @ValueSource(longs = {3, 5, 6, 7})
  void throttlingAfterAnOlderAnomalyIsNamedFromItsOwnRise(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 15, seed % 2 == 0);
    s.containerEvery = 4;
    s.intervalMs = 180_000; // room for longer checkpoints without running back to back
    s.run(NORMAL_MIN, SLOWER_FOR_MIN, (x, f) -> slower(x));
    assertThat(s.detector.diagnosis(s.job)).as("the older trouble is open").isPresent();
    List<String> named = s.namedScrapeByScrape(4 * 12, (x, faultMs) -> {
      slower(x);
      CpuQuota.bite(x, THROTTLED, 3, faultMs >= PRESSED_AFTER_MS);
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("cpu_throttling");
    assertThat(named).as("causes named scrape by scrape").doesNotContain("backpressure");
  }

  private static void slower(FlinkJobSim x) {
    x.durationMs = x.durationMs * 2;
  }
}
