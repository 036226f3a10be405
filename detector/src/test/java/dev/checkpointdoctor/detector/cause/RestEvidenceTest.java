package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.confidenceOf;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.facts.CheckpointConfig;
import dev.checkpointdoctor.detector.facts.CheckpointDetail;
import dev.checkpointdoctor.detector.facts.JobFacts;
import dev.checkpointdoctor.detector.facts.JobFactsSource;
import dev.checkpointdoctor.detector.facts.MountTable;
import dev.checkpointdoctor.detector.facts.SubtaskTiming;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

/** Flink REST facts in the diagnosis: timeout, phases, unacknowledged subtasks, local dirs. */
class RestEvidenceTest {
  static final long HOUR = 3_600_000;
  static final String JOB_ID = "00000000000000000000000000000a01";

  /** A sim whose ranker reads the facts the test sets (at diagnosis time, like the service). */
  static final class Rig {
    final AtomicReference<JobFacts> facts = new AtomicReference<>();
    final MountTable mounts = new MountTable();
    final FlinkJobSim sim;

    Rig(long seed) {
      DetectorSettings settings = DetectorSettings.defaults();
      JobFactsSource source = job -> {
        JobFacts f = facts.get();
        return f != null && f.job().equals(job) ? f : null;
      };
      sim = new FlinkJobSim(seed, 2, 1, 15, true, settings,
          new CauseRanker(settings, source, mounts));
      sim.detector.recordMountsIn(mounts);
    }

    Diagnosis diagnosis() {
      return sim.detector.diagnosis(sim.job).orElseThrow();
    }
  }

  static CheckpointConfig config(long timeoutMs, long intervalMs, String dir, List<String> local) {
    return new CheckpointConfig(timeoutMs, intervalMs, 0, 1, false, "exactly_once",
        "EmbeddedRocksDBStateBackend", "FileSystemCheckpointStorage", dir,
        CheckpointConfig.schemeOf(dir), local);
  }

  static SubtaskTiming acked(String vertex, int i, long startDelay, long sync, long async) {
    return new SubtaskTiming("v-" + vertex, vertex, i, true, startDelay + sync + async,
        startDelay, 0, sync, async, 1 << 20, false);
  }

  static SubtaskTiming pending(String vertex, int i) {
    return new SubtaskTiming("v-" + vertex, vertex, i, false, -1, -1, -1, -1, -1, -1, false);
  }

  static List<String> sentences(Diagnosis d) {
    List<String> out = new ArrayList<>();
    d.top().evidence().forEach(e -> out.add(e.sentence()));
    return out;
  }

  @Test
  void forecastsAreMadeAgainstTheJobsOwnTimeout() {
    Rig withRest = new Rig(6);
    FlinkJobSim s = withRest.sim;
    withRest.facts.set(new JobFacts(s.job, JOB_ID, "http://jm:8081", FlinkJobSim.T0,
        config(HOUR, 60_000, "s3://bucket/cp", List.of()), null));
    Rig without = new Rig(6);
    FlinkJobSim.Scenario growth = (x, f) -> {
      double hours = f / 3_600_000.0;
      x.fullSize = x.baseSize * (1 + hours) * (1 + 0.01 * x.rnd.nextGaussian());
      x.durationMs = x.baseDurationMs * (1 + hours) * (1 + 0.04 * x.rnd.nextGaussian());
    };
    s.run(NORMAL_MIN, 150, growth);
    without.sim.run(NORMAL_MIN, 150, growth);
    Diagnosis d = withRest.diagnosis();
    Diagnosis plain = without.diagnosis();
    assertThat(d.cause()).as(describe(d)).isEqualTo("state_growth");
    assertThat(plain.cause()).isEqualTo("state_growth");
    // By hand: duration = base × (1 + h), so it rises by base per hour; at the end h = 2.5.
    double base = s.baseDurationMs;
    assertThat(d.hoursToTimeout()).as(describe(d))
        .isCloseTo((HOUR - base * 3.5) / base, Percentage.withPercentage(15));
    assertThat(plain.hoursToTimeout())
        .isCloseTo((600_000 - base * 3.5) / base, Percentage.withPercentage(15));
    assertThat(String.join("\n", sentences(d))).contains("reach the timeout (60.0 min)");
    assertThat(String.join("\n", sentences(plain))).contains("reach the timeout (10.0 min)");
  }

  @Test
  void withoutFactsNothingChanges() {
    Rig rig = new Rig(8);
    // a network mount that would be evidence if Flink had named it RocksDB's local dir
    rig.mounts.observe(Labels.of("__name__", "node_filesystem_avail_bytes", "instance",
        "worker-0:9100", "mountpoint", "/data", "fstype", "nfs4", "device", "nas:/export"));
    FlinkJobSim plain = new FlinkJobSim(8, 2, 1, 15, true);
    FlinkJobSim.Scenario slow = (x, f) -> x.durationMs = 15 * 60_000;
    rig.sim.run(NORMAL_MIN, 45, slow);
    plain.run(NORMAL_MIN, 45, slow);
    assertThat(rig.diagnosis()).isEqualTo(plain.detector.diagnosis(plain.job).orElseThrow());
  }

  @Test
  void anAsyncPhaseNearTheTimeoutIsNamedAndCorroboratesSlowStorage() {
    Rig rig = new Rig(9);
    FlinkJobSim s = rig.sim;
    FlinkJobSim plain = new FlinkJobSim(9, 2, 1, 15, true);
    FlinkJobSim.Scenario slow = (x, f) -> x.durationMs = 15 * 60_000;
    long faultStart = s.faultStartAfter(NORMAL_MIN);
    // the checkpoint in progress for 9.7 min: window subtask 1 acknowledged after an async
    // phase of 9.6 min, the rest quickly
    CheckpointDetail cp = new CheckpointDetail(42, "in_progress", "long_running",
        faultStart + 40 * 60_000, -1, null, 582_000, 6, 6, List.of(
            acked("Source: kafka", 0, 2, 1, 40), acked("Source: kafka", 1, 2, 1, 35),
            acked("window", 0, 30, 150, 120_000), acked("window", 1, 25, 140, 576_000),
            acked("Sink: kafka", 0, 40, 1, 5), acked("Sink: kafka", 1, 45, 1, 6)));
    rig.facts.set(new JobFacts(s.job, JOB_ID, "http://jm:8081", faultStart + 45 * 60_000,
        config(600_000, 60_000, "s3a://bucket/checkpoints", List.of()), cp));
    s.run(NORMAL_MIN, 45, slow);
    plain.run(NORMAL_MIN, 45, slow);
    Diagnosis d = rig.diagnosis();
    Diagnosis before = plain.detector.diagnosis(plain.job).orElseThrow();
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_storage_slow");
    assertThat(sentences(d)).as(describe(d)).anySatisfy(t -> assertThat(t)
        .startsWith("In checkpoint 42 (in progress for 9.7 min) the async phase of window "
            + "subtask 1 took 9.6 min of the 10 min timeout"));
    assertThat(sentences(d)).anySatisfy(t -> assertThat(t)
        .startsWith("Checkpoints are stored on s3a (s3a://bucket/checkpoints): S3's request"));
    assertThat(d.confidence()).isGreaterThanOrEqualTo(Math.min(1, before.confidence() + 0.15) - 1e-9);
    assertThat(d.top().evidence()).extracting(CauseHypothesis.Evidence::scope)
        .contains("flink-rest:window/1");
  }

  @Test
  void subtasksThatNeverAcknowledgedAreListedWithThePhaseTheMetricsShow() {
    Rig rig = new Rig(8);
    FlinkJobSim s = rig.sim;
    long faultStart = s.faultStartAfter(NORMAL_MIN);
    long trigger = faultStart + 30 * 60_000;
    CheckpointDetail cp = new CheckpointDetail(17, "failed", "failed", trigger,
        trigger + 600_000, "Checkpoint expired before completing.", 600_000, 6, 4, List.of(
            acked("Source: kafka", 0, 2, 1, 40), acked("Source: kafka", 1, 2, 1, 35),
            pending("window", 0), pending("window", 1),
            acked("Sink: kafka", 0, 40, 1, 5), acked("Sink: kafka", 1, 45, 1, 6)));
    rig.facts.set(new JobFacts(s.job, JOB_ID, "http://jm:8081", trigger + 601_000,
        config(600_000, 60_000, "hdfs://nn:8020/flink/cp", List.of()), cp));
    s.run(NORMAL_MIN, 45, (x, f) -> x.durationMs = 15 * 60_000);
    Diagnosis d = rig.diagnosis();
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_storage_slow");
    List<String> said = sentences(d);
    assertThat(said).contains("2 of 6 subtasks never acknowledged checkpoint 17 (failed after "
        + "10 min at " + JobEvidence.clock(trigger + 600_000) + "): window 0, 1.");
    assertThat(said).contains("Flink says checkpoint 17 failed: \"Checkpoint expired before "
        + "completing.\"");
    // the sim's window subtasks got their barriers promptly and kept processing records
    assertThat(said).anySatisfy(t -> assertThat(t).startsWith("The async phase of window "
        + "subtask 0 took 10 min of the 10 min timeout in checkpoint 17").contains(
            "so the sync phase was over"));
    assertThat(said).anySatisfy(t -> assertThat(t).contains("NameNode RPC latency"));
  }

  @Test
  void aBarrierStuckBehindDataSpeaksAgainstSlowStorage() {
    Rig rig = new Rig(9);
    FlinkJobSim s = rig.sim;
    long faultStart = s.faultStartAfter(NORMAL_MIN);
    long trigger = faultStart + 30 * 60_000;
    CheckpointDetail cp = new CheckpointDetail(18, "failed", "failed", trigger,
        trigger + 600_000, "Checkpoint expired before completing.", 600_000, 6, 4, List.of(
            acked("Source: kafka", 0, 2, 1, 40), acked("Source: kafka", 1, 2, 1, 35),
            acked("window", 0, 30, 150, 2_000), pending("window", 1),
            pending("Sink: kafka", 0), acked("Sink: kafka", 1, 45, 1, 6)));
    rig.facts.set(new JobFacts(s.job, JOB_ID, "http://jm:8081", trigger + 601_000,
        config(600_000, 60_000, "s3://b/cp", List.of()), cp));
    FlinkJobSim plain = new FlinkJobSim(9, 2, 1, 15, true);
    FlinkJobSim.Scenario fault = (x, f) -> {
      x.durationMs = 15 * 60_000;
      x.startDelayMs[1][1] = 400_000 * x.jitter();
    };
    s.run(NORMAL_MIN, 45, fault);
    plain.run(NORMAL_MIN, 45, fault);
    Diagnosis d = rig.diagnosis();
    Diagnosis before = plain.detector.diagnosis(plain.job).orElseThrow();
    assertThat(confidenceOf(d, Cause.CHECKPOINT_STORAGE_SLOW)).as(describe(d))
        .isLessThan(confidenceOf(before, Cause.CHECKPOINT_STORAGE_SLOW));
    assertThat(CauseRankerScenarioTest.evidenceOf(d, Cause.CHECKPOINT_STORAGE_SLOW))
        .anySatisfy(t -> assertThat(t).startsWith("But Flink's checkpoint details show the time "
            + "before the upload: The barrier of window subtask 1 never got through in time"));
  }

  @Test
  void aRocksDbLocalDirOnAnNfsMountIsNamedWithItsRemedy() {
    Rig rig = new Rig(8);
    FlinkJobSim s = rig.sim;
    // node_exporter's file systems on the TaskManager's node, fed through the detector as a
    // remote write would: "/" local, /mnt/state an NFS v4 mount
    s.detector.accept(Labels.of("__name__", "node_filesystem_avail_bytes", "job", "node",
        "instance", "worker-0:9100", "device", "/dev/nvme0n1p1", "fstype", "ext4",
        "mountpoint", "/"), new long[] {FlinkJobSim.T0}, new double[] {1e11});
    s.detector.accept(Labels.of("__name__", "node_filesystem_avail_bytes", "job", "node",
        "instance", "worker-0:9100", "device", "nas-1:/export/flink", "fstype", "nfs4",
        "mountpoint", "/mnt/state"), new long[] {FlinkJobSim.T0}, new double[] {5e11});
    rig.facts.set(new JobFacts(s.job, JOB_ID, "http://jm:8081", FlinkJobSim.T0,
        config(600_000, 60_000, "s3://b/cp", List.of("/mnt/state/rocksdb")), null));
    s.run(NORMAL_MIN, 45, (x, f) -> x.durationMs = 15 * 60_000);
    Diagnosis d = rig.diagnosis();
    assertThat(sentences(d)).as(describe(d)).contains("RocksDB's local dir /mnt/state/rocksdb "
        + "(state.backend.rocksdb.localdir) is on a nfs4 network mount (nas-1:/export/flink at "
        + "/mnt/state on worker-0): every flush, compaction and checkpoint upload of the state "
        + "goes over the network. Move it to a local SSD or ephemeral storage (e.g. an emptyDir "
        + "or a local NVMe volume).");
    // a local dir on the local disk says nothing
    Rig local = new Rig(8);
    local.sim.detector.accept(Labels.of("__name__", "node_filesystem_avail_bytes",
        "instance", "worker-0:9100", "device", "/dev/nvme0n1p1", "fstype", "ext4",
        "mountpoint", "/"), new long[] {FlinkJobSim.T0}, new double[] {1e11});
    local.facts.set(new JobFacts(s.job, JOB_ID, "http://jm:8081", FlinkJobSim.T0,
        config(600_000, 60_000, "s3://b/cp", List.of("/mnt/state/rocksdb")), null));
    local.sim.run(NORMAL_MIN, 45, (x, f) -> x.durationMs = 15 * 60_000);
    assertThat(sentences(local.diagnosis())).noneMatch(t -> t.contains("network mount"));
  }

  @Test
  void mountsMatchTheLongestMountPointAndKnowNetworkFileSystems() {
    MountTable t = new MountTable();
    t.observe(Labels.of("instance", "n1:9100", "mountpoint", "/", "fstype", "ext4"));
    t.observe(Labels.of("instance", "n1:9100", "mountpoint", "/mnt", "fstype", "fuse.s3fs"));
    t.observe(Labels.of("nodename", "n2", "instance", "10.0.0.2:9100", "mountpoint", "/mnt",
        "fstype", "cifs"));
    assertThat(t.mountOf("n1", "/mnt/rocks").network()).isTrue();
    assertThat(t.mountOf("n1", "/mntx/rocks").fstype()).isEqualTo("ext4");
    assertThat(t.mountOf("n2", "/mnt").fstype()).isEqualTo("cifs");
    assertThat(t.mountOf("10.0.0.2", "/mnt")).isNull();
    assertThat(t.mountOf("n1", "relative/dir")).isNull();
  }

  @Test
  void theConfiguredIntervalReplacesTheInferredOne() {
    dev.checkpointdoctor.detector.pipeline.JobView view =
        new dev.checkpointdoctor.detector.pipeline.JobView() {
          @Override
          public String job() {
            return "j";
          }

          @Override
          public long eventTimeMs() {
            return FlinkJobSim.T0;
          }

          @Override
          public List<dev.checkpointdoctor.detector.model.Anomaly> openAnomalies() {
            return List.of();
          }

          @Override
          public List<dev.checkpointdoctor.detector.model.BaselineSummary> baselines() {
            return List.of();
          }
        };
    JobEvidence plain = new JobEvidence(view, DetectorSettings.defaults());
    RestEvidence.attach(plain, null);
    assertThat(RestEvidence.intervalMs(plain, 61_000)).isEqualTo(61_000);
    JobEvidence withRest = new JobEvidence(view, DetectorSettings.defaults());
    RestEvidence.attach(withRest, new JobFacts("j", JOB_ID, "http://jm:8081", 0,
        config(HOUR, 15 * 60_000, null, List.of()), null));
    assertThat(RestEvidence.intervalMs(withRest, 61_000)).isEqualTo(15 * 60_000);
    assertThat(RestEvidence.intervalMs(withRest, Double.NaN)).isEqualTo(15 * 60_000);
    // Flink's "no periodic checkpoints" (Long.MAX_VALUE) is no interval
    JobEvidence off = new JobEvidence(view, DetectorSettings.defaults());
    RestEvidence.attach(off, new JobFacts("j", JOB_ID, "http://jm:8081", 0,
        config(HOUR, Long.MAX_VALUE, null, List.of()), null));
    assertThat(RestEvidence.intervalMs(off, 61_000)).isEqualTo(61_000);
    assertThat(RestEvidence.settingsFor(DetectorSettings.defaults(), null).checkpointTimeout())
        .hasMinutes(10);
  }
}
