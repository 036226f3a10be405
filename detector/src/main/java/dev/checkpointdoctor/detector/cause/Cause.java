package dev.checkpointdoctor.detector.cause;

import java.util.Locale;

/**
 * The causes the ranker can name. {@link #id()} is what the API and alert labels carry; the docs
 * page doubles as the Alertmanager runbook.
 */
public enum Cause {
  DISK_THROTTLING(
      "Move RocksDB's working directory (state.backend.rocksdb.localdir) to a local NVMe/SSD, or "
          + "give the volume a sustained IOPS budget: gp3 (3,000 IOPS baseline, provisionable) or "
          + "io2 provisioned IOPS instead of burstable gp2/st1/sc1, or a larger gp2 volume."),
  LOCAL_DISK_SLOW(
      "Move RocksDB's working directory (state.backend.rocksdb.localdir) off the slow volume to "
          + "a local SSD or NVMe disk (on Kubernetes an emptyDir or local persistent volume, not "
          + "NFS, EFS or a network block device shared with other workloads); check the device "
          + "for errors and neighbours (iostat -x, dmesg); with incremental checkpoints the "
          + "uploads read the same disk."),
  STATE_GROWTH(
      "Bound the state: set state TTL (StateTtlConfig) on keyed state that is never cleared, use "
          + "RocksDB with incremental checkpoints (execution.checkpointing.incremental: true), "
          + "raise parallelism to spread the state, and raise execution.checkpointing.timeout "
          + "only as a stop-gap."),
  BACKPRESSURE(
      "Scale or speed up the bottleneck operator (raise its parallelism, batch or make the sink "
          + "asynchronous); let barriers overtake data with unaligned checkpoints "
          + "(execution.checkpointing.unaligned.enabled: true) and enable buffer debloating "
          + "(taskmanager.network.memory.buffer-debloat.enabled: true)."),
  UNALIGNED_CHECKPOINT_INFLATION(
      "Remove the back-pressure that fills the buffers; enable buffer debloating "
          + "(taskmanager.network.memory.buffer-debloat.enabled: true), start aligned and switch "
          + "late with execution.checkpointing.aligned-checkpoint-timeout (e.g. 30 s), and use "
          + "fewer network buffers; avoid unaligned checkpoints when checkpoint storage I/O is "
          + "the bottleneck."),
  ROCKSDB_WRITE_STALL(
      "Give RocksDB more background threads (state.backend.rocksdb.thread.num, default 2) and "
          + "more managed memory (taskmanager.memory.managed.fraction, "
          + "state.backend.rocksdb.memory.write-buffer-ratio); keep "
          + "state.backend.rocksdb.localdir on a fast local disk; fewer states per operator."),
  GC_PRESSURE(
      "Move large state off the heap (state.backend.type: rocksdb), give the TaskManagers a "
          + "larger heap (taskmanager.memory.task.heap.size) or more TaskManagers, and bound the "
          + "state with TTL."),
  CHECKPOINT_STORAGE_SLOW(
      "Check the checkpoint store (HDFS NameNode/DataNodes, S3 request rates and throttling, "
          + "network to it); enable file merging (execution.checkpointing.file-merging.enabled) "
          + "for many small files; raise execution.checkpointing.timeout while the store is "
          + "fixed. An HDFS LeaseExpiredException after an expired checkpoint is a symptom of "
          + "the expiry, not the cause."),
  DATA_SKEW(
      "Spread the hot key: salt it and aggregate in two phases, pre-aggregate before the keyBy, "
          + "or rebalance; raise parallelism and pipeline.max-parallelism so key groups spread "
          + "more evenly."),
  CPU_THROTTLING(
      "Raise the TaskManager CPU limit (kubernetes.taskmanager.cpu.limit-factor above 1.0, or a "
          + "higher kubernetes.taskmanager.cpu), remove the CPU limit, or run more TaskManagers "
          + "with fewer slots each."),
  CHECKPOINT_INTERVAL_TOO_SHORT(
      "Leave room between checkpoints: set execution.checkpointing.min-pause (e.g. half the "
          + "interval), raise execution.checkpointing.interval above the usual checkpoint "
          + "duration, or make checkpoints faster (incremental RocksDB checkpoints)."),
  UNKNOWN(
      "No known cause matches the evidence well enough; compare the anomalous signals listed "
          + "with the job's checkpoint history (Flink web UI, Checkpoints tab) and the "
          + "TaskManager logs.");

  private final String id;
  private final String remedy;

  Cause(String remedy) {
    this.id = name().toLowerCase(Locale.ROOT);
    this.remedy = remedy;
  }

  public String id() {
    return id;
  }

  public String remedy() {
    return remedy;
  }

  /** Repository-relative runbook page. */
  public String docsUrl() {
    return "docs/causes/" + id + ".md";
  }
}
