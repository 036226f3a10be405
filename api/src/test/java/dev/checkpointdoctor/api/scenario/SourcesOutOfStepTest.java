package dev.checkpointdoctor.api.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.eval.scenario.HistoryReader;
import dev.checkpointdoctor.eval.scenario.RecordedSample;
import dev.checkpointdoctor.detector.model.Labels;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reproduction of issue 17: one node_exporter request stamped later than a Flink job's
 * scrapes arrives first (one Prometheus shard, server or federation path ahead of another), then
 * 60 scrapes of a real Flink 1.20.3 job a month earlier, one completed checkpoint per scrape, in
 * requests of 500 samples as Prometheus sends them. The job must learn every per-checkpoint
 * signal from its own scrapes, whatever other sources' timestamps say.
 */
class SourcesOutOfStepTest {
  static final Path NODE_BODY = Path.of("..", "ingest", "src", "test", "resources",
      "remotewrite", "prometheus-2.42-remote-write-sample.bin");
  static final Path FLINK_SCRAPE = Path.of("..", "detector", "src", "test", "resources",
      "scrapes", "flink-1.20.3-metrics-sample.txt");
  static final String JOB = "feas_rocksdb_job";
  /** The node body is stamped 1796210595122 (2026-12-01); the Flink scrapes a month earlier. */
  static final long FLINK_T0 = 1_796_210_595_122L - 30L * 24 * 3600 * 1000;
  static final int SCRAPES = 60;

  @TempDir
  Path tmp;

  @Test
  void aJobLearnsEveryPerCheckpointSignalWhenAnotherSourceRunsAhead() throws Exception {
    try (CheckpointDoctor service = TestService.start(tmp.resolve("data"))) {
      byte[] node = Files.readAllBytes(resolve(NODE_BODY));
      assertThat(Http.post(TestService.url(service, "/api/v1/write"), node,
          Http.remoteWriteHeaders()).statusCode()).isEqualTo(204);
      List<RecordedSample> scrapes = flinkScrapes();
      new PrometheusLikeSender(service).send(scrapes);
      long requests = 1 + (scrapes.size() + PrometheusLikeSender.MAX_SAMPLES - 1)
          / PrometheusLikeSender.MAX_SAMPLES; // the sender counts its own requests only
      Await.until("all requests processed", Duration.ofSeconds(60),
          () -> service.worker().processedRequests() >= requests ? true : null);

      JsonArray baselines = new JsonObject(Http.get(TestService.url(service,
          "/api/v1/jobs/" + JOB + "/baselines")).body()).getJsonArray("baselines");
      Map<String, Integer> observations = new HashMap<>();
      for (int i = 0; i < baselines.size(); i++) {
        JsonObject b = baselines.getJsonObject(i);
        if (b.getString("scope").equals("job")) {
          observations.put(b.getString("signal"), b.getInteger("observations"));
        }
      }
      // one per completed checkpoint (the first look reports the last completion once), and
      // one per scrape: every scrape's JobManager series arrived, so every frame is complete
      for (String signal : List.of("checkpoint_duration", "checkpoint_size",
          "checkpoint_full_size", "checkpoint_persisted_data", "checkpoint_age",
          "checkpoint_in_progress", "checkpoint_failures")) {
        assertThat(observations.get(signal)).as(signal).isEqualTo(SCRAPES);
      }
      // the share of time checkpointing: from the fifth completion seen advancing on
      assertThat(observations.get("checkpoint_busy_share")).isEqualTo(SCRAPES - 5);
      String metrics = Http.get(TestService.url(service, "/metrics")).body();
      assertThat(Http.metric(metrics,
          "checkpoint_doctor_samples_without_signal_total{reason=\"late_frame\"}")).isZero();
    }
  }

  /** 60 scrapes 10 s apart; each completes one more checkpoint with its own duration and size. */
  private List<RecordedSample> flinkScrapes() throws Exception {
    List<String> lines = Files.readAllLines(FLINK_SCRAPE);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < SCRAPES; i++) {
      long ts = FLINK_T0 + i * 10_000L;
      for (String line : lines) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int space = line.lastIndexOf(' ');
        String series = line.substring(0, space);
        String value = line.substring(space + 1);
        String name = series.substring(0, series.indexOf('{') < 0 ? series.length()
            : series.indexOf('{'));
        value = switch (name) {
          case "flink_jobmanager_job_lastCompletedCheckpointId",
              "flink_jobmanager_job_numberOfCompletedCheckpoints" -> Integer.toString(27 + i);
          case "flink_jobmanager_job_lastCheckpointDuration" -> Integer.toString(200 + i % 7);
          case "flink_jobmanager_job_lastCheckpointSize" -> Integer.toString(400_000 + i);
          case "flink_jobmanager_job_lastCheckpointFullSize" -> Integer.toString(9_500_000 + i);
          default -> value;
        };
        text.append(series).append(' ').append(value).append(' ').append(ts).append('\n');
      }
    }
    Path file = tmp.resolve("flink.prom");
    Files.writeString(file, text);
    List<RecordedSample> samples = new ArrayList<>();
    for (RecordedSample s : new HistoryReader().read(file)) {
      // a scrape drops labels with empty values (Flink exports host="" on some series)
      Map<String, String> labels = new java.util.TreeMap<>(s.labels().toMap());
      labels.values().removeIf(String::isEmpty);
      samples.add(new RecordedSample(Labels.fromMap(labels), s.timestampMs(), s.value()));
    }
    return samples; // in timestamp order: scrape after scrape
  }

  private static Path resolve(Path p) {
    return p.toAbsolutePath().normalize();
  }
}
