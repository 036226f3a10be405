package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CauseTest {
  /** The module's tests run in detector/; the docs live at the repository root. */
  static final Path ROOT = Path.of("..");

  @Test
  void idsAreExactlyTheOnesTheApiAndAlertsUse() {
    assertThat(Arrays.stream(Cause.values()).map(Cause::id)).containsExactly(
        "disk_throttling", "local_disk_slow", "state_growth", "backpressure", "unaligned_checkpoint_inflation",
        "rocksdb_write_stall", "gc_pressure", "checkpoint_storage_slow", "data_skew",
        "cpu_throttling", "checkpoint_interval_too_short", "unknown");
  }

  @Test
  void everyCauseHasARemedyAndARunbookPageThatExists() throws IOException {
    for (Cause c : Cause.values()) {
      assertThat(c.remedy()).as(c.id()).isNotBlank();
      Path page = ROOT.resolve(c.docsUrl());
      assertThat(page).as(c.id()).exists();
      String text = Files.readString(page);
      assertThat(text).as(c.id()).startsWith("# " + c.id() + " ");
      if (c != Cause.UNKNOWN) {
        assertThat(text).as(c.id()).contains("## The signature Checkpoint Doctor looks for",
            "## How to confirm", "## Remedy", "## Blind spots");
      }
    }
  }

  @Test
  void storageAndFailurePagesCallLeaseExpiredASymptom() throws IOException {
    for (Cause c : Cause.values()) {
      String text = Files.readString(ROOT.resolve(c.docsUrl()));
      assertThat(text).as(c.id()).contains("LeaseExpiredException")
          .containsPattern("symptom of the expiry");
    }
  }
}
