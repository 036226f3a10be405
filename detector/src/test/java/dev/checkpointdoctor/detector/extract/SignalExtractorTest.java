package dev.checkpointdoctor.detector.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SignalExtractorTest {
  static final String J = "wordcount";
  static final String JP = "flink_jobmanager_job_";
  static final String TP = "flink_taskmanager_job_task_";
  static final long S = 1_000; // one second in ms
  static final long T0 = 1_700_000_000_000L;

  final SignalCatalog catalog = SignalCatalog.defaults();
  SignalExtractor x = new SignalExtractor(catalog, DetectorSettings.defaults());
  final List<Observation> out = new ArrayList<>();

  record In(String name, long ts, double value, Labels labels) {}

  static Labels labels(String name, String... kv) {
    String[] all = Arrays.copyOf(kv, kv.length + 2);
    all[kv.length] = Labels.METRIC_NAME;
    all[kv.length + 1] = name;
    return Labels.of(all);
  }

  static In job(String jobId, String metric, long ts, double v) {
    return new In(JP + metric, ts, v, labels(JP + metric, "job_id", jobId, "job_name", J,
        "host", "jm_1", "job", "prometheus_job", "instance", "jm:9249"));
  }

  static In task(String metric, String taskName, int subtask, long ts, double v, String tmId,
      String host) {
    List<String> kv = new ArrayList<>(List.of("job_id", "a1", "job_name", J, "task_name",
        taskName, "subtask_index", Integer.toString(subtask), "task_id", "t" + taskName));
    if (tmId != null) {
      kv.addAll(List.of("tm_id", tmId));
    }
    if (host != null) {
      kv.addAll(List.of("host", host));
    }
    return new In(TP + metric, ts, v, labels(TP + metric, kv.toArray(new String[0])));
  }

  static In task(String metric, long ts, double v) {
    return task(metric, "map", 0, ts, v, "tm_1", "worker_1");
  }

  static In raw(String name, long ts, double v, String... kv) {
    return new In(name, ts, v, labels(name, kv));
  }

  void put(In... ins) {
    for (In in : ins) {
      MetricRule r = catalog.ruleFor(in.name);
      assertThat(r).as(in.name).isNotNull();
      x.onSample(r, in.labels, in.ts, in.value, out::add);
    }
  }

  void end(In in) {
    x.onSeriesEnd(catalog.ruleFor(in.name), in.labels, in.ts, out::add);
  }

  List<Observation> take(Signal s) {
    List<Observation> r = out.stream().filter(o -> o.signal() == s).toList();
    out.removeIf(o -> o.signal() == s);
    return r;
  }

  List<Double> values(Signal s) {
    return take(s).stream().map(Observation::value).toList();
  }

  static Observation job(Signal s, long ts, double v) {
    return new Observation(J, s, "job", ts, v);
  }

  // ------------------------------------------------------------------ job scope

  @Test
  void failedCheckpointCounterResetIsNotNegative() {
    double[] failed = {5, 7, 1, 2};
    double[] restarts = {0, 1, 0, 2};
    for (int i = 0; i < failed.length; i++) {
      put(job("a1", "numberOfFailedCheckpoints", T0 + i * 10 * S, failed[i]),
          job("a1", "numRestarts", T0 + i * 10 * S, restarts[i]));
    }
    x.flush(Long.MAX_VALUE, out::add);
    // increments: baseline, 7-5=2, reset (nothing), 2-1=1; the window sums them: 0, 2, 2, 3
    assertThat(values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 2.0, 2.0, 3.0);
    // numRestarts 0 -> 1 (+1), 1 -> 0 reset, 0 -> 2 (+2); only increments > 0 are emitted
    assertThat(take(Signal.RESTARTS)).containsExactly(
        job(Signal.RESTARTS, T0 + 10 * S, 1), job(Signal.RESTARTS, T0 + 30 * S, 2));
    assertThat(out).isEmpty(); // no marker series: no age, no per-checkpoint values
  }

  @Test
  void staleMarkerOnAJobCounterStartsANewBaseline() {
    put(job("a1", "numberOfFailedCheckpoints", T0, 4));
    put(job("a1", "numberOfFailedCheckpoints", T0 + 10 * S, 6)); // +2
    end(job("a1", "numberOfFailedCheckpoints", T0 + 15 * S, 0));
    put(job("a1", "numberOfFailedCheckpoints", T0 + 60 * S, 9)); // after the gap: baseline only
    put(job("a1", "numberOfFailedCheckpoints", T0 + 70 * S, 10)); // +1
    x.flush(Long.MAX_VALUE, out::add);
    // window sums: 0, 2, 2 (9 is a new baseline, not +3), 3
    assertThat(values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 2.0, 2.0, 3.0);
  }

  @Test
  void failuresLeaveTheTrailingWindow() {
    x = new SignalExtractor(catalog, new DetectorSettings(20, 120, Duration.ofDays(3), 4.0, 0.1,
        3, 3, Duration.ofHours(6), Duration.ofMinutes(1), Duration.ofMinutes(10), Map.of()));
    long[] at = {0, 10, 30, 70, 95};
    double[] failed = {0, 1, 3, 3, 3};
    for (int i = 0; i < at.length; i++) {
      put(job("a1", "numberOfFailedCheckpoints", T0 + at[i] * S, failed[i]));
    }
    x.flush(Long.MAX_VALUE, out::add);
    // events: +1 at 10 s, +2 at 30 s. Window (t-60 s, t]:
    // t=0: 0; t=10: 1; t=30: 1+2=3; t=70: (10,70] drops the +1 at 10 s -> 2; t=95: (35,95] -> 0
    assertThat(values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 1.0, 3.0, 2.0, 0.0);
  }

  @Test
  void restartWithNewJobIdStartsFreshTrackersUnderTheSameJobName() {
    put(job("a1", "lastCompletedCheckpointId", T0, 10), job("a1", "lastCheckpointDuration", T0, 100),
        job("a1", "numberOfFailedCheckpoints", T0, 5), job("a1", "numRestarts", T0, 3));
    x.flush(T0 + 1, out::add);
    assertThat(take(Signal.CHECKPOINT_DURATION)).containsExactly(
        job(Signal.CHECKPOINT_DURATION, T0, 100));
    out.clear();
    long t1 = T0 + 10 * S;
    put(job("b2", "lastCompletedCheckpointId", t1, -1), job("b2", "lastCheckpointDuration", t1, -1),
        job("b2", "numberOfFailedCheckpoints", t1, 0), job("b2", "numRestarts", t1, 0));
    x.flush(t1 + 1, out::add);
    // -1 sentinels: no completed checkpoint yet; counters of the new run start from 0: 0 - 0 = 0
    assertThat(out).containsExactly(job(Signal.CHECKPOINT_AGE, t1, 0),
        job(Signal.CHECKPOINT_FAILURES, t1, 0));
    out.clear();
    long t2 = t1 + 10 * S;
    put(job("b2", "lastCompletedCheckpointId", t2, 0), job("b2", "lastCheckpointDuration", t2, 80),
        job("b2", "numberOfFailedCheckpoints", t2, 1), job("b2", "numRestarts", t2, 0));
    // frame completes without flush: all four series of the previous b2 frame reported
    assertThat(out).containsExactly(job(Signal.CHECKPOINT_DURATION, t2, 80),
        job(Signal.CHECKPOINT_AGE, t2, 0), job(Signal.CHECKPOINT_FAILURES, t2, 1));
    assertThat(x.currentJobId(J)).contains("b2");
    assertThat(x.restarts(J)).containsExactly("a1", "b2");
    assertThat(x.jobs()).containsExactly(J);
  }

  @Test
  void firstLookAtARestartedJobCountsItsFailuresFromZero() {
    put(job("a1", "numberOfFailedCheckpoints", T0, 5));
    x.flush(T0 + 1, out::add);
    put(job("b2", "numberOfFailedCheckpoints", T0 + 10 * S, 2));
    x.flush(Long.MAX_VALUE, out::add);
    // a1: baseline 5 -> 0; b2 restarted from 0: 2 - 0 = 2 (never 2 - 5 = -3)
    assertThat(values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 2.0);
  }

  @Test
  void sentinelsAndCompletionCountMarkerOfFlink115() {
    // 1.15/1.16 have no lastCompletedCheckpointId: numberOfCompletedCheckpoints is the marker
    long t1 = T0 + 10 * S;
    long t2 = T0 + 20 * S;
    long t3 = T0 + 45 * S;
    put(job("a1", "numberOfCompletedCheckpoints", T0, 0), job("a1", "lastCheckpointDuration", T0, -1),
        job("a1", "lastCheckpointSize", T0, -1), job("a1", "numberOfInProgressCheckpoints", T0, 1));
    x.flush(T0 + 1, out::add);
    assertThat(out).containsExactly(job(Signal.CHECKPOINT_AGE, T0, 0),
        job(Signal.CHECKPOINT_IN_PROGRESS, T0, 1));
    out.clear();
    put(job("a1", "numberOfCompletedCheckpoints", t1, 1), job("a1", "lastCheckpointDuration", t1, 500),
        job("a1", "lastCheckpointSize", t1, -1), job("a1", "numberOfInProgressCheckpoints", t1, 0));
    assertThat(out).containsExactly(job(Signal.CHECKPOINT_DURATION, t1, 500),
        job(Signal.CHECKPOINT_AGE, t1, 0), job(Signal.CHECKPOINT_IN_PROGRESS, t1, 0));
    out.clear();
    put(job("a1", "numberOfCompletedCheckpoints", t2, 1), job("a1", "lastCheckpointDuration", t2, 500),
        job("a1", "lastCheckpointSize", t2, -1), job("a1", "numberOfInProgressCheckpoints", t2, 1));
    put(job("a1", "numberOfCompletedCheckpoints", t3, 1), job("a1", "lastCheckpointDuration", t3, 500),
        job("a1", "lastCheckpointSize", t3, -1), job("a1", "numberOfInProgressCheckpoints", t3, 1));
    // no new completion: no duration; age since t1 = 10 s, then 35 s
    assertThat(out).containsExactly(job(Signal.CHECKPOINT_AGE, t2, 10),
        job(Signal.CHECKPOINT_IN_PROGRESS, t2, 1), job(Signal.CHECKPOINT_AGE, t3, 35),
        job(Signal.CHECKPOINT_IN_PROGRESS, t3, 1));
  }

  @Test
  void shuffledFrameSplitAcrossRequestsGivesTheSameObservations() {
    List<List<In>> frames = new ArrayList<>();
    for (int f = 0; f < 4; f++) {
      long t = T0 + f * 10 * S;
      List<In> frame = new ArrayList<>(List.of(
          job("a1", "lastCompletedCheckpointId", t, 7 + f / 2),
          job("a1", "numberOfCompletedCheckpoints", t, 7 + f / 2),
          job("a1", "lastCheckpointDuration", t, 100 + 10 * (f / 2)),
          job("a1", "lastCheckpointSize", t, 2000),
          job("a1", "lastCheckpointFullSize", t, 9000 + f),
          job("a1", "lastCheckpointPersistedData", t, 0),
          job("a1", "lastCheckpointCompletedTimestamp", t, T0 - 5 * S + (f / 2) * 20 * S),
          job("a1", "numberOfFailedCheckpoints", t, f),
          job("a1", "numberOfInProgressCheckpoints", t, f % 2),
          job("a1", "numRestarts", t, 0),
          task("busyTimeMsPerSecond", t, 100 + f),
          task("checkpointStartDelayNanos", t, 1e6 * (1 + f / 2))));
      frames.add(frame);
    }
    List<Observation> inOrder = new ArrayList<>();
    for (List<In> frame : frames) {
      put(frame.toArray(new In[0]));
      x.flush(frame.get(0).ts, out::add);
    }
    x.flush(Long.MAX_VALUE, out::add);
    inOrder.addAll(out);

    x = new SignalExtractor(catalog, DetectorSettings.defaults());
    out.clear();
    Random rnd = new Random(42);
    for (List<In> frame : frames) {
      List<In> shuffled = new ArrayList<>(frame);
      Collections.shuffle(shuffled, rnd);
      int half = shuffled.size() / 2;
      put(shuffled.subList(0, half).toArray(new In[0]));
      x.flush(frame.get(0).ts, out::add); // request 1 ends: max timestamp seen is this frame's
      put(shuffled.subList(half, shuffled.size()).toArray(new In[0]));
      x.flush(frame.get(0).ts, out::add); // request 2 ends
    }
    x.flush(Long.MAX_VALUE, out::add);
    // job observations in the same order; task observations follow arrival order
    assertThat(out.stream().filter(o -> o.scope().equals("job")).toList())
        .isEqualTo(inOrder.stream().filter(o -> o.scope().equals("job")).toList());
    assertThat(out).containsExactlyInAnyOrderElementsOf(inOrder);
    // per-checkpoint duration once per completion: id 7 (first sight) and id 8 (frame 2)
    assertThat(inOrder.stream().filter(o -> o.signal() == Signal.CHECKPOINT_DURATION).toList())
        .containsExactly(job(Signal.CHECKPOINT_DURATION, T0, 100),
            job(Signal.CHECKPOINT_DURATION, T0 + 20 * S, 110));
    // completed timestamps T0-5s, T0-5s, T0+15s, T0+15s -> ages 5, 15, 5, 15
    assertThat(inOrder.stream().filter(o -> o.signal() == Signal.CHECKPOINT_AGE)
        .map(Observation::value).toList()).containsExactly(5.0, 15.0, 5.0, 15.0);
    assertThat(x.lateSamples()).isZero();
  }

  // ------------------------------------------------------------------ task scope

  @Test
  void busyNanIsSkippedAndStartDelayIsDeduplicated() {
    double[] delayNs = {5e6, 5e6, 9e6, 9e6, 5e6, -1};
    double[] busy = {Double.NaN, 200, Double.NaN, 300, 400, 500};
    for (int i = 0; i < delayNs.length; i++) {
      long t = T0 + i * 10 * S;
      put(task("checkpointStartDelayNanos", t, delayNs[i]), task("busyTimeMsPerSecond", t, busy[i]),
          task("checkpointAlignmentTime", t, 2.5e6), task("backPressuredTimeMsPerSecond", t, 0));
    }
    // 5e6 ns = 5 ms; repeats of the last checkpoint's value are dropped; -1 is no data
    assertThat(take(Signal.CHECKPOINT_START_DELAY)).containsExactly(
        new Observation(J, Signal.CHECKPOINT_START_DELAY, "task:map/0", T0, 5.0),
        new Observation(J, Signal.CHECKPOINT_START_DELAY, "task:map/0", T0 + 20 * S, 9.0),
        new Observation(J, Signal.CHECKPOINT_START_DELAY, "task:map/0", T0 + 40 * S, 5.0));
    assertThat(values(Signal.BUSY)).containsExactly(200.0, 300.0, 400.0, 500.0);
    assertThat(values(Signal.CHECKPOINT_ALIGNMENT)).containsExactly(2.5); // 2.5e6 ns, once
    assertThat(values(Signal.BACKPRESSURE)).hasSize(6);
  }

  // ------------------------------------------------------------------ TaskManager scope

  @Test
  void tmSignalsWaitUntilATaskNamesTheTmAndFallBackToCollectorTimes() {
    String tmp = "flink_taskmanager_Status_JVM_";
    String[] tm = {"host", "", "tm_id", "tm_7"};
    // 1.18: no All group. Collector times PS_Scavenge / PS_MarkSweep, cumulative ms.
    put(raw(tmp + "GarbageCollector_PS_Scavenge_Time", T0, 100, tm),
        raw(tmp + "GarbageCollector_PS_MarkSweep_Time", T0, 50, tm),
        raw(tmp + "Memory_Heap_Used", T0, 100, tm), raw(tmp + "Memory_Heap_Max", T0, 400, tm));
    assertThat(out).isEmpty(); // tm_7 belongs to no job yet
    put(task("busyTimeMsPerSecond", "map", 0, T0, 1, "tm_7", null));
    take(Signal.BUSY);
    long t1 = T0 + 10 * S;
    put(raw(tmp + "Memory_Heap_Max", t1, 400, tm),
        raw(tmp + "GarbageCollector_PS_MarkSweep_Time", t1, 150, tm),
        raw(tmp + "GarbageCollector_PS_Scavenge_Time", t1, 300, tm),
        raw(tmp + "Memory_Heap_Used", t1, 300, tm));
    // (300-100 + 150-50) ms / 10 s = 30 ms/s (state kept while unknown); heap 300/400 = 0.75
    assertThat(out).containsExactly(
        new Observation(J, Signal.GC_TIME, "tm:tm_7", t1, 30.0),
        new Observation(J, Signal.HEAP_USAGE, "tm:tm_7", t1, 0.75));
    out.clear();
    long t2 = t1 + 10 * S;
    put(raw(tmp + "GarbageCollector_PS_Scavenge_Time", t2, 10, tm), // reset: restarted JVM
        raw(tmp + "GarbageCollector_PS_MarkSweep_Time", t2, 160, tm),
        raw(tmp + "Memory_Heap_Used", t2, 1, tm), raw(tmp + "Memory_Heap_Max", t2, 0, tm));
    assertThat(out).isEmpty(); // no GC rate across a reset; heap max 0 is skipped
  }

  @Test
  void gcAllRateWinsOverCollectorTimesAndJobManagerJvmIsIgnored() {
    String tmp = "flink_taskmanager_Status_JVM_GarbageCollector_";
    String[] tm = {"tm_id", "tm_1"};
    put(task("busyTimeMsPerSecond", T0, 1));
    out.clear();
    for (int i = 0; i < 2; i++) {
      long t = T0 + i * 10 * S;
      put(raw(tmp + "G1_Young_Generation_Time", t, 100 + 100 * i, tm),
          raw(tmp + "All_TimeMsPerSecond", t, 7.5, tm));
    }
    assertThat(values(Signal.GC_TIME)).containsExactly(7.5, 7.5);
    assertThat(catalog.ruleFor("flink_jobmanager_Status_JVM_Memory_Heap_Used")).isNull();
  }

  // ------------------------------------------------------------------ RocksDB

  @Test
  void bothRocksDbShapesGiveTheSameScope() {
    String[] op = {"job_id", "a1", "job_name", J, "operator_name", "win", "task_name", "win",
        "subtask_index", "3", "tm_id", "tm_1"};
    String[] opCf = Arrays.copyOf(op, op.length + 2);
    opCf[op.length] = "column_family";
    opCf[op.length + 1] = "window_contents";
    put(raw("flink_taskmanager_job_task_operator_column_family_rocksdb_estimate_pending_compaction_bytes",
            T0, 1 << 20, opCf),
        raw("flink_taskmanager_job_task_operator_window_contents_rocksdb_estimate_pending_compaction_bytes",
            T0, 2 << 20, op),
        raw("flink_taskmanager_job_task_operator_window_contents_rocksdb_num_files_at_level0",
            T0, 4, op),
        raw("flink_taskmanager_job_task_operator_column_family_rocksdb_is_write_stopped", T0, 1,
            opCf),
        raw("flink_taskmanager_job_task_operator_column_family_rocksdb_actual_delayed_write_rate",
            T0, 16 << 20, opCf));
    String scope = "operator:win/3/window_contents";
    assertThat(out).containsExactly(
        new Observation(J, Signal.ROCKSDB_PENDING_COMPACTION, scope, T0, 1 << 20),
        new Observation(J, Signal.ROCKSDB_PENDING_COMPACTION, scope, T0, 2 << 20),
        new Observation(J, Signal.ROCKSDB_L0_FILES, scope, T0, 4),
        new Observation(J, Signal.ROCKSDB_WRITE_STOPPED, scope, T0, 1),
        new Observation(J, Signal.ROCKSDB_DELAYED_WRITE_RATE, scope, T0, 16 << 20));
  }

  @Test
  void stallRateIsResetAwareAndForgottenAtSeriesEnd() {
    String name = "flink_taskmanager_job_task_operator_rocksdb_stall_micros";
    String[] op = {"job_id", "a1", "job_name", J, "operator_name", "win", "subtask_index", "0"};
    put(raw(name, T0, 0, op), raw(name, T0 + 10 * S, 2e6, op), // 2e6 us / 10 s = 200000 us/s
        raw(name, T0 + 20 * S, 1e5, op), // reset: nothing
        raw(name, T0 + 30 * S, 3e5, op)); // (3e5 - 1e5) / 10 s = 20000 us/s
    int tracked = x.trackedEntities();
    end(raw(name, T0 + 35 * S, 0, op));
    assertThat(x.trackedEntities()).isEqualTo(tracked - 1);
    put(raw(name, T0 + 50 * S, 9e5, op)); // after the gap: a new baseline, no rate
    assertThat(take(Signal.ROCKSDB_STALL)).containsExactly(
        new Observation(J, Signal.ROCKSDB_STALL, "operator:win/0", T0 + 10 * S, 200000.0),
        new Observation(J, Signal.ROCKSDB_STALL, "operator:win/0", T0 + 30 * S, 20000.0));
  }

  // ------------------------------------------------------------------ node_exporter

  static In disk(String metric, long ts, double v, String... kv) {
    return raw("node_disk_" + metric, ts, v, kv);
  }

  @Test
  void nodeDiskRatesAndLatencyJoinedViaInstanceHost() {
    put(task("busyTimeMsPerSecond", "map", 0, T0, 1, "tm_1", "10_0_0_5")); // Flink sanitized
    out.clear();
    String[] l = {"instance", "10.0.0.5:9100", "job", "node", "device", "nvme0n1"};
    String[] loop = {"instance", "10.0.0.5:9100", "job", "node", "device", "loop3"};
    long t1 = T0 + 10 * S;
    put(disk("reads_completed_total", T0, 1000, l), disk("writes_completed_total", T0, 2000, l),
        disk("written_bytes_total", T0, 1e9, l), disk("io_time_seconds_total", T0, 100, l),
        disk("read_time_seconds_total", T0, 10, l), disk("write_time_seconds_total", T0, 30, l),
        disk("writes_completed_total", T0, 1, loop));
    assertThat(out).isEmpty();
    put(disk("write_time_seconds_total", t1, 32.5, l), disk("io_time_seconds_total", t1, 105.5, l),
        disk("writes_completed_total", t1, 4500, l), disk("written_bytes_total", t1, 1.524288e9, l),
        disk("read_time_seconds_total", t1, 10.5, l), disk("reads_completed_total", t1, 1500, l),
        disk("writes_completed_total", t1, 999, loop));
    String scope = "node:10.0.0.5/nvme0n1";
    assertThat(out).containsExactly(
        // (105.5 - 100) s / 10 s = 0.55
        new Observation(J, Signal.DISK_UTILIZATION, scope, t1, 0.55, "instance_host"),
        // (4500 - 2000) / 10 s = 250
        new Observation(J, Signal.DISK_WRITE_IOPS, scope, t1, 250, "instance_host"),
        // 524288000 B / 10 s = 52428800 B/s
        new Observation(J, Signal.DISK_WRITE_BYTES, scope, t1, 52428800, "instance_host"),
        // (1500 - 1000) / 10 s = 50
        new Observation(J, Signal.DISK_READ_IOPS, scope, t1, 50, "instance_host"),
        // (0.5 + 2.5) s * 1000 / (500 + 2500) ops = 1 ms
        new Observation(J, Signal.DISK_LATENCY, scope, t1, 1.0, "instance_host"));
    out.clear();
    long t2 = t1 + 10 * S;
    put(disk("reads_completed_total", t2, 10, l), // counter reset (reboot): no rate, no latency
        disk("writes_completed_total", t2, 4500, l), disk("read_time_seconds_total", t2, 11, l),
        disk("write_time_seconds_total", t2, 33, l));
    assertThat(out).containsExactly(
        new Observation(J, Signal.DISK_WRITE_IOPS, scope, t2, 0, "instance_host"));
    assertThat(x.unjoinedSamples()).isZero();
  }

  @Test
  void nodeJoinViaNodeLabelIpv6InstanceAndAlias() {
    x = new SignalExtractor(catalog,
        DetectorSettings.defaults().withHostAliases(Map.of("flink_host_a", "ip-10-1-2-3")));
    put(task("busyTimeMsPerSecond", "map", 0, T0, 1, "tm_1", "worker_1"),
        task("busyTimeMsPerSecond", "map", 1, T0, 1, "tm_2", "fd00::1"),
        task("busyTimeMsPerSecond", "map", 2, T0, 1, "tm_3", "flink_host_a"));
    out.clear();
    String[] byNode = {"instance", "192.168.1.1:9100", "node", "worker-1", "device", "sda"};
    String[] byV6 = {"instance", "[fd00::1]:9100", "device", "sdb"};
    String[] byAlias = {"instance", "ip-10-1-2-3:9100", "device", "xvda"};
    String[] none = {"instance", "elsewhere:9100", "device", "sdc"};
    for (int i = 0; i < 2; i++) {
      long t = T0 + i * 10 * S;
      put(disk("io_time_seconds_total", t, 4 * i, byNode), disk("io_time_seconds_total", t, 2 * i, byV6),
          disk("io_time_seconds_total", t, i, byAlias), disk("io_time_seconds_total", t, i, none));
    }
    long t1 = T0 + 10 * S;
    assertThat(out).containsExactly(
        new Observation(J, Signal.DISK_UTILIZATION, "node:worker-1/sda", t1, 0.4, "host_label"),
        new Observation(J, Signal.DISK_UTILIZATION, "node:fd00::1/sdb", t1, 0.2, "instance_host"),
        new Observation(J, Signal.DISK_UTILIZATION, "node:ip-10-1-2-3/xvda", t1, 0.1, "config"));
    assertThat(x.unjoinedSamples()).isEqualTo(2); // the two samples of elsewhere/sdc
    out.clear();
    // the unjoined disk kept its state: once a job runs there, the next sample has a rate
    put(task("busyTimeMsPerSecond", "map", 3, t1, 1, "tm_4", "elsewhere"));
    out.clear();
    put(disk("io_time_seconds_total", t1 + 10 * S, 4, none));
    // (4 - 1) s / 10 s = 0.3
    assertThat(out).containsExactly(new Observation(J, Signal.DISK_UTILIZATION,
        "node:elsewhere/sdc", t1 + 10 * S, 0.3, "instance_host"));
    assertThat(SignalExtractor.instanceHost("[fd00::1]:9100")).isEqualTo("fd00::1");
    assertThat(SignalExtractor.instanceHost("fd00::1")).isEqualTo("fd00::1");
    assertThat(SignalExtractor.instanceHost("host-a")).isEqualTo("host-a");
  }

  // ------------------------------------------------------------------ cAdvisor

  @Test
  void cpuThrottlingJoinedViaPodNameOrAlias() {
    x = new SignalExtractor(catalog,
        DetectorSettings.defaults().withHostAliases(Map.of("tm-pod-x", "worker_9")));
    put(task("busyTimeMsPerSecond", "map", 0, T0, 1, "flink_taskmanager_1_1", null),
        task("busyTimeMsPerSecond", "map", 1, T0, 1, "other_tm", "worker_9"));
    out.clear();
    String[] pod = {"pod", "flink-taskmanager-1-1", "container", "flink-main-container",
        "namespace", "ns"};
    String[] aliased = {"pod", "tm-pod-x", "container", "c"};
    String[] pause = {"pod", "flink-taskmanager-1-1", "container", "POD"};
    String p = "container_cpu_cfs_periods_total";
    String th = "container_cpu_cfs_throttled_periods_total";
    long t1 = T0 + 10 * S;
    long t2 = t1 + 10 * S;
    put(raw(p, T0, 1000, pod), raw(th, T0, 100, pod), raw(p, T0, 50, aliased),
        raw(th, T0, 0, aliased), raw(p, T0, 5, pause), raw(th, T0, 5, pause));
    put(raw(th, t1, 125, pod), raw(p, t1, 1100, pod), raw(p, t1, 90, aliased),
        raw(th, t1, 10, aliased), raw(p, t1, 9, pause), raw(th, t1, 9, pause));
    put(raw(p, t2, 1100, pod), raw(th, t2, 125, pod)); // no periods elapsed: skipped
    assertThat(out).containsExactly(
        // (125 - 100) / (1100 - 1000) = 0.25
        new Observation(J, Signal.CPU_THROTTLING, "container:flink-taskmanager-1-1/flink-main-container",
            t1, 0.25, "pod_tm_id"),
        // (10 - 0) / (90 - 50) = 0.25
        new Observation(J, Signal.CPU_THROTTLING, "container:tm-pod-x/c", t1, 0.25, "config"));
  }

  @Test
  void seriesEndReleasesTheJobJoin() {
    In t = task("busyTimeMsPerSecond", "map", 0, T0, 1, "tm_1", "worker_1");
    put(t);
    String[] l = {"instance", "worker-1:9100", "device", "sda"};
    put(disk("io_time_seconds_total", T0, 0, l));
    end(t);
    put(disk("io_time_seconds_total", T0 + 10 * S, 1, l));
    assertThat(take(Signal.DISK_UTILIZATION)).isEmpty();
    assertThat(x.unjoinedSamples()).isEqualTo(1); // only the sample after the task ended
  }

  @Test
  void aTrackedSeriesGivesWhatTheLabelSetGives() {
    // job frames (whose job_id the tracked state keeps), a restart under a new job_id, task
    // gauges and a series that ends and comes back
    List<In> ins = new ArrayList<>();
    for (int k = 0; k < 12; k++) {
      long ts = T0 + k * 15 * S;
      String jobId = k < 6 ? "a1" : "b2";
      ins.add(job(jobId, "lastCheckpointDuration", ts, 1000 + 10 * k));
      ins.add(job(jobId, "lastCompletedCheckpointId", ts, k));
      ins.add(job(jobId, "numberOfFailedCheckpoints", ts, k / 3));
      ins.add(task("busyTimeMsPerSecond", ts, 100 + k));
      ins.add(task("checkpointStartDelayNanos", ts, k % 4 * 1e6));
    }
    SignalExtractor byLabels = new SignalExtractor(catalog, DetectorSettings.defaults());
    SignalExtractor byState = new SignalExtractor(catalog, DetectorSettings.defaults());
    List<Observation> expected = new ArrayList<>();
    List<Observation> actual = new ArrayList<>();
    java.util.Map<Labels, SignalExtractor.Series> states = new java.util.HashMap<>();
    for (int i = 0; i < ins.size(); i++) {
      In in = ins.get(i);
      MetricRule r = catalog.ruleFor(in.name);
      if (i == 23) { // the busy series of the fifth scrape ends instead
        byLabels.onSeriesEnd(r, in.labels, in.ts, expected::add);
        byState.onSeriesEnd(r, in.labels, in.ts, actual::add);
        SignalExtractor.Series ended = states.remove(in.labels);
        org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> byState.onSample(ended, in.ts + 1, 1, actual::add))
            .isInstanceOf(IllegalStateException.class);
        continue;
      }
      byLabels.onSample(r, in.labels, in.ts, in.value, expected::add);
      SignalExtractor.Series s = states.computeIfAbsent(in.labels,
          l -> byState.track(r, l));
      byState.onSample(s, in.ts, in.value, actual::add);
    }
    byLabels.flush(T0 + 60 * 15 * S, expected::add);
    byState.flush(T0 + 60 * 15 * S, actual::add);
    assertThat(expected).extracting(Observation::signal).contains(Signal.CHECKPOINT_DURATION,
        Signal.BUSY, Signal.CHECKPOINT_START_DELAY, Signal.CHECKPOINT_FAILURES);
    assertThat(actual).isEqualTo(expected);
    assertThat(byState.restarts(J)).isEqualTo(byLabels.restarts(J)).hasSize(2);
  }
}
