package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus 2.42 remote-writing through four shards of 100 samples per request: one
 * scrape of the Flink-shaped target (about 1,500 series) travels in some fifteen requests sent
 * concurrently by four shards, so a job's series arrive interleaved across requests and scrapes.
 * What the service learns must equal what the same samples, read back from Prometheus' storage
 * and delivered in timestamp order, teach a detector.
 */
class PrometheusShardsIT {
  static final String JOB = "feas_rocksdb_job";

  @Test
  void fourShardsTeachWhatTheStoredSamplesInOrderTeach(@TempDir Path tmp) throws Exception {
    PrometheusServer.requireBinary();
    try (CheckpointDoctor service = TestService.start(tmp.resolve("data"),
            "--min-observations", "3");
        FlinkLikeMetricsServer flink = new FlinkLikeMetricsServer(PrometheusRemoteWriteIT.FIXTURE)) {
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
                min_shards: 4
                max_shards: 4
                max_samples_per_send: 100
                capacity: 500
                batch_send_deadline: 1s
                min_backoff: 50ms
                max_backoff: 1s
          """.formatted(flink.port(), service.port());
      try (PrometheusServer prometheus = PrometheusServer.start(tmp.resolve("prom"), config)) {
        Await.until("12 checkpoint durations learnt", Duration.ofSeconds(120),
            () -> durations(service.detector(), JOB) >= 12);
        String self = Http.get("http://127.0.0.1:" + prometheus.port() + "/metrics").body();
        assertThat(self).contains("prometheus_remote_storage_shards{");
        assertThat(self.lines().filter(l -> l.startsWith("prometheus_remote_storage_shards{"))
            .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum())
            .isEqualTo(4);
        flink.close(); // the job goes away: stale markers end its series
        Await.until("everything scraped sent and processed", Duration.ofSeconds(60),
            () -> service.detector().stats().staleMarkers() > 0
                && InOrderReference.allSent(prometheus)
                && service.worker().queuedSamples() == 0);
        Detector reference = InOrderReference.learn(InOrderReference.stored(prometheus,
                "{__name__=~\"flink_.+\"}", "10m"),
            DetectorSettings.defaults().withMinObservations(3), DeliverySettings.defaults());
        assertThat(InOrderReference.baselines(service.detector(), JOB))
            .isNotEmpty()
            .isEqualTo(InOrderReference.baselines(reference, JOB));
        assertThat(service.detector().lateFrameSamples()).isZero();
      }
    }
  }

  static int durations(Detector d, String job) {
    return d.baselines(job).stream().filter(b -> b.signal() == Signal.CHECKPOINT_DURATION)
        .mapToInt(BaselineSummary::observations).findFirst().orElse(0);
  }
}
