package dev.checkpointdoctor.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.bench.BodyFactory.Body;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import dev.checkpointdoctor.ingest.remotewrite.DecodedSeries;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the benchmark code still runs and produces what it claims (not its speed): bodies decode
 * to the fleet's series with increasing timestamps, and a short load run against the in-process
 * service is accepted in full and reaches the detector. The JMH module builds its bodies with the
 * same classes.
 */
class LoadSmokeTest {
  private static final long T0 = 1_796_000_000_000L;

  @Test
  void bodiesDecodeToDistinctFleetSeriesWithPerRoundTimestamps() {
    FlinkFleet fleet = new FlinkFleet(1, 2, 2);
    RemoteWriteDecoder all = new RemoteWriteDecoder(DecodeLimits.defaults(),
        MetricNameFilter.ACCEPT_ALL);
    BodyFactory factory = new BodyFactory();
    Set<Object> labelSets = new HashSet<>();
    int used = 0;
    SignalCatalog catalog = SignalCatalog.defaults();
    for (int round = 0; round < 2; round++) {
      List<Body> bodies = factory.round(fleet.series(), round, T0, 500);
      int samples = 0;
      for (Body b : bodies) {
        DecodedWrite w = all.decode(b.bytes(), 0, b.bytes().length);
        assertThat(w.sampleCount()).isEqualTo(b.samples()).isLessThanOrEqualTo(500);
        samples += w.sampleCount();
        for (DecodedSeries s : w.series()) {
          assertThat(s.timestamps()).containsExactly(T0 + round * BodyFactory.SCRAPE_INTERVAL_MS);
          if (round == 0) {
            labelSets.add(s.labels());
            used += catalog.ruleFor(s.labels().metricName()) != null ? 1 : 0;
          }
        }
      }
      assertThat(samples).isEqualTo(fleet.size());
    }
    assertThat(labelSets).hasSize(fleet.size());
    assertThat(used).isEqualTo(fleet.usedSeries()).isPositive().isLessThan(fleet.size() / 2);
  }

  @Test
  void theKeptLoadIsEveryUsedSeriesOfTheUnfilteredOne() {
    SampleFleet all = SampleFleet.unfiltered(2);
    SampleFleet kept = SampleFleet.kept(2, Path.of("..", "deploy", "prometheus",
        "remote-write.yml"));
    // the real scrapes: 819 Flink series and 505 node_exporter series per job and host
    assertThat(all.size()).isEqualTo(2 * (819 + 505));
    assertThat(kept.size()).isEqualTo(kept.usedSeries()).isEqualTo(all.usedSeries());
    // per job 68 Flink series, 12 disk series and 1 file system series of its host
    assertThat(kept.usedSeries()).isEqualTo(2 * 81);
    RemoteWriteDecoder decoder = new RemoteWriteDecoder(DecodeLimits.defaults(),
        SignalCatalog.defaults());
    Set<Object> jobs = new HashSet<>();
    for (Body b : new BodyFactory().round(kept.series(), 0, T0, 500)) {
      DecodedWrite w = decoder.decode(b.bytes(), 0, b.bytes().length);
      assertThat(w.unusedSampleCount()).isZero();
      for (DecodedSeries s : w.series()) {
        jobs.add(s.labels().get("job_name"));
      }
    }
    assertThat(jobs).contains("feas_rocksdb_job_0", "feas_rocksdb_job_1");
  }

  @Test
  void shortLoadRunIsAcceptedAndReachesTheDetector(@TempDir Path dir) throws Exception {
    FlinkFleet fleet = new FlinkFleet(1, 2, 2);
    LoadDriver.Workload w = LoadDriver.build(fleet, 3, 1, 2, 500, T0);
    CheckpointDoctor service = TestService.start(dir);
    LoadDriver.Result r;
    try {
      r = LoadDriver.run(w, "127.0.0.1", service.port(), "/api/v1/write", 30, () -> { });
    } finally {
      service.stop(); // drains everything accepted into the detector
    }
    assertThat(r.acceptedSamples()).isEqualTo(w.totalSamples()).isEqualTo(2L * fleet.size());
    assertThat(r.rejectedSamples()).isZero();
    assertThat(r.p99Micros()).isGreaterThanOrEqualTo(r.p50Micros()).isPositive();
    assertThat(service.detector().trackedSeries()).isEqualTo(fleet.usedSeries());
    assertThat(service.detector().stats().processed()).isEqualTo(3L * fleet.usedSeries());
  }

  @Test
  void heapAndLatencyProbesRun(@TempDir Path dir) throws Exception {
    long[] heap = HeapPerSeries.measure(2_000);
    assertThat(heap[0]).isEqualTo(2_000);
    assertThat(heap[2]).isPositive();
    long[] latency = AnomalyLatency.measure(1, dir);
    assertThat(latency[0]).isPositive();
  }
}
