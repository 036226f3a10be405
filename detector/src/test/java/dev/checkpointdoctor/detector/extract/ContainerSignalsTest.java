package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.Feed.J;
import static dev.checkpointdoctor.detector.extract.Feed.S;
import static dev.checkpointdoctor.detector.extract.Feed.T0;
import static dev.checkpointdoctor.detector.extract.Feed.raw;
import static dev.checkpointdoctor.detector.extract.Feed.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ContainerSignals}: cAdvisor CFS throttling, joined by pod name or alias. */
class ContainerSignalsTest {
  static final String P = "container_cpu_cfs_periods_total";
  static final String TH = "container_cpu_cfs_throttled_periods_total";

  @Test
  void cpuThrottlingJoinedViaPodNameOrAlias() {
    Feed f = new Feed(DetectorSettings.defaults().withHostAliases(Map.of("tm-pod-x",
        "worker_9")));
    String[] pod = {"pod", "flink-taskmanager-1-1", "container", "flink-main-container",
        "namespace", "ns"};
    String[] aliased = {"pod", "tm-pod-x", "container", "c"};
    String[] pause = {"pod", "flink-taskmanager-1-1", "container", "POD"};
    long t1 = T0 + 10 * S;
    long t2 = t1 + 10 * S;
    long[] t = {T0, t1, t2};
    for (long ts : t) {
      f.put(task("busyTimeMsPerSecond", "map", 0, ts, 1, "flink_taskmanager_1_1", null),
          task("busyTimeMsPerSecond", "map", 1, ts, 1, "other_tm", "worker_9"));
    }
    f.take(Signal.BUSY);
    f.batch(raw(P, T0, 1000, pod), raw(TH, T0, 100, pod), raw(P, T0, 50, aliased),
        raw(TH, T0, 0, aliased), raw(P, T0, 5, pause), raw(TH, T0, 5, pause));
    // periods and throttled periods of one scrape in any order
    f.batch(raw(TH, t1, 125, pod), raw(P, t1, 1100, pod), raw(P, t1, 90, aliased),
        raw(TH, t1, 10, aliased), raw(P, t1, 9, pause), raw(TH, t1, 9, pause));
    f.batch(raw(P, t2, 1100, pod), raw(TH, t2, 125, pod)); // no periods elapsed: skipped
    assertThat(f.out).containsExactly(
        // (125 - 100) / (1100 - 1000) = 0.25
        new Observation(J, Signal.CPU_THROTTLING,
            "container:flink-taskmanager-1-1/flink-main-container", t1, 0.25, "pod_tm_id"),
        // (10 - 0) / (90 - 50) = 0.25
        new Observation(J, Signal.CPU_THROTTLING, "container:tm-pod-x/c", t1, 0.25, "config"));
    assertThat(f.x.ignoredSamples()).isEqualTo(4); // the pause container
    assertThat(f.x.unjoinedSamples()).isZero();
  }

  @Test
  void aPodNoJobRunsInIsCountedUnjoinedPerSample() {
    Feed f = new Feed();
    String[] pod = {"pod", "someone-else", "container", "app"};
    f.batch(raw(P, T0, 1000, pod), raw(TH, T0, 100, pod));
    f.batch(raw(P, T0 + 10 * S, 1100, pod), raw(TH, T0 + 10 * S, 125, pod),
        task("busyTimeMsPerSecond", "map", 0, T0 + 10 * S, 1, "tm_1", "w1"));
    f.take(Signal.BUSY);
    assertThat(f.out).isEmpty();
    assertThat(f.x.unjoinedSamples()).isEqualTo(4);
  }
}
