package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Signal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link ReplicaElection}: one replica of an HA pair is learned from; failover loses nothing. */
class ReplicaElectionTest {
  static final long T0 = 1_796_000_000_000L;
  static final DetectorSettings SETTINGS = DetectorSettings.defaults().withMinObservations(5);

  final Detector d = new Detector(SignalCatalog.defaults(), SETTINGS, DeliverySettings.defaults()
      .withHaReplicaLabel("prometheus_replica", Duration.ofSeconds(30)),
      new dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser());

  static Labels gauge(String metric, String replica) {
    return Labels.of("__name__", "flink_jobmanager_job_" + metric, "job", "flink",
        "job_id", "0123456789abcdef0123456789abcdef", "job_name", "j",
        "prometheus_replica", replica);
  }

  /** One scrape of one replica: checkpoint {@code id} completed. */
  void scrape(String replica, long ts, long id) {
    d.accept(gauge("lastCheckpointDuration", replica), new long[] {ts}, new double[] {1000 + id});
    d.accept(gauge("lastCompletedCheckpointId", replica), new long[] {ts}, new double[] {id});
    d.accept(gauge("numberOfFailedCheckpoints", replica), new long[] {ts}, new double[] {0});
    d.endBatch();
  }

  BaselineSummary baseline(Signal s) {
    return d.baselines("j").stream().filter(b -> b.signal() == s).findFirst().orElseThrow();
  }

  @Test
  void bothReplicasScrapingIsLearnedOnceAndAFailoverLosesNoCheckpoint() {
    // both replicas scrape every 10 s, b 4 s after a; a checkpoint completes every 20 s
    for (int i = 0; i < 10; i++) {
      long t = T0 + i * 10_000L;
      scrape("a", t, 1 + i / 2);
      scrape("b", t + 4_000, 1 + i / 2);
    }
    assertThat(d.trackedSeries()).isEqualTo(3); // one series per metric, not per replica
    assertThat(baseline(Signal.CHECKPOINT_DURATION).observations()).isEqualTo(5); // ids 1..5
    assertThat(baseline(Signal.CHECKPOINT_FAILURES).observations()).isEqualTo(10); // a's scrapes
    // b's scrapes are dropped, except its newest: newer than a's, held in case a has died
    assertThat(d.stats().haStandby()).isEqualTo(27);
    assertThat(d.pendingSamples()).isEqualTo(3);
    // a dies after its scrape at 90 s; b goes on: checkpoints 6, 7, 8 complete at 100, 120, 140 s
    for (int i = 10; i < 16; i++) {
      scrape("b", T0 + i * 10_000L + 4_000, 1 + i / 2);
    }
    // b's newest (154 s) is more than 30 s past a's (90 s): b is elected, and what it sent
    // since a's last scrape is learned: its scrapes at 94 s (id 5, no new checkpoint), 104 s ...
    assertThat(d.stats().haFailovers()).isEqualTo(1);
    assertThat(baseline(Signal.CHECKPOINT_DURATION).observations()).isEqualTo(8); // + 6, 7, 8
    assertThat(baseline(Signal.CHECKPOINT_FAILURES).observations()).isEqualTo(17); // + 94..154 s
    assertThat(d.stats().outOfOrder() + d.stats().duplicate()).isZero();
    // a comes back and replays what it has: older than what was learned, dropped as standby
    long standby = d.stats().haStandby();
    scrape("a", T0 + 100_000, 6);
    assertThat(d.stats().haStandby()).isEqualTo(standby + 3);
    assertThat(d.stats().haFailovers()).isEqualTo(1);
  }

  @Test
  void seriesWithoutTheReplicaLabelPassUnchanged() {
    Labels plain = Labels.of("__name__", "flink_jobmanager_job_numberOfFailedCheckpoints",
        "job_id", "x", "job_name", "k");
    d.accept(plain, new long[] {T0, T0 + 10_000}, new double[] {0, 1});
    d.endBatch();
    assertThat(d.stats().processed()).isEqualTo(2);
    assertThat(d.stats().haStandby()).isZero();
  }

  @Test
  void aSourceWhoseSeriesAllEndedIsForgotten() {
    ReplicaElection e = new ReplicaElection("prometheus_replica", 30_000,
        SignalCatalog.defaults(), dev.checkpointdoctor.detector.model.JobIdentity.jobNameOnly(),
        new DetectorStats());
    ReplicaElection.Sink sink = (l, t, v, from, to) -> { };
    double stale = Double.longBitsToDouble(Detector.STALE_NAN_BITS);
    for (String replica : new String[] {"a", "b"}) {
      e.accept(gauge("numRestarts", replica), new long[] {T0}, new double[] {0}, 0, 1, sink);
    }
    assertThat(e.elected()).containsEntry("job j", "a");
    e.accept(gauge("numRestarts", "a"), new long[] {T0 + 1}, new double[] {stale}, 0, 1, sink);
    assertThat(e.elected()).hasSize(1); // b's series still runs
    e.accept(gauge("numRestarts", "b"), new long[] {T0 + 2}, new double[] {stale}, 0, 1, sink);
    e.prune();
    assertThat(e.elected()).isEmpty();
  }
}
