package dev.checkpointdoctor.eval.family2;

import java.util.List;

/**
 * Everything drawn for one simulated job before it is played: its cluster, workload,
 * checkpointing, scrape setup, noise, faults and life-cycle events. Playing a plan is
 * deterministic: every random choice made while playing comes from {@link #seed}.
 *
 * @param name scenario name (unique in a corpus)
 * @param jobName Flink's {@code job_name} label as the reporter exports it (sanitized)
 * @param expected a cause id, or {@code healthy}
 * @param control for healthy controls, which behaviour it exercises (else null)
 * @param faults the faults, primary (root cause) first; empty for a control
 * @param incidents benign one-off disturbances (a slow upload), cause {@code incident}
 * @param lifecycle submissions, redeploys, rescales and lost TaskManagers, in time order
 */
record JobPlan(String name, String jobName, String expected, String control, long seed,
    long startMs, long endMs, Cluster cluster, Workload workload, Checkpointing checkpointing,
    ScrapeSpec scrape, NoiseSpec noise, List<FaultPlan> faults, List<FaultPlan> incidents,
    List<Lifecycle> lifecycle) {

  JobPlan {
    faults = List.copyOf(faults);
    incidents = List.copyOf(incidents);
    lifecycle = List.copyOf(lifecycle);
  }

  FaultPlan primary() {
    return faults.isEmpty() ? null : faults.get(0);
  }

  JobPlan withTimes(long newEndMs) {
    return new JobPlan(name, jobName, expected, control, seed, startMs, newEndMs, cluster,
        workload, checkpointing, scrape, noise, faults, incidents, lifecycle);
  }

  /** Flink release whose metric names the job exports. */
  enum FlinkVersion {
    V1_20_3("1.20.3"), V2_3_0("2.3.0");

    final String id;

    FlinkVersion(String id) {
      this.id = id;
    }

    /** {@code lastCheckpointCompletedTimestamp} exists from Flink 2.0 on. */
    boolean hasCompletedTimestamp() {
      return this == V2_3_0;
    }
  }

  /** Where keyed state lives. */
  enum Backend {
    ROCKSDB, HASHMAP
  }

  /** RocksDB's {@code column-family-as-variable}: a label, or the state name in the metric name. */
  enum RocksShape {
    COLUMN_FAMILY_LABEL, PER_STATE_NAME, NONE
  }

  /** Where checkpoints are written. */
  enum Storage {
    S3, HDFS, NFS
  }

  /**
   * The deployment.
   *
   * @param volumeGiB size of the RocksDB data volume (gp2 baseline = 3 IOPS/GiB)
   * @param peakCpuShare wanted CPU / CPU limit of a TaskManager at the daily peak, which sizes
   *     the Kubernetes CPU limit (limit = request, limit-factor 1)
   * @param heapBytes TaskManager JVM heap max
   * @param template which job graph (0..3, see {@link JobGraph})
   */
  record Cluster(FlinkVersion version, Layout.Kind layout, Backend backend, RocksShape rocksShape,
      int parallelism, int taskManagers, int nodes, DiskVolume.Kind volumeKind, double volumeGiB,
      double provisionedIops, double peakCpuShare, double heapBytes, String[] collectors,
      int template, String namespace, String clusterId, boolean legacySource) {}

  /**
   * The load and the state.
   *
   * @param recordsPerSecond mean source rate at the daily mean
   * @param dailyAmplitude relative half-swing of the daily cycle (0 = flat)
   * @param peakHourUtc hour of the daily maximum
   * @param weekendFactor load on Saturday and Sunday relative to weekdays (1 = none)
   * @param peakUtilization busy share of the busiest vertex at the daily peak
   * @param stateBytes total keyed state at the start
   * @param driftPerHour natural relative state growth per hour (healthy: well below 0.02)
   * @param writeBytesPerRecord bytes written into state per record on a stateful vertex
   * @param uploadBytesPerSecond checkpoint upload bandwidth per TaskManager
   * @param fileLatencyMs per-file latency of the checkpoint storage
   * @param fixedCheckpointSeconds per-checkpoint cost that does not scale with bytes (many
   *     small files, metadata, coordination)
   * @param compactionMargin RocksDB compaction capacity / compaction need at the daily peak
   */
  record Workload(double recordsPerSecond, double recordBytes, double dailyAmplitude,
      double peakHourUtc, double weekendFactor, double peakUtilization, double stateBytes,
      double driftPerHour, double writeBytesPerRecord, Storage storage,
      double uploadBytesPerSecond, double fileLatencyMs, double fixedCheckpointSeconds,
      double backgroundIops, double compactionMargin) {}

  /**
   * @param buffersPerChannel {@code taskmanager.network.memory.buffers-per-channel}
   * @param floatingBuffers {@code taskmanager.network.memory.floating-buffers-per-gate}
   */
  record Checkpointing(long intervalMs, long timeoutMs, long minPauseMs, boolean incremental,
      boolean unaligned, int buffersPerChannel, int floatingBuffers) {}

  /**
   * @param flinkSeconds scrape interval of the JobManager and TaskManager targets
   * @param nodeSeconds node_exporter scrape interval
   * @param kubeletSeconds cAdvisor scrape interval
   * @param failedScrapeRate probability that one scrape of one target fails (Prometheus then
   *     marks all its series stale)
   */
  record ScrapeSpec(int flinkSeconds, int nodeSeconds, int kubeletSeconds,
      double failedScrapeRate) {}

  /**
   * @param sigma relative standard deviation of the AR(1) noise on rates and costs
   * @param correlationSeconds its correlation time
   * @param nu degrees of freedom of its innovations (heavy tails)
   * @param regimesPerHour hazard of a level shift
   * @param regimeSigma log-standard deviation of a level shift
   */
  record NoiseSpec(double sigma, double correlationSeconds, int nu, double regimesPerHour,
      double regimeSigma) {}

  /**
   * One fault.
   *
   * @param startMs the first moment the fault is physically present
   * @param severity how strong at full strength; meaning per cause (see {@link Faults})
   * @param variant the mechanism, per cause (e.g. {@code load_rise}, {@code neighbour_io})
   */
  record FaultPlan(String cause, long startMs, Ramp ramp, long rampMs, double severity,
      String variant) {}

  /** A change of the running job. */
  record Lifecycle(Kind kind, long atMs, int parallelism, long intervalMs, long downtimeMs) {
    enum Kind {
      /** The job is submitted within the history (no job series before). */
      SUBMIT,
      /** Stop with savepoint and start again: new job_id, counters reset, new pods. */
      REDEPLOY,
      /** Adaptive-scheduler rescale: same job_id, restart, new subtask series. */
      RESCALE,
      /** A TaskManager pod or host is lost: restart from the last checkpoint, new TM. */
      TM_LOST
    }
  }
}
