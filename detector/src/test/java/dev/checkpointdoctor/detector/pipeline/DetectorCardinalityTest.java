package dev.checkpointdoctor.detector.pipeline;

import static dev.checkpointdoctor.detector.pipeline.DetectorTest.jobGauge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.Labels;
import org.junit.jupiter.api.Test;

class DetectorCardinalityTest {
  static Labels taskGauge(String job, int subtask) {
    return Labels.of("__name__", "flink_taskmanager_job_task_busyTimeMsPerSecond", "job", "flink",
        "job_name", job, "subtask_index", Integer.toString(subtask), "task_name", "map");
  }

  @Test
  void newSeriesOverThePerJobLimitAreDroppedAndCountedOthersKeepWorking() {
    Detector d = new Detector(SignalCatalog.defaults(), DetectorTest.SETTINGS);
    d.limitSeries(100, 3);
    for (int i = 0; i < 5; i++) {
      d.accept(taskGauge("a", i), new long[] {1000, 2000}, new double[] {1, 2});
    }
    d.accept(taskGauge("b", 0), new long[] {1000}, new double[] {1});
    d.endBatch();
    assertThat(d.trackedSeries()).isEqualTo(4);
    assertThat(d.stats().cardinalityLimit()).isEqualTo(4);
    assertThat(d.stats().processed()).isEqualTo(7);
    // A series tracked before the limit was hit still takes samples.
    d.accept(taskGauge("a", 0), new long[] {3000}, new double[] {3});
    assertThat(d.stats().processed()).isEqualTo(8);
  }

  @Test
  void theTotalLimitAppliesAcrossJobs() {
    Detector d = new Detector(SignalCatalog.defaults(), DetectorTest.SETTINGS);
    d.limitSeries(2, 100);
    d.accept(jobGauge("lastCheckpointDuration", "a"), new long[] {1}, new double[] {1});
    d.accept(jobGauge("lastCheckpointDuration", "b"), new long[] {1}, new double[] {1});
    d.accept(jobGauge("lastCheckpointDuration", "c"), new long[] {1, 2}, new double[] {1, 2});
    d.endBatch();
    assertThat(d.trackedSeries()).isEqualTo(2);
    assertThat(d.stats().cardinalityLimit()).isEqualTo(2);
  }

  @Test
  void unlimitedByDefault() {
    Detector d = new Detector(SignalCatalog.defaults(), DetectorTest.SETTINGS);
    for (int i = 0; i < 1000; i++) {
      d.accept(taskGauge("a", i), new long[] {1000}, new double[] {1});
    }
    d.endBatch();
    assertThat(d.trackedSeries()).isEqualTo(1000);
    assertThat(d.stats().cardinalityLimit()).isZero();
  }
}
