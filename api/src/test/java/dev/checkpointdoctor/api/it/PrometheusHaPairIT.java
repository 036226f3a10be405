package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HA pair of real Prometheus 2.42 servers: both scrape the Flink-shaped target and
 * remote-write, their series differing in the external label {@code prometheus_replica}; both
 * carry {@code cluster: eu-1}. The service learns from the first replica heard, drops the
 * other's samples, and when the first is stopped fails over to the second. What it learns must
 * equal what the elected replica's stored samples until it stopped, then the other's, teach a
 * detector in timestamp order: no scrape lost, none learnt twice.
 */
class PrometheusHaPairIT {
  static final String JOB = "feas_rocksdb_job";
  static final String KEY = "eu-1/" + JOB;
  static final String SELECTOR = "{__name__=~\"flink_.+\"}";

  private PrometheusServer replica0;

  static String config(int flinkPort, int servicePort, String replica, boolean scrape) {
    String scrapes = scrape ? """
        scrape_configs:
          - job_name: flink
            static_configs:
              - targets: ['127.0.0.1:%d']
        remote_write:
          - url: http://127.0.0.1:%d/api/v1/write
            queue_config:
              max_shards: 2
              batch_send_deadline: 1s
              min_backoff: 50ms
              max_backoff: 1s
        """.formatted(flinkPort, servicePort) : "";
    return """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
          external_labels:
            cluster: eu-1
            prometheus_replica: %s
        """.formatted(replica) + scrapes;
  }

  @Test
  void theElectedReplicaIsLearnedAndAFailoverLosesAndDoublesNothing(@TempDir Path tmp)
      throws Exception {
    PrometheusServer.requireBinary();
    try (CheckpointDoctor service = TestService.start(tmp.resolve("data"),
            "--min-observations", "3", "--ha-replica-label", "prometheus_replica",
            "--ha-failover-timeout", "5s", "--job-identity-labels", "cluster");
        FlinkLikeMetricsServer flink = new FlinkLikeMetricsServer(PrometheusRemoteWriteIT.FIXTURE)) {
      Detector d = service.detector();
      List<InOrderReference.Sample> first;
      List<InOrderReference.Sample> second;
      try (PrometheusServer replica1 = startSecond(tmp, flink, service, d)) {
        first = stoppedFirst(tmp, flink, service, d, replica1);
        long failovers = d.stats().haFailovers();
        assertThat(failovers).isPositive();
        int before = PrometheusShardsIT.durations(d, KEY);
        Await.until("more checkpoints learnt from the second replica", Duration.ofSeconds(60),
            () -> PrometheusShardsIT.durations(d, KEY) >= before + 4);
        flink.close();
        Await.until("everything the second replica scraped sent and processed",
            Duration.ofSeconds(60), () -> d.stats().staleMarkers() > 0
                && InOrderReference.allSent(replica1) && service.worker().queuedSamples() == 0);
        second = InOrderReference.stored(replica1, SELECTOR, "10m");
        assertThat(d.stats().haFailovers()).isEqualTo(failovers); // no flapping
      }
      // the reference: the first replica's samples, then the second's after the first's last
      long cut = first.stream().mapToLong(InOrderReference.Sample::timestampMs).max()
          .orElseThrow();
      List<InOrderReference.Sample> elected = new ArrayList<>(first);
      second.stream().filter(s -> s.timestampMs() > cut).forEach(elected::add);
      Detector reference = InOrderReference.learn(elected,
          DetectorSettings.defaults().withMinObservations(3), DeliverySettings.defaults());
      assertThat(d.jobs()).extracting(j -> j.job()).containsExactly(KEY);
      assertThat(InOrderReference.baselines(d, KEY)).isNotEmpty()
          .isEqualTo(InOrderReference.baselines(reference, JOB));
      assertThat(d.stats().haStandby()).isPositive();
      assertThat(d.stats().outOfOrder() + d.stats().duplicate()).isZero();
      String metrics = Http.get(TestService.url(service, "/metrics")).body();
      assertThat(Http.metric(metrics, "checkpoint_doctor_detector_samples_dropped_total"
          + "{reason=\"ha_replica_standby\"}")).isPositive();
      assertThat(Http.metric(metrics, "checkpoint_doctor_ha_failovers_total")).isPositive();
    }
  }

  /** Starts replica 0, waits until the service learns from it, then starts replica 1. */
  private PrometheusServer startSecond(Path tmp, FlinkLikeMetricsServer flink,
      CheckpointDoctor service, Detector d) throws Exception {
    replica0 = PrometheusServer.start(tmp.resolve("prom0"),
        config(flink.port(), service.port(), "replica-0", true));
    Await.until("job learnt from replica 0", Duration.ofSeconds(60),
        () -> PrometheusShardsIT.durations(d, KEY) >= 2);
    PrometheusServer replica1 = PrometheusServer.start(tmp.resolve("prom1"),
        config(flink.port(), service.port(), "replica-1", true));
    Await.until("replica 1's samples dropped as standby", Duration.ofSeconds(60),
        () -> d.stats().haStandby() > 1000);
    return replica1;
  }

  /**
   * Stops replica 0 (it flushes what it has on the way out), waits for the failover, and reads
   * back what replica 0 stored by starting it again on its storage without scraping.
   */
  private List<InOrderReference.Sample> stoppedFirst(Path tmp, FlinkLikeMetricsServer flink,
      CheckpointDoctor service, Detector d, PrometheusServer replica1) throws Exception {
    Await.until("5 checkpoints learnt", Duration.ofSeconds(60),
        () -> PrometheusShardsIT.durations(d, KEY) >= 5);
    assertThat(d.stats().haFailovers()).isZero();
    replica0.close();
    Await.until("failover to replica 1", Duration.ofSeconds(60),
        () -> d.stats().haFailovers() > 0);
    try (PrometheusServer stored = PrometheusServer.start(tmp.resolve("prom0"),
        config(flink.port(), service.port(), "replica-0", false))) {
      return InOrderReference.stored(stored, SELECTOR, "10m");
    }
  }
}
