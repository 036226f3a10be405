package dev.checkpointdoctor.api.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.pipeline.DetectorState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotStoreTest {
  private final Clock clock = Clock.fixed(Instant.parse("2026-12-02T10:00:00Z"), ZoneOffset.UTC);

  @Test
  void savesAtomicallyAndLoadsBack(@TempDir Path dir) throws Exception {
    SnapshotStore store = new SnapshotStore(dir, clock);
    DetectorState state = new DetectorState(1234L, 7, List.of(), List.of(),
        Map.of("job_a", 1000L));
    store.save(state);
    assertThat(dir.resolve(SnapshotStore.FILE + ".tmp")).doesNotExist();
    SnapshotStore.Loaded loaded = new SnapshotStore(dir, clock).load();
    assertThat(loaded.state().eventTimeMs()).isEqualTo(1234L);
    assertThat(loaded.state().nextAnomalyId()).isEqualTo(7);
    assertThat(loaded.state().lastSeenMs()).containsEntry("job_a", 1000L);
  }

  @Test
  void missingSnapshotStartsEmpty(@TempDir Path dir) throws Exception {
    SnapshotStore.Loaded loaded = new SnapshotStore(dir.resolve("fresh"), clock).load();
    assertThat(loaded.state().trackers()).isEmpty();
    assertThat(loaded.description()).contains("no snapshot");
  }

  @Test
  void corruptSnapshotIsSetAsideAndServiceStartsEmpty(@TempDir Path dir) throws Exception {
    SnapshotStore store = new SnapshotStore(dir, clock);
    store.save(new DetectorState(1L, 1, List.of(), List.of(), Map.of("j", 1L)));
    byte[] bytes = Files.readAllBytes(store.file());
    bytes[bytes.length - 3] ^= 0x5a;
    Files.write(store.file(), bytes);

    SnapshotStore.Loaded loaded = store.load();

    assertThat(loaded.state().lastSeenMs()).isEmpty();
    assertThat(loaded.description()).contains("set aside");
    Path aside = dir.resolve(SnapshotStore.FILE + ".corrupt-" + clock.millis());
    assertThat(aside).exists();
    assertThat(store.file()).doesNotExist();
  }
}
