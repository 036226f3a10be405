package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A CPU quota that bites within a minute or two on a job whose kubelet is scraped every 60 s
 * beside Flink every 15 s (family 1 train seed 13 at {@code --load-rise 2
 * --exporter-scrape-seconds 60}): the first container sample after the bite shows a moderate
 * share, scraped just before the source's back-pressure begins, so it falls into the slice the
 * throttling is judged against and the present is padded with values from before it. One or
 * two samples that would decide a clean split then leave the test undecided while the
 * back-pressure is already significant. The throttling must be waited for, not overtaken.
 */
class CpuThrottlingUndecidedTest {
  /** Throttled share the quota ends at, above the container's usual ~2 %. */
  static final double RISE = 0.35;
  /** Minutes the quota takes to bite fully. */
  static final double RAMP_MIN = 2;
  /** The window subtasks fall behind and back-pressure their source this soon. */
  static final long PRESSED_AFTER_MS = 30_000L;

  @ParameterizedTest
  @CsvSource({"3,0", "3,1", "3,2", "3,3", "4,0", "4,1", "4,2", "4,3", "5,1", "6,2"})
  void rampingThrottlingSampledSparselyIsNotOvertakenByItsBackPressure(long seed, int phase) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 15, seed % 2 == 0);
    s.containerEvery = 4;
    s.run(NORMAL_MIN, 0, (x, f) -> { });
    for (int i = 0; i < phase; i++) {
      s.run(0, 0.25, (x, f) -> { }); // where the bite falls within the kubelet's minute
    }
    List<String> named = s.namedScrapeByScrape(4 * 10, (x, faultMs) -> {
      double level = Math.min(1, faultMs / (RAMP_MIN * 60_000));
      CpuQuota.bite(x, RISE * level, 1 + 2 * level, faultMs >= PRESSED_AFTER_MS);
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("cpu_throttling");
    assertThat(named).as("causes named scrape by scrape").doesNotContain("backpressure");
  }
}
