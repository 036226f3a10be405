package dev.checkpointdoctor.detector.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabelsTest {
  @Test
  void internedSetsAreEqualAndShareTheirStrings() {
    // two series of one subtask, their label values decoded into separate String objects
    String attempt = "beef" + Integer.toHexString(0x1234_5678);
    Labels busy = Labels.of("__name__", "flink_taskmanager_job_task_busyTimeMsPerSecond",
        "task_attempt_id", new String(attempt), "subtask_index", new String("3"));
    Labels idle = Labels.of("__name__", "flink_taskmanager_job_task_idleTimeMsPerSecond",
        "task_attempt_id", new String(attempt), "subtask_index", new String("3"));
    assertThat(busy.get("task_attempt_id")).isNotSameAs(idle.get("task_attempt_id"));

    Labels a = busy.interned();
    Labels b = idle.interned();
    assertThat(a).isEqualTo(busy).hasSameHashCodeAs(busy);
    assertThat(a.toString()).isEqualTo(busy.toString());
    assertThat(a.get("task_attempt_id")).isSameAs(b.get("task_attempt_id"));
    assertThat(a.get("subtask_index")).isSameAs(b.get("subtask_index"));
    assertThat(a.name(1)).isSameAs(b.name(1));
  }
}
