package dev.checkpointdoctor.api.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The recordings of real Flink runs in lab/recordings (lab/README.md) replay offline to the cause
 * the live run was diagnosed and alerted with. {@code flink2-*} are the same scenarios on Flink
 * 2.3.0 (-Pflink2), whose exposition differs (e.g. lastCheckpointCompletedTimestamp).
 */
class LabRecordingReplayTest {

  @ParameterizedTest
  @CsvSource({
      "backpressure, backpressure",
      "state_growth, state_growth",
      "checkpoint_storage_slow, checkpoint_storage_slow",
      "gc_pressure, gc_pressure",
      "flink2-backpressure, backpressure",
      "flink2-state_growth, state_growth",
      "flink2-checkpoint_storage_slow, checkpoint_storage_slow",
      "flink2-gc_pressure, gc_pressure"})
  void replayOfTheLiveRunNamesItsCause(String recording, String cause) throws Exception {
    OfflineReplay replay = new OfflineReplay(DetectorSettings.defaults().withMinObservations(5));
    replay.replayFiles(List.of(Path.of("..", "lab", "recordings", recording + ".prom.gz")));
    List<String> causes = replay.events().stream()
        .filter(e -> e.kind() == TimelineEvent.Kind.DIAGNOSIS_CHANGED && e.after() != null)
        .map(e -> e.after().cause()).filter(Objects::nonNull).toList();
    assertThat(causes).as("diagnoses of %s", recording).contains(cause);
  }
}
