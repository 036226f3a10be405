package dev.checkpointdoctor.detector.catalog;

/**
 * Which raw metric a series is and, for RocksDB per-state names, the column family that the
 * metric name carries.
 *
 * @param kind the raw metric
 * @param columnFamily the column family taken from the metric name ({@code
 *     ..._operator_<state>_rocksdb_<prop>}), or null when it comes from the {@code column_family}
 *     label or does not apply
 * @param collector the GC collector name for {@code ..._GarbageCollector_<name>_Time}, else null
 */
public record MetricRule(Kind kind, String columnFamily, String collector) {

  public MetricRule(Kind kind) {
    this(kind, null, null);
  }

  /** Where the series comes from; decides how the extractor treats it. */
  public enum Source {
    JOB, TASK, TM, ROCKSDB_CF, ROCKSDB_OPERATOR, NODE, CONTAINER,
    /** node_exporter's file systems: a fact about a mount (its labels), no signal. */
    MOUNT
  }

  /** The raw metrics the detector uses. */
  public enum Kind {
    CP_DURATION(Source.JOB, "flink_jobmanager_job_lastCheckpointDuration"),
    CP_SIZE(Source.JOB, "flink_jobmanager_job_lastCheckpointSize"),
    CP_FULL_SIZE(Source.JOB, "flink_jobmanager_job_lastCheckpointFullSize"),
    CP_PERSISTED_DATA(Source.JOB, "flink_jobmanager_job_lastCheckpointPersistedData"),
    CP_COMPLETED_ID(Source.JOB, "flink_jobmanager_job_lastCompletedCheckpointId"),
    CP_COMPLETED_COUNT(Source.JOB, "flink_jobmanager_job_numberOfCompletedCheckpoints"),
    CP_FAILED_COUNT(Source.JOB, "flink_jobmanager_job_numberOfFailedCheckpoints"),
    CP_IN_PROGRESS(Source.JOB, "flink_jobmanager_job_numberOfInProgressCheckpoints"),
    CP_COMPLETED_TIMESTAMP(Source.JOB, "flink_jobmanager_job_lastCheckpointCompletedTimestamp"),
    NUM_RESTARTS(Source.JOB, "flink_jobmanager_job_numRestarts"),

    START_DELAY_NANOS(Source.TASK, "flink_taskmanager_job_task_checkpointStartDelayNanos"),
    ALIGNMENT_NANOS(Source.TASK, "flink_taskmanager_job_task_checkpointAlignmentTime"),
    BACKPRESSURED_MS_PER_S(Source.TASK, "flink_taskmanager_job_task_backPressuredTimeMsPerSecond"),
    BUSY_MS_PER_S(Source.TASK, "flink_taskmanager_job_task_busyTimeMsPerSecond"),
    RECORDS_IN_PER_S(Source.TASK, "flink_taskmanager_job_task_numRecordsInPerSecond"),

    GC_ALL_MS_PER_S(Source.TM, "flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond"),
    /** Per-collector cumulative GC time (ms); matched by pattern, see {@link SignalCatalog}. */
    GC_COLLECTOR_TIME(Source.TM, null),
    HEAP_USED(Source.TM, "flink_taskmanager_Status_JVM_Memory_Heap_Used"),
    HEAP_MAX(Source.TM, "flink_taskmanager_Status_JVM_Memory_Heap_Max"),

    RDB_PENDING_COMPACTION(Source.ROCKSDB_CF, "estimate_pending_compaction_bytes"),
    RDB_DELAYED_WRITE_RATE(Source.ROCKSDB_CF, "actual_delayed_write_rate"),
    RDB_WRITE_STOPPED(Source.ROCKSDB_CF, "is_write_stopped"),
    RDB_L0_FILES(Source.ROCKSDB_CF, "num_files_at_level0"),
    RDB_STALL_MICROS(Source.ROCKSDB_OPERATOR,
        "flink_taskmanager_job_task_operator_rocksdb_stall_micros"),

    DISK_READS(Source.NODE, "node_disk_reads_completed_total"),
    DISK_WRITES(Source.NODE, "node_disk_writes_completed_total"),
    DISK_WRITTEN_BYTES(Source.NODE, "node_disk_written_bytes_total"),
    DISK_IO_TIME(Source.NODE, "node_disk_io_time_seconds_total"),
    DISK_READ_TIME(Source.NODE, "node_disk_read_time_seconds_total"),
    DISK_WRITE_TIME(Source.NODE, "node_disk_write_time_seconds_total"),

    CFS_PERIODS(Source.CONTAINER, "container_cpu_cfs_periods_total"),
    CFS_THROTTLED_PERIODS(Source.CONTAINER, "container_cpu_cfs_throttled_periods_total"),

    /** Read for its labels (fstype, mountpoint): is RocksDB's local dir on a network mount? */
    FS_AVAIL_BYTES(Source.MOUNT, "node_filesystem_avail_bytes");

    private final Source source;
    private final String name;

    Kind(Source source, String name) {
      this.source = source;
      this.name = name;
    }

    public Source source() {
      return source;
    }

    /**
     * The exact metric name, or for {@link Source#ROCKSDB_CF} the RocksDB property suffix, or
     * null for pattern-only kinds.
     */
    public String metricName() {
      return name;
    }
  }
}
