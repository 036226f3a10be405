package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.detector.model.Labels;

/**
 * One exported series: its label set (built once per deployment) and where its value comes
 * from in the physics.
 *
 * @param v vertex, or node index, or TaskManager index, per kind
 * @param i subtask, or collector, or column family, per kind
 * @param cf column family index for RocksDB property series
 */
record Series(Labels labels, Kind kind, int v, int i, int cf) {

  /** What the series measures. */
  enum Kind {
    CP_DURATION("flink_jobmanager_job_lastCheckpointDuration"),
    CP_SIZE("flink_jobmanager_job_lastCheckpointSize"),
    CP_FULL_SIZE("flink_jobmanager_job_lastCheckpointFullSize"),
    CP_PERSISTED("flink_jobmanager_job_lastCheckpointPersistedData"),
    CP_COMPLETED_ID("flink_jobmanager_job_lastCompletedCheckpointId"),
    CP_COMPLETED("flink_jobmanager_job_numberOfCompletedCheckpoints"),
    CP_FAILED("flink_jobmanager_job_numberOfFailedCheckpoints"),
    CP_IN_PROGRESS("flink_jobmanager_job_numberOfInProgressCheckpoints"),
    CP_COMPLETED_TS("flink_jobmanager_job_lastCheckpointCompletedTimestamp"),
    RESTARTS("flink_jobmanager_job_numRestarts"),
    START_DELAY("flink_taskmanager_job_task_checkpointStartDelayNanos"),
    ALIGNMENT("flink_taskmanager_job_task_checkpointAlignmentTime"),
    BACKPRESSURED("flink_taskmanager_job_task_backPressuredTimeMsPerSecond"),
    BUSY("flink_taskmanager_job_task_busyTimeMsPerSecond"),
    RECORDS_IN("flink_taskmanager_job_task_numRecordsInPerSecond"),
    RDB_PENDING("estimate_pending_compaction_bytes"),
    RDB_DELAYED("actual_delayed_write_rate"),
    RDB_STOPPED("is_write_stopped"),
    RDB_L0("num_files_at_level0"),
    RDB_STALL("flink_taskmanager_job_task_operator_rocksdb_stall_micros"),
    GC_RATE("flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond"),
    GC_TIME(null),
    HEAP_USED("flink_taskmanager_Status_JVM_Memory_Heap_Used"),
    HEAP_MAX("flink_taskmanager_Status_JVM_Memory_Heap_Max"),
    DISK_READS("node_disk_reads_completed_total"),
    DISK_WRITES("node_disk_writes_completed_total"),
    DISK_WRITTEN_BYTES("node_disk_written_bytes_total"),
    DISK_IO_TIME("node_disk_io_time_seconds_total"),
    DISK_READ_TIME("node_disk_read_time_seconds_total"),
    DISK_WRITE_TIME("node_disk_write_time_seconds_total"),
    CFS_PERIODS("container_cpu_cfs_periods_total"),
    CFS_THROTTLED("container_cpu_cfs_throttled_periods_total");

    /** The metric name, or for RocksDB properties the property suffix. */
    final String metric;

    Kind(String metric) {
      this.metric = metric;
    }
  }
}
