package dev.checkpointdoctor.api.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unusable data directory stops the start with the reason; one that breaks later makes the
 * service unready and is counted, and it recovers when the directory does.
 */
class DataDirTest {
  static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void anUnusableDataDirFailsTheStartWithItsReason(@TempDir Path tmp) throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    assertThatThrownBy(() -> TestService.start(file)).hasMessage(
        "--data-dir " + file + " is not usable: it exists and is not a directory");
    assertThatThrownBy(() -> TestService.start(file.resolve("sub"))).hasMessage(
        "--data-dir " + file.resolve("sub") + " is not usable: cannot create it: "
            + "not a directory");
    assertThatThrownBy(() -> TestService.start(Path.of("/proc/checkpoint-doctor")))
        .hasMessage("--data-dir /proc/checkpoint-doctor is not usable: cannot create it: "
            + "no such file or directory");
  }

  @Test
  void failingSnapshotsMakeTheServiceUnreadyAreCountedAndRecover(@TempDir Path tmp)
      throws Exception {
    Path data = tmp.resolve("data");
    try (CheckpointDoctor s = TestService.start(data, "--snapshot-interval", "200ms")) {
      Await.until("a first snapshot", WAIT, () -> Files.exists(data.resolve("state.snapshot")));
      assertThat(Http.get(TestService.url(s, "/readyz")).statusCode()).isEqualTo(200);

      // The directory goes away and a file takes its place: every snapshot now fails.
      Files.move(data, tmp.resolve("moved-away"));
      Files.writeString(data, "not a directory");
      HttpResponse<String> unready = Await.until("/readyz answering 503", WAIT, () -> {
        HttpResponse<String> r = Http.get(TestService.url(s, "/readyz"));
        return r.statusCode() == 503 ? r : null;
      });
      assertThat(new JsonObject(unready.body()).getString("reason"))
          .startsWith("snapshot to " + data.resolve("state.snapshot") + " failed: ");
      String metrics = Http.get(TestService.url(s, "/metrics")).body();
      assertThat(Http.metric(metrics, "checkpoint_doctor_snapshot_failures_total"))
          .isGreaterThanOrEqualTo(1);

      Files.delete(data);
      Await.until("/readyz ready again", WAIT,
          () -> Http.get(TestService.url(s, "/readyz")).statusCode() == 200);
      String after = Http.get(TestService.url(s, "/metrics")).body();
      assertThat(Http.metric(after, "checkpoint_doctor_snapshots_written_total"))
          .isGreaterThanOrEqualTo(2);
      assertThat(Http.metric(after, "checkpoint_doctor_snapshot_last_success_timestamp_seconds"))
          .isPositive();
    }
  }
}
