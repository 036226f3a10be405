package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class DetectorTest {
  static final long T0 = 1_796_000_000_000L;
  static final DetectorSettings SETTINGS = DetectorSettings.defaults().withMinObservations(5);

  static Labels jobGauge(String metric, String job) {
    return Labels.of("__name__", "flink_jobmanager_job_" + metric, "job", "flink",
        "job_id", "0123456789abcdef0123456789abcdef", "job_name", job);
  }

  /** One scrape of one job: checkpoint {@code id} completed and took {@code durationMs}. */
  static void scrape(Detector d, String job, long ts, long id, double durationMs) {
    d.accept(jobGauge("lastCheckpointDuration", job), new long[] {ts}, new double[] {durationMs});
    d.accept(jobGauge("lastCompletedCheckpointId", job), new long[] {ts}, new double[] {id});
    d.accept(jobGauge("numberOfFailedCheckpoints", job), new long[] {ts}, new double[] {0});
    d.accept(jobGauge("numberOfInProgressCheckpoints", job), new long[] {ts}, new double[] {0});
    d.endBatch();
  }

  static BaselineSummary duration(Detector d, String job) {
    return d.baselines(job).stream().filter(b -> b.signal() == Signal.CHECKPOINT_DURATION)
        .findFirst().orElseThrow();
  }

  @Test
  void outOfOrderAndDuplicateSamplesAreDroppedAndCounted() {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    Labels l = jobGauge("lastCheckpointDuration", "j");
    d.accept(l, new long[] {2000, 1000, 2000, 3000}, new double[] {1, 2, 3, 4});
    assertThat(d.stats().processed()).isEqualTo(2);
    assertThat(d.stats().outOfOrder()).isEqualTo(1);
    assertThat(d.stats().duplicate()).isEqualTo(1);
    assertThat(d.eventTimeMs()).isEqualTo(3000);
  }

  @Test
  void staleMarkerEndsTheSeriesWithoutBeingAValue() {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    Labels l = jobGauge("lastCheckpointDuration", "j");
    double stale = Double.longBitsToDouble(Detector.STALE_NAN_BITS);
    d.accept(l, new long[] {1000, 2000}, new double[] {500, stale});
    assertThat(d.stats().staleMarkers()).isEqualTo(1);
    assertThat(d.stats().processed()).isEqualTo(1);
    // An ordinary NaN is a value (and is skipped by extraction), not the end of the series.
    d.accept(l, new long[] {3000}, new double[] {Double.NaN});
    assertThat(d.stats().staleMarkers()).isEqualTo(1);
  }

  @Test
  void nodeSamplesNoJobRunsOnAreHeldForTheDeliveryLagThenCountedAsUnjoined() {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    Labels disk = Labels.of("__name__", "node_disk_writes_completed_total", "device", "vda",
        "instance", "lonely-host:9100", "job", "node");
    d.accept(disk, new long[] {1000, 2000}, new double[] {10, 20});
    d.endBatch();
    assertThat(d.stats().processed()).isEqualTo(2);
    // no Flink series tell yet whether a job ran there: the samples wait, counted as pending
    assertThat(d.pendingSamples()).isEqualTo(2);
    assertThat(d.unjoinedSamples()).isZero();
    d.accept(disk, new long[] {302_001}, new double[] {30}); // over 5 min (the delivery lag) on
    d.endBatch();
    assertThat(d.unjoinedSamples()).isEqualTo(2);
    assertThat(d.pendingSamples()).isEqualTo(1);
    assertThat(d.baselineCount()).isZero();
  }

  @Test
  void aJobLearnsFromItsOwnScrapesWhileAnotherSourceIsAMonthAhead() {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    long ahead = T0 + 30L * 24 * 3600 * 1000;
    d.accept(Labels.of("__name__", "node_disk_writes_completed_total", "device", "vda",
        "instance", "n:9100", "job", "node"), new long[] {ahead}, new double[] {1});
    d.endBatch();
    for (int i = 0; i < 10; i++) { // a checkpoint every scrape, each in two requests
      long ts = T0 + i * 10_000L;
      d.accept(jobGauge("lastCompletedCheckpointId", "j"), new long[] {ts}, new double[] {1 + i});
      d.accept(jobGauge("numberOfFailedCheckpoints", "j"), new long[] {ts}, new double[] {0});
      d.endBatch();
      d.accept(jobGauge("lastCheckpointDuration", "j"), new long[] {ts}, new double[] {1000});
      d.accept(jobGauge("numberOfInProgressCheckpoints", "j"), new long[] {ts}, new double[] {0});
      d.endBatch();
    }
    // one per checkpoint: every scrape after the first is complete once its four series are in
    assertThat(duration(d, "j").observations()).isEqualTo(10);
    assertThat(d.lateFrameSamples()).isZero();
  }

  @Test
  void unusedMetricIsCountedNotTracked() {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    d.accept(Labels.of("__name__", "up", "job", "x"), new long[] {1, 2}, new double[] {1, 1});
    assertThat(d.stats().unusedMetric()).isEqualTo(2);
    assertThat(d.trackedSeries()).isZero();
  }

  @Test
  void oneObservationPerCompletedCheckpointThenAnAnomalyOnASustainedShift() {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    for (int i = 0; i < 10; i++) {
      scrape(d, "j", T0 + i * 10_000L, 1 + i / 2, 1000); // a checkpoint every second scrape
    }
    assertThat(duration(d, "j").observations()).isEqualTo(5);
    assertThat(d.jobs()).extracting(JobSummary::status).containsExactly("ok");
    for (int i = 10; i < 16; i++) {
      scrape(d, "j", T0 + i * 10_000L, 1 + i / 2, 3000); // 3x, new checkpoint every 2 scrapes
    }
    List<Anomaly> open = d.anomalies("j", true, Long.MIN_VALUE);
    assertThat(open).hasSize(1);
    Anomaly a = open.get(0);
    assertThat(a.signal()).isEqualTo(Signal.CHECKPOINT_DURATION);
    assertThat(a.scope()).isEqualTo("job");
    assertThat(a.observed()).isEqualTo(3000);
    assertThat(a.expected()).isEqualTo(1000);
    assertThat(d.jobs().get(0).status()).isEqualTo("anomalous");
  }

  @Test
  void snapshotRoundTripRestoresBaselinesAndAnomalies() throws IOException {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    for (int i = 0; i < 16; i++) {
      scrape(d, "j", T0 + i * 10_000L, 1 + i / 2, i < 10 ? 1000 : 3000);
    }
    byte[] bytes = DetectorStateCodec.encode(d.snapshot());
    Detector restored = new Detector(SignalCatalog.defaults(), SETTINGS,
        DetectorStateCodec.decode(bytes));
    assertThat(restored.baselines("j")).isEqualTo(d.baselines("j"));
    assertThat(restored.anomalies(null, null, Long.MIN_VALUE))
        .isEqualTo(d.anomalies(null, null, Long.MIN_VALUE));
    assertThat(restored.jobs()).isEqualTo(d.jobs());
    assertThat(restored.eventTimeMs()).isEqualTo(d.eventTimeMs());
    assertThat(restored.diagnosis("j")).isEqualTo(d.diagnosis("j")).isPresent();

    bytes[bytes.length / 2] ^= 0x01;
    byte[] corrupt = bytes;
    assertThatThrownBy(() -> DetectorStateCodec.decode(corrupt)).isInstanceOf(IOException.class)
        .hasMessageContaining("checksum");
    assertThatThrownBy(() -> DetectorStateCodec.decode(new byte[] {1, 2, 3}))
        .isInstanceOf(IOException.class);
  }

  /**
   * The records-in rate's last hours, whose lasting rise the trend test takes out, are in the
   * snapshot: a restart must not make a young job's load-driven rise look like growth again.
   */
  @Test
  void theInputRatesLastHoursSurviveARestart() throws IOException {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    Labels in = Labels.of("__name__", "flink_taskmanager_job_task_numRecordsInPerSecond", "job",
        "flink", "instance", "tm-0:9249", "host", "worker_0", "tm_id", "flink_tm_0", "job_id",
        "0123456789abcdef0123456789abcdef", "job_name", "j", "subtask_index", "0",
        "task_name", "keyed", "task_id", "t0");
    long h = dev.checkpointdoctor.detector.trend.HourlyHistory.HOUR_MS;
    for (long t = T0; t < T0 + 10 * h; t += 60_000L) {
      d.accept(in, new long[] {t}, new double[] {1000 + (t - T0) / 60_000L});
      d.endBatch();
    }
    DetectorState.HistoryState saved = recordsIn(d.snapshot());
    var hours = dev.checkpointdoctor.detector.trend.HourlyHistory.readFrom(
        new java.io.DataInputStream(new java.io.ByteArrayInputStream(saved.hourly())),
        dev.checkpointdoctor.detector.trend.LoadTrend.INPUT_HOURS + 1);
    assertThat(hours.hours()).as("closed hours kept").isEqualTo(
        dev.checkpointdoctor.detector.trend.LoadTrend.INPUT_HOURS + 1);
    assertThat(hours.median(hours.hours() - 1)).as("the last closed hour")
        .isBetween(1000.0 + 8 * 60, 1000.0 + 10 * 60);

    Detector restored = new Detector(SignalCatalog.defaults(), SETTINGS,
        DetectorStateCodec.decode(DetectorStateCodec.encode(d.snapshot())));
    assertThat(recordsIn(restored.snapshot()).hourly()).isEqualTo(saved.hourly());
  }

  private static DetectorState.HistoryState recordsIn(DetectorState s) {
    return s.histories().stream().filter(x -> x.signal() == Signal.RECORDS_IN).findFirst()
        .orElseThrow();
  }
}
