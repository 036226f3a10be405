package dev.checkpointdoctor.api.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.eval.scenario.HistoryReader;
import dev.checkpointdoctor.eval.scenario.RecordedSample;
import dev.checkpointdoctor.eval.scenario.ScenarioManifest;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays every scenario of the corpus in {@code scenarios/} through {@code POST /api/v1/write}
 * of a fresh in-process service with default settings and judges it through the HTTP API: a
 * healthy control opens no anomaly; a fault opens none before it starts, has one open once the
 * history up to 15 minutes after its start has been sent (so it was detected within 15 minutes
 * of event time), and at the end the job's diagnosis names the expected cause.
 */
class ScenarioReplayTest {
  static final Path CORPUS = Path.of("..", "scenarios");
  static final long DETECTION_LIMIT_MS = 15 * 60_000L;

  @TempDir
  Path tmp;

  @TestFactory
  Stream<DynamicTest> everyScenario() throws Exception {
    List<ScenarioManifest.Entry> entries = ScenarioManifest.read(CORPUS);
    assertThat(entries).as("scenarios in " + CORPUS.toAbsolutePath()).isNotEmpty();
    return entries.stream().map(e -> DynamicTest.dynamicTest(e.name() + " (" + e.expected() + ")",
        () -> replay(e)));
  }

  private void replay(ScenarioManifest.Entry e) throws Exception {
    List<RecordedSample> samples = new ArrayList<>(
        new HistoryReader().read(CORPUS.resolve(e.file())));
    samples.sort(Comparator.comparingLong(RecordedSample::timestampMs));
    Path data = Files.createTempDirectory(tmp, e.name());
    try (CheckpointDoctor service = TestService.start(data)) {
      PrometheusLikeSender sender = new PrometheusLikeSender(service);
      if (e.healthy()) {
        sender.send(samples);
        assertThat(anomalies(service, e.job())).as("anomalies of healthy control " + e.name())
            .isEmpty();
        return;
      }
      long limit = e.faultStartMs() + DETECTION_LIMIT_MS;
      int cut = 0;
      while (cut < samples.size() && samples.get(cut).timestampMs() <= limit) {
        cut++;
      }
      sender.send(samples.subList(0, cut));
      List<JsonObject> early = anomalies(service, e.job());
      assertThat(early.stream().filter(a -> startedAt(a) < e.faultStartMs()))
          .as("anomalies started before the fault at " + Instant.ofEpochMilli(e.faultStartMs()))
          .isEmpty();
      assertThat(early).as("anomalies within 15 min of the fault at "
          + Instant.ofEpochMilli(e.faultStartMs())).isNotEmpty();
      sender.send(samples.subList(cut, samples.size()));
      JsonObject job = new JsonObject(Http.get(TestService.url(service, "/api/v1/jobs/"
          + e.job())).body());
      JsonObject diagnosis = job.getJsonObject("diagnosis");
      assertThat(diagnosis).as("diagnosis of " + e.job()).isNotNull();
      assertThat(diagnosis.getString("cause")).as("top cause of " + e.name() + ", ranked "
          + diagnosis.getJsonArray("causes")).isEqualTo(e.expected());
    }
  }

  private static List<JsonObject> anomalies(CheckpointDoctor service, String job) {
    var r = Http.get(TestService.url(service, "/api/v1/anomalies?job=" + job));
    assertThat(r.statusCode()).isEqualTo(200);
    JsonArray arr = new JsonObject(r.body()).getJsonArray("anomalies");
    List<JsonObject> out = new ArrayList<>();
    for (int i = 0; i < arr.size(); i++) {
      out.add(arr.getJsonObject(i));
    }
    return out;
  }

  private static long startedAt(JsonObject anomaly) {
    return Instant.parse(anomaly.getString("startedAt")).toEpochMilli();
  }
}
