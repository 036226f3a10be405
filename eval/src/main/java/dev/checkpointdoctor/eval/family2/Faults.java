package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.JobPlan.FaultPlan;
import java.util.List;

/**
 * What the job's faults change at an instant, as knobs of the physics. A fault never sets a
 * symptom directly: it changes a capacity, a cost, a demand or a bandwidth, and the symptoms
 * (busy, back-pressure, stalls, durations, sizes) follow from the model, with its lags.
 *
 * <p>{@code severity} is in [0, 1] and is mapped onto each mechanism relative to the job's own
 * healthy operating point (its {@link Calibration}), so that a fault is real for the job at
 * hand (a slower sink binds even at the night-time load) without ever touching the symptoms.
 */
final class Faults {
  static final String DISK = "disk_throttling";
  static final String STATE = "state_growth";
  static final String BACKPRESSURE = "backpressure";
  static final String UNALIGNED = "unaligned_checkpoint_inflation";
  static final String ROCKSDB = "rocksdb_write_stall";
  static final String GC = "gc_pressure";
  static final String STORAGE = "checkpoint_storage_slow";
  static final String SKEW = "data_skew";
  static final String CPU = "cpu_throttling";
  static final String INTERVAL = "checkpoint_interval_too_short";
  static final List<String> CAUSES = List.of(DISK, STATE, BACKPRESSURE, UNALIGNED, ROCKSDB, GC,
      STORAGE, SKEW, CPU, INTERVAL);

  /**
   * The healthy operating point a fault is sized against.
   *
   * @param lowLoadUtilization utilization of the vertex a back-pressure fault slows, at the
   *     lowest load the fault window will see
   * @param lowLoadKeyedUtilization utilization of the keyed vertex at that load
   * @param peakCpuShare wanted CPU / quota of the busiest TaskManager at the daily peak
   * @param compactionMargin compaction capacity / compaction need at the lowest load
   * @param diskBaselineIops baseline IOPS of the data volume
   * @param stateBytes total state at the start
   * @param liveOccupancy healthy live set / heap max
   * @param parallelism subtasks of the keyed vertex
   */
  record Calibration(double lowLoadUtilization, double lowLoadKeyedUtilization,
      double peakCpuShare,
      double compactionMargin, double diskBaselineIops, double stateBytes, double liveOccupancy,
      int parallelism) {}

  private final List<FaultPlan> faults;
  private final List<FaultPlan> incidents;
  private final Calibration cal;

  // knobs, recomputed by at()
  double loadFactor;
  double bottleneckCapacity;
  double cpuCostFactor;
  /** CPU wanted outside the task threads, as a share of the container's limit. */
  double extraCpuShare;
  double extraDiskIops;
  double extraReadFraction;
  double writeFactor;
  double compactionSlowdown;
  double liveOccupancyTarget;
  double stateGrowthPerSecond;
  double uploadFactor;
  double fileLatencyFactor;
  double hangProbability;
  double hotExtraShare;

  Faults(List<FaultPlan> faults, List<FaultPlan> incidents, Calibration cal) {
    this.faults = faults;
    this.incidents = incidents;
    this.cal = cal;
    at(Long.MIN_VALUE);
  }

  void at(long t) {
    loadFactor = 1;
    bottleneckCapacity = 1;
    cpuCostFactor = 1;
    extraCpuShare = 0;
    extraDiskIops = 0;
    extraReadFraction = 0;
    writeFactor = 1;
    compactionSlowdown = 1;
    liveOccupancyTarget = 0;
    stateGrowthPerSecond = 0;
    uploadFactor = 1;
    fileLatencyFactor = 1;
    hangProbability = 0;
    hotExtraShare = 0;
    for (FaultPlan f : faults) {
      double s = f.ramp().at(t, f.startMs(), f.rampMs());
      if (s <= 0 || f.cause().equals(INTERVAL)) {
        continue; // the interval change is a redeploy (a life-cycle event), not a knob
      }
      apply(f, s);
    }
    for (FaultPlan f : incidents) {
      // a one-off: the checkpoint storage is slow (or an upload hangs) for rampMs, then fine
      if (t >= f.startMs() && t < f.startMs() + f.rampMs()) {
        uploadFactor /= 8 + 40 * f.severity();
        if (f.severity() > 0.8) {
          hangProbability = 1;
        }
      }
    }
  }

  /**
   * Extra I/O demand of a disk fault: a multiple of the volume's baseline, and at least enough
   * to drain the credit bucket within a few hours.
   */
  static double diskExtraIops(double baselineIops, double severity) {
    // stays under the 3,000 IOPS burst with the job's own demand: served until the credits go
    return Math.min(2300, Math.max(baselineIops * (1.2 + 3 * severity), 600 + 1400 * severity));
  }

  private void apply(FaultPlan f, double s) {
    double sev = f.severity();
    switch (f.cause()) {
      case DISK -> {
        // an I/O demand of 1,000-3,000 IOPS more: a burstable volume serves it from its credits
        // (draining the 5.4 M bucket in tens of minutes), then only its baseline
        double extra = diskExtraIops(cal.diskBaselineIops(), sev);
        if (f.variant().equals("load_rise")) {
          loadFactor *= 1 + s * (0.1 + 0.15 * sev);
          extraDiskIops += s * extra * 0.8;
        } else {
          extraDiskIops += s * extra;
        }
        if (f.variant().equals("cache_miss")) {
          extraReadFraction = 0.85;
        } else if (f.variant().equals("neighbour_io")) {
          extraReadFraction = 0.3;
        }
      }
      case STATE -> stateGrowthPerSecond += s * cal.stateBytes() * (0.05 + 0.3 * sev) / 3600;
      case BACKPRESSURE, UNALIGNED -> {
        // the bottleneck binds even at the lowest load: new capacity below that demand
        double keep = cal.lowLoadUtilization() * (0.4 + 0.4 * (1 - sev));
        bottleneckCapacity *= 1 - s * (1 - keep);
      }
      case ROCKSDB -> {
        double factor = cal.compactionMargin() * (1.2 + 1.3 * sev);
        if (f.variant().equals("write_burst")) {
          writeFactor *= 1 + s * (factor - 1);
        } else {
          compactionSlowdown *= 1 + s * (factor - 1);
        }
      }
      case GC -> liveOccupancyTarget = Math.max(liveOccupancyTarget,
          cal.liveOccupancy() + s * (0.88 + 0.07 * sev - cal.liveOccupancy()));
      case STORAGE -> {
        // a slow store is slow per request and per byte; one of the two dominates
        switch (f.variant()) {
          case "bandwidth" -> {
            uploadFactor /= 1 + s * (6 + 30 * sev);
            fileLatencyFactor *= 1 + s * (3 + 8 * sev);
          }
          case "latency" -> {
            fileLatencyFactor *= 1 + s * (15 + 60 * sev);
            uploadFactor /= 1 + s * 2;
          }
          default -> {
            hangProbability = Math.max(hangProbability, s * (0.3 + 0.5 * sev));
            uploadFactor /= 1 + s * 3;
          }
        }
      }
      case SKEW -> {
        // the hot subtask's demand reaches 1.25-2.2x its capacity at the lowest load ("mild":
        // 0.8x: one subtask far busier than its peers without binding)
        int p = cal.parallelism();
        double fair = 1.0 / p;
        double target = f.variant().equals("mild") ? 0.8 : 1.25 + 0.95 * sev;
        double share = Math.min(0.9,
            fair * target / Math.max(0.05, cal.lowLoadKeyedUtilization()));
        hotExtraShare = Math.max(hotExtraShare, s * Math.max(0, (share - fair) / (1 - fair)));
      }
      case CPU -> {
        // the containers want 1.2-2.1x their CPU limit around the daily peak (the fault window
        // is planned around it): more traffic (up to 2.2x) or a costlier record (up to 3x)
        double target = 1.2 + 0.9 * sev;
        double factor = Math.max(1.2, target / Math.max(0.2, cal.peakCpuShare() * 0.85));
        if (f.variant().equals("load_rise")) {
          double load = Math.min(2.2, factor);
          loadFactor *= 1 + s * (load - 1);
          cpuCostFactor *= 1 + s * (Math.min(3, factor / load) - 1);
          // more records also means more network, serialisation and allocation work in the
          // threads around the tasks
          extraCpuShare += s * Math.max(0.2, (target - cal.peakCpuShare() * 0.85) * 0.5);
        } else {
          // CPU spent outside the task threads (TLS on the data plane, network compression,
          // a costlier serializer in the I/O threads): the whole container wants more
          extraCpuShare += s * Math.max(0.3, target - cal.peakCpuShare() * 0.85);
          cpuCostFactor *= 1 + s * 0.3;
        }
      }
      default -> { }
    }
  }
}
