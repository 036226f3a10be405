package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with a real Prometheus 2.42: it scrapes a Flink-shaped {@code /metrics} (built from
 * a real Flink 1.20.3 scrape, values moving) every second and remote-writes to the service.
 */
class PrometheusRemoteWriteIT {
  static final Path FIXTURE =
      Path.of("..", "detector", "src", "test", "resources", "scrapes",
          "flink-1.20.3-metrics-sample.txt");

  @Test
  void jobAndSignalsArriveThroughRealPrometheus(@TempDir Path tmp) throws Exception {
    PrometheusServer.requireBinary();
    try (CheckpointDoctor service = TestService.start(tmp.resolve("data"),
            "--min-observations", "3");
        FlinkLikeMetricsServer flink = new FlinkLikeMetricsServer(FIXTURE)) {
      String config = """
          global:
            scrape_interval: 1s
            scrape_timeout: 1s
          scrape_configs:
            - job_name: flink
              static_configs:
                - targets: ['127.0.0.1:%d']
          remote_write:
            - url: http://127.0.0.1:%d/api/v1/write
              queue_config:
                batch_send_deadline: 1s
                min_backoff: 50ms
                max_backoff: 1s
          """.formatted(flink.port(), service.port());
      try (PrometheusServer prometheus = PrometheusServer.start(tmp.resolve("prom"), config)) {
        JsonObject job = Await.until("job feas_rocksdb_job with checkpoint signals",
            Duration.ofSeconds(90), () -> {
              JsonArray jobs = new JsonObject(Http.get(TestService.url(service, "/api/v1/jobs"))
                  .body()).getJsonArray("jobs");
              for (int i = 0; i < jobs.size(); i++) {
                JsonObject j = jobs.getJsonObject(i);
                Set<Object> signals = new HashSet<>(j.getJsonArray("signals").getList());
                if (j.getString("job").equals("feas_rocksdb_job")
                    && signals.contains("checkpoint_duration")
                    && signals.contains("checkpoint_age")
                    && signals.contains("backpressure")) {
                  return j;
                }
              }
              return null;
            });
        assertThat(job.getString("status")).isIn("learning", "ok");
        assertThat(job.getString("lastSeen")).endsWith("Z");

        // One observation per completed checkpoint: the fixture completes one every 2 scrapes.
        JsonObject duration = Await.until("3 checkpoint_duration observations",
            Duration.ofSeconds(60), () -> {
              JsonArray b = new JsonObject(Http.get(TestService.url(service,
                  "/api/v1/jobs/feas_rocksdb_job/baselines")).body()).getJsonArray("baselines");
              for (int i = 0; i < b.size(); i++) {
                JsonObject o = b.getJsonObject(i);
                if (o.getString("signal").equals("checkpoint_duration")
                    && o.getInteger("observations") >= 3) {
                  return o;
                }
              }
              return null;
            });
        assertThat(duration.getString("scope")).isEqualTo("job");
        assertThat(duration.getInteger("observations"))
            .isLessThanOrEqualTo(flink.scrapes() / 2 + 2);

        String metrics = Http.get(TestService.url(service, "/metrics")).body();
        assertThat(Http.metric(metrics, "checkpoint_doctor_samples_accepted_total"))
            .isGreaterThan(0);
        // Prometheus adds up, scrape_* and the fixture has hundreds of unused Flink metrics.
        assertThat(Http.metric(metrics,
            "checkpoint_doctor_samples_dropped_total{reason=\"unused_metric\"}"))
            .isGreaterThan(0);
        assertThat(Http.metric(metrics,
            "checkpoint_doctor_http_requests_total{code=\"204\",route=\"/api/v1/write\"}"))
            .isGreaterThan(0);
        assertThat(Http.metric(metrics, "checkpoint_doctor_tracked_series")).isGreaterThan(10);
      }
    }
  }
}
