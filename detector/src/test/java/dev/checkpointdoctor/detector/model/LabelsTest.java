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

  @Test
  void setsWithTheSameNamesShareOneArrayOfThem() {
    // as a decoder builds them: every series its own arrays of freshly decoded strings
    Labels busy = Labels.of(new String[] {new String("__name__"), new String("subtask_index")},
        new String[] {"flink_taskmanager_job_task_busyTimeMsPerSecond", "3"});
    Labels idle = Labels.of(new String[] {new String("__name__"), new String("subtask_index")},
        new String[] {"flink_taskmanager_job_task_idleTimeMsPerSecond", "3"});
    Labels other = Labels.of("__name__", "flink_taskmanager_job_task_idleTimeMsPerSecond",
        "task_index", "3");

    assertThat(busy.sharesNamesWith(idle)).isTrue();
    assertThat(busy.interned().sharesNamesWith(idle)).isTrue();
    assertThat(busy.sharesNamesWith(other)).isFalse();
    assertThat(busy.name(1)).isSameAs("subtask_index".intern());
    assertThat(busy).isNotEqualTo(idle);
    assertThat(busy.get("__name__")).isEqualTo("flink_taskmanager_job_task_busyTimeMsPerSecond");
    assertThat(other.get("task_index")).isEqualTo("3");
    assertThat(other.get("subtask_index")).isNull();
  }
}
