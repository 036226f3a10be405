package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/causes/README.md tells users the recent window the rules really use. */
class CausesReadmeTest {
  @Test
  void theRecentWindowInTheDocsIsTheOneInTheCode() throws Exception {
    String readme = Files.readString(Path.of("..", "docs", "causes", "README.md"))
        .replaceAll("\\s+", " ");
    assertThat(readme).contains("(at least the last " + JobEvidence.MIN_RECENT_MS / 60_000
        + " min, at most the last " + JobEvidence.MAX_RECENT_MS / 60_000 + " min)");
  }
}
