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
 * A CPU quota that bites at once on a job whose kubelet is scraped four times less often than
 * Flink (15 s against 60 s): the throttled share leaves its band at the first container scrape
 * after the quota bites, and the tasks back-pressure their source within a minute, so the
 * back-pressure has a handful of Flink scrapes to be tested on while the throttling has one or
 * two samples, too few for any test to decide. Back-pressure must not be named meanwhile.
 */
class CpuThrottlingSparseScrapeTest {
  /** The throttled share under the quota, against the container's usual ~2 %. */
  static final double THROTTLED = 0.5;
  /** The window subtasks fall behind and back-pressure their source this soon. */
  static final long PRESSED_AFTER_MS = 30_000L;

  @ParameterizedTest
  @ValueSource(longs = {3, 4, 5, 6})
  void throttlingSampledSparselyIsWaitedForNotOvertakenByItsBackPressure(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 15, seed % 2 == 0);
    s.containerEvery = 4;
    s.run(NORMAL_MIN, 0, (x, f) -> { });
    List<String> named = s.namedScrapeByScrape(4 * 10,
        (x, faultMs) -> CpuQuota.bite(x, THROTTLED, 3, faultMs >= PRESSED_AFTER_MS));
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("cpu_throttling");
    assertThat(named).as("causes named scrape by scrape").doesNotContain("backpressure");
  }
}
