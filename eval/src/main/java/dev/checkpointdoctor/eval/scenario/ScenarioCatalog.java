package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.eval.scenario.ScenarioSpec.Control;
import dev.checkpointdoctor.eval.scenario.ScenarioSpec.Fault;
import dev.checkpointdoctor.eval.scenario.ScenarioSpec.RocksDbShape;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The corpus: two scenarios per cause and the healthy controls. Deployment shapes (Flink version,
 * RocksDB naming, Kubernetes or not, parallelism, scrape and checkpoint intervals) are fixed per
 * scenario so the corpus covers them on purpose; scales, noise and severity are drawn from the
 * seed. Sizes are chosen so the whole gzip'd corpus stays a few megabytes.
 */
final class ScenarioCatalog {
  private static final String V1 = "1.20.3";
  private static final String V2 = "2.3.0";
  private static final RocksDbShape CF = RocksDbShape.COLUMN_FAMILY_LABEL;
  private static final RocksDbShape PS = RocksDbShape.PER_STATE_NAME;

  private ScenarioCatalog() {}

  static List<ScenarioSpec> all(long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    List<ScenarioSpec> out = new ArrayList<>();
    Builder b = new Builder(rng, out);
    b.fault("disk_throttling_gp2_a", Fault.DISK_THROTTLING, V2, CF, false, 4, 2, 30, 60, 0.9,
        "gp2 volume of the first TaskManager's host runs out of burst credits: IOPS flat at the "
            + "volume baseline, disk busy ~100 %, latency x30, RocksDB delayed writes and stalls, "
            + "checkpoints slower, state size flat.");
    b.fault("disk_throttling_gp2_b", Fault.DISK_THROTTLING, V1, PS, true, 2, 2, 15, 120, 1.1,
        "Single TaskManager on Kubernetes (node_exporter with a node label), per-state RocksDB "
            + "metric names; the node's burst bucket empties.");
    b.fault("state_growth_a", Fault.STATE_GROWTH, V2, CF, false, 3, 3, 30, 60, 1.4,
        "Keyed state without TTL starts growing fast (new keys never expire); incremental "
            + "checkpoints, size and duration rise together.");
    b.fault("state_growth_b", Fault.STATE_GROWTH, V1, PS, false, 6, 3, 60, 120, 1.2,
        "Full (non-incremental) checkpoints; full size trends up and the duration tracks it.");
    b.fault("backpressure_sink_a", Fault.BACKPRESSURE, V1, CF, false, 4, 2, 15, 60, 1.0,
        "The sink's external system slows down: sink busy ~1000 ms/s, upstream back-pressured, "
            + "barriers delayed (start delay and alignment up), aligned checkpoints slower.");
    b.fault("backpressure_sink_b", Fault.BACKPRESSURE, V2, PS, true, 8, 4, 60, 120, 0.9,
        "Parallelism 8 on Kubernetes; the sink becomes the bottleneck.");
    b.fault("unaligned_inflation_a", Fault.UNALIGNED_CHECKPOINT_INFLATION, V2, CF, false, 4, 2, 30,
        60, 1.0, "Unaligned checkpoints under new back-pressure from the sink: persisted in-flight "
            + "data jumps from a few MB to hundreds of MB, checkpoint size and duration up, "
            + "alignment zero.");
    b.fault("unaligned_inflation_b", Fault.UNALIGNED_CHECKPOINT_INFLATION, V1, PS, false, 2, 1, 15,
        30, 1.2, "Unaligned checkpoints every 30 s; a slower sink fills the buffers.");
    b.fault("rocksdb_write_stall_a", Fault.ROCKSDB_WRITE_STALL, V2, CF, false, 4, 2, 30, 120, 1.0,
        "Compaction cannot keep up (too few background threads for the write rate): L0 files "
            + "over the slowdown trigger, pending compaction bytes climbing, delayed and stopped "
            + "writes, stall time up; the disk is busier but not saturated or flat.");
    b.fault("rocksdb_write_stall_b", Fault.ROCKSDB_WRITE_STALL, V1, PS, true, 6, 3, 60, 60, 1.1,
        "Write stall on all RocksDB instances of a Kubernetes deployment, per-state metric names.");
    b.fault("gc_pressure_heap_a", Fault.GC_PRESSURE, V1, RocksDbShape.NONE, false, 2, 2, 15, 60,
        1.0, "Heap (hashmap) state backend fills the heap: heap ~93 %, GC time several hundred "
            + "ms/s, busy up with lower throughput, synchronous checkpoint phase slower.");
    b.fault("gc_pressure_b", Fault.GC_PRESSURE, V2, CF, false, 4, 4, 30, 120, 1.2,
        "GC pressure on the TaskManager of a RocksDB job (large on-heap caches).");
    b.fault("storage_slow_stuck_a", Fault.CHECKPOINT_STORAGE_SLOW, V2, CF, false, 4, 2, 30, 60,
        1.5, "Checkpoint storage stops answering in time: no checkpoint completes, one always in "
            + "progress, checkpoint age grows, a failure (expiry) every 10 minutes; no local "
            + "saturation, no back-pressure, no growth.");
    b.fault("storage_slow_partial_b", Fault.CHECKPOINT_STORAGE_SLOW, V1, PS, false, 2, 2, 15, 120,
        0.7, "Flink 1.20 (no completed-timestamp gauge): uploads slow down so much that some "
            + "checkpoints finish after 7-10 minutes and others expire.");
    b.fault("data_skew_a", Fault.DATA_SKEW, V2, CF, false, 8, 4, 60, 60, 1.0,
        "A hot key lands on one subtask of the keyed operator: that subtask busy ~1000 ms/s and "
            + "far more records in than its peers, its barrier start delay far above its peers', "
            + "sources back-pressured.");
    b.fault("data_skew_b", Fault.DATA_SKEW, V1, CF, true, 4, 2, 15, 120, 1.2,
        "Hot key on one of four subtasks, Kubernetes deployment.");
    b.fault("cpu_throttling_a", Fault.CPU_THROTTLING, V2, CF, true, 4, 2, 30, 60, 1.2,
        "CPU limit hit on every TaskManager pod (CFS throttled periods 50-80 %): busy up, "
            + "back-pressure, async checkpoint phase slower; no GC, disk or storage trouble.");
    b.fault("cpu_throttling_b", Fault.CPU_THROTTLING, V1, PS, true, 2, 1, 15, 120, 0.9,
        "CPU throttling on one of two TaskManager pods.");
    b.fault("interval_too_short_a", Fault.CHECKPOINT_INTERVAL_TOO_SHORT, V2, CF, false, 2, 2, 15,
        30, 1.0, "Checkpoint interval 30 s; a backfill doubles the input, checkpoints grow to the "
            + "length of the interval and run back to back (one always in progress).");
    b.fault("interval_too_short_b", Fault.CHECKPOINT_INTERVAL_TOO_SHORT, V1, PS, false, 4, 2, 30,
        60, 1.1, "Interval 60 s on Flink 1.20; duration reaches the interval after a load step.");
    b.control("healthy_daily_load", Control.DAILY_LOAD, V2, CF, false, 1, 1, 60, 120, 50,
        "Two days and two hours of a daily load cycle (+-40 %): sizes and durations follow the "
            + "load; nothing is wrong.");
    b.control("healthy_restart", Control.RESTART, V1, PS, false, 4, 2, 30, 60, 4,
        "The job is resubmitted after 3 h: new job_id, counters reset, gauges -1 until the first "
            + "checkpoint; nothing is wrong.");
    b.control("healthy_isolated_slow_checkpoint", Control.ISOLATED_SLOW_CHECKPOINT, V2, CF, true,
        3, 3, 15, 60, 4, "One checkpoint after 3 h takes 6x as long (a retried upload); "
            + "everything before and after is normal.");
    return out;
  }

  private static final class Builder {
    private final SplittableRandom rng;
    private final List<ScenarioSpec> out;

    Builder(SplittableRandom rng, List<ScenarioSpec> out) {
      this.rng = rng;
      this.out = out;
    }

    void fault(String name, Fault fault, String version, RocksDbShape shape, boolean k8s, int p,
        int slots, int scrape, int interval, double severity, String description) {
      boolean unaligned = fault == Fault.UNALIGNED_CHECKPOINT_INFLATION;
      boolean incremental = !name.equals("state_growth_b") && shape != RocksDbShape.NONE;
      double normal = 2.5 + rng.nextInt(3) * 0.5;
      out.add(new ScenarioSpec(name, fault.causeId(), fault, description, version, shape, k8s, p,
          slots, scrape, interval, stateBytes(), recordsPerSecond(), noise(), incremental,
          unaligned, normal, 0.75, severity * (0.9 + 0.2 * rng.nextDouble()), Control.NONE));
    }

    void control(String name, Control control, String version, RocksDbShape shape, boolean k8s,
        int p, int slots, int scrape, int interval, double hours, String description) {
      double normal = control == Control.DAILY_LOAD ? hours : 3;
      out.add(new ScenarioSpec(name, "healthy", null, description, version, shape, k8s, p, slots,
          scrape, interval, stateBytes(), recordsPerSecond(), noise(), true, false, normal,
          hours - normal, 1, control));
    }

    private double stateBytes() {
      return Math.pow(10, 8.5 + 2 * rng.nextDouble()); // 300 MB to 30 GB
    }

    private double recordsPerSecond() {
      return Math.rint(Math.pow(10, 3 + 2 * rng.nextDouble())); // 1 k to 100 k records/s
    }

    private double noise() {
      return 0.03 + 0.1 * rng.nextDouble();
    }
  }
}
