package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.Feed.J;
import static dev.checkpointdoctor.detector.extract.Feed.S;
import static dev.checkpointdoctor.detector.extract.Feed.T0;
import static dev.checkpointdoctor.detector.extract.Feed.raw;
import static dev.checkpointdoctor.detector.extract.Feed.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@link TaskSignals}: subtask and operator series, each a signal by itself. */
class TaskSignalsTest {
  final Feed f = new Feed();

  @Test
  void busyNanIsSkippedAndStartDelayIsDeduplicated() {
    double[] delayNs = {5e6, 5e6, 9e6, 9e6, 5e6, -1};
    double[] busy = {Double.NaN, 200, Double.NaN, 300, 400, 500};
    for (int i = 0; i < delayNs.length; i++) {
      long t = T0 + i * 10 * S;
      f.put(task("checkpointStartDelayNanos", t, delayNs[i]),
          task("busyTimeMsPerSecond", t, busy[i]), task("checkpointAlignmentTime", t, 2.5e6),
          task("backPressuredTimeMsPerSecond", t, 0));
    }
    // 5e6 ns = 5 ms; repeats of the last checkpoint's value are dropped; -1 is no data
    assertThat(f.take(Signal.CHECKPOINT_START_DELAY)).containsExactly(
        new Observation(J, Signal.CHECKPOINT_START_DELAY, "task:map/0", T0, 5.0),
        new Observation(J, Signal.CHECKPOINT_START_DELAY, "task:map/0", T0 + 20 * S, 9.0),
        new Observation(J, Signal.CHECKPOINT_START_DELAY, "task:map/0", T0 + 40 * S, 5.0));
    assertThat(f.values(Signal.BUSY)).containsExactly(200.0, 300.0, 400.0, 500.0);
    assertThat(f.values(Signal.CHECKPOINT_ALIGNMENT)).containsExactly(2.5); // 2.5e6 ns, once
    assertThat(f.values(Signal.BACKPRESSURE)).hasSize(6);
  }

  @Test
  void bothRocksDbShapesGiveTheSameScope() {
    String[] op = {"job_id", "a1", "job_name", J, "operator_name", "win", "task_name", "win",
        "subtask_index", "3", "tm_id", "tm_1"};
    String[] opCf = Arrays.copyOf(op, op.length + 2);
    opCf[op.length] = "column_family";
    opCf[op.length + 1] = "window_contents";
    String p = "flink_taskmanager_job_task_operator_";
    f.put(raw(p + "column_family_rocksdb_estimate_pending_compaction_bytes", T0, 1 << 20, opCf),
        raw(p + "window_contents_rocksdb_estimate_pending_compaction_bytes", T0, 2 << 20, op),
        raw(p + "window_contents_rocksdb_num_files_at_level0", T0, 4, op),
        raw(p + "column_family_rocksdb_is_write_stopped", T0, 1, opCf),
        raw(p + "column_family_rocksdb_actual_delayed_write_rate", T0, 16 << 20, opCf));
    String scope = "operator:win/3/window_contents";
    assertThat(f.out).containsExactly(
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
    f.put(raw(name, T0, 0, op), raw(name, T0 + 10 * S, 2e6, op), // 2e6 us / 10 s = 200000 us/s
        raw(name, T0 + 20 * S, 1e5, op), // reset: nothing
        raw(name, T0 + 30 * S, 3e5, op)); // (3e5 - 1e5) / 10 s = 20000 us/s
    int tracked = f.x.trackedEntities();
    f.end(raw(name, T0 + 35 * S, 0, op));
    assertThat(f.x.trackedEntities()).isEqualTo(tracked - 1);
    f.put(raw(name, T0 + 50 * S, 9e5, op)); // after the gap: a new baseline, no rate
    assertThat(f.take(Signal.ROCKSDB_STALL)).containsExactly(
        new Observation(J, Signal.ROCKSDB_STALL, "operator:win/0", T0 + 10 * S, 200000.0),
        new Observation(J, Signal.ROCKSDB_STALL, "operator:win/0", T0 + 30 * S, 20000.0));
  }

  @Test
  void aSeriesWithoutJobNameIsCountedAsIgnored() {
    f.put(raw("flink_taskmanager_job_task_busyTimeMsPerSecond", T0, 1, "task_name", "map"));
    assertThat(f.out).isEmpty();
    assertThat(f.x.ignoredSamples()).isEqualTo(1);
  }
}
