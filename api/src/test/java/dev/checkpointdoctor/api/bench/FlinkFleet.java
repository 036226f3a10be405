package dev.checkpointdoctor.api.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The series a Prometheus scraping a fleet of Flink jobs sends: JobManager checkpoint gauges,
 * task, operator and RocksDB (per column family) metrics per subtask, TaskManager JVM metrics,
 * node_exporter on every host, and unrelated application series. Names and label sets follow
 * Flink 1.20's PrometheusReporter (sanitised values, sorted label names); most series are ones
 * the catalog does not use, as in a real scrape.
 */
public final class FlinkFleet implements Fleet {
  /** How a series' value moves from one scrape to the next. */
  public enum Shape { GAUGE, COUNTER, CHECKPOINT_ID, CHECKPOINT_DURATION }

  /** One series: its label fields pre-encoded as protobuf, and how its value evolves. */
  public record Series(byte[] labelFields, Shape shape, double base) {}

  private static final String[] JOB_METRICS = {
    "lastCheckpointDuration", "lastCheckpointSize", "lastCheckpointFullSize",
    "lastCheckpointProcessedData", "lastCheckpointPersistedData", "lastCompletedCheckpointId",
    "numberOfCompletedCheckpoints", "numberOfFailedCheckpoints", "numberOfInProgressCheckpoints",
    "totalNumberOfCheckpoints", "lastCheckpointRestoreTimestamp", "lastCheckpointExternalPath",
    "numRestarts", "uptime", "downtime", "fullRestarts"};
  private static final String[] TASK_METRICS = {
    "checkpointStartDelayNanos", "checkpointAlignmentTime", "backPressuredTimeMsPerSecond",
    "busyTimeMsPerSecond", "numRecordsInPerSecond", "idleTimeMsPerSecond", "isBackPressured",
    "softBackPressuredTimeMsPerSecond", "hardBackPressuredTimeMsPerSecond",
    "maxSoftBackPressureTimeMs", "maxHardBackPressureTimeMs", "accumulateBackPressuredTimeMs",
    "accumulateBusyTimeMs", "accumulateIdleTimeMs", "numRecordsIn", "numRecordsOut",
    "numRecordsOutPerSecond", "numBytesIn", "numBytesOut", "numBytesInPerSecond",
    "numBytesOutPerSecond", "Shuffle_Netty_Input_Buffers_inPoolUsage",
    "Shuffle_Netty_Output_Buffers_outPoolUsage", "buffers_inputQueueLength",
    "buffers_outputQueueLength"};
  private static final String[] OPERATOR_METRICS = {
    "numRecordsIn", "numRecordsOut", "numRecordsInPerSecond", "numRecordsOutPerSecond",
    "currentInputWatermark", "currentOutputWatermark", "rocksdb_block_cache_hit",
    "rocksdb_block_cache_miss", "rocksdb_bytes_read", "rocksdb_bytes_written",
    "rocksdb_compact_read_bytes", "rocksdb_compact_write_bytes", "rocksdb_stall_micros",
    "rocksdb_iter_bytes_read"};
  private static final String[] CF_METRICS = {
    "actual_delayed_write_rate", "background_errors", "block_cache_capacity", "block_cache_usage",
    "block_cache_pinned_usage", "compaction_pending", "cur_size_active_mem_table",
    "cur_size_all_mem_tables", "size_all_mem_tables", "estimate_live_data_size",
    "estimate_num_keys", "estimate_pending_compaction_bytes", "estimate_table_readers_mem",
    "is_write_stopped", "live_sst_files_size", "total_sst_files_size", "mem_table_flush_pending",
    "num_deletes_active_mem_table", "num_deletes_imm_mem_tables", "num_entries_active_mem_table",
    "num_entries_imm_mem_tables", "num_files_at_level0", "num_files_at_level1",
    "num_files_at_level2", "num_files_at_level3", "num_immutable_mem_table",
    "num_live_versions", "num_running_compactions", "num_running_flushes", "num_snapshots"};
  private static final String[] TM_METRICS = {
    "GarbageCollector_G1_Young_Generation_Count", "GarbageCollector_G1_Young_Generation_Time",
    "GarbageCollector_G1_Old_Generation_Count", "GarbageCollector_G1_Old_Generation_Time",
    "GarbageCollector_All_TimeMsPerSecond", "GarbageCollector_All_Count",
    "Memory_Heap_Used", "Memory_Heap_Committed", "Memory_Heap_Max", "Memory_NonHeap_Used",
    "Memory_NonHeap_Committed", "Memory_Metaspace_Used", "Memory_Direct_MemoryUsed",
    "Memory_Direct_Count", "Memory_Mapped_MemoryUsed", "Threads_Count", "CPU_Load", "CPU_Time",
    "ClassLoader_ClassesLoaded", "ClassLoader_ClassesUnloaded"};
  private static final String[] DISK_METRICS = {
    "node_disk_reads_completed_total", "node_disk_writes_completed_total",
    "node_disk_written_bytes_total", "node_disk_io_time_seconds_total",
    "node_disk_read_time_seconds_total", "node_disk_write_time_seconds_total",
    "node_disk_read_bytes_total", "node_disk_reads_merged_total", "node_disk_writes_merged_total",
    "node_disk_io_now", "node_disk_io_time_weighted_seconds_total"};
  private static final String[] CPU_MODES = {
    "idle", "iowait", "irq", "nice", "softirq", "steal", "system", "user"};
  private static final String[] APP_ROUTES = {"/", "/api", "/api/v1/items", "/health", "/login"};
  private static final String[] LE = {"0.005", "0.01", "0.05", "0.1", "0.5", "1", "5", "+Inf"};

  private final List<Series> series = new ArrayList<>();
  private final List<Series> used = new ArrayList<>();
  private final int usedSeries;

  /**
   * @param jobs Flink jobs; each has 4 tasks of {@code parallelism} subtasks, 2 operators per
   *     task with 2 RocksDB column families each, and 4 TaskManagers
   * @param hosts machines carrying node_exporter and an unrelated application
   */
  public FlinkFleet(int jobs, int parallelism, int hosts) {
    int used = 0;
    for (int j = 0; j < jobs; j++) {
      String jobName = "orders_enrichment_" + j;
      String jobId = String.format("%032x", 0xabcdef0000L + j);
      String jmHost = "flink_jm_" + j;
      for (String m : JOB_METRICS) {
        used += add(Map.of("__name__", "flink_jobmanager_job_" + m, "host", jmHost, "instance",
            jmHost + ":9249", "job", "flink", "job_id", jobId, "job_name", jobName), jobShape(m),
            m.equals("lastCheckpointDuration") ? 300 : 1_000_000);
      }
      for (int tm = 0; tm < 4; tm++) {
        String host = "worker_" + ((j * 4 + tm) % hosts);
        String tmId = "tm_" + j + "_" + tm;
        for (String m : TM_METRICS) {
          used += add(Map.of("__name__", "flink_taskmanager_Status_JVM_" + m, "host", host,
              "instance", host + ":9250", "job", "flink", "tm_id", tmId),
              m.endsWith("Count") || m.endsWith("Time") ? Shape.COUNTER : Shape.GAUGE, 1e6);
        }
      }
      for (int t = 0; t < 4; t++) {
        String taskId = String.format("%032x", 0xcafe000000L + j * 16 + t);
        String taskName = "Source:_kafka_orders____enrich_" + t;
        for (int s = 0; s < parallelism; s++) {
          int tm = s % 4;
          String host = "worker_" + ((j * 4 + tm) % hosts);
          Map<String, String> task = new TreeMap<>(Map.of("host", host, "instance",
              host + ":9250", "job", "flink", "job_id", jobId, "job_name", jobName,
              "subtask_index", Integer.toString(s), "task_attempt_id",
              String.format("%032x", 0xbeef00000L + j * 4096 + t * 64 + s), "task_attempt_num",
              "0", "task_id", taskId, "task_name", taskName));
          task.put("tm_id", "tm_" + j + "_" + tm);
          for (String m : TASK_METRICS) {
            used += add(with(task, "__name__", "flink_taskmanager_job_task_" + m),
                m.startsWith("accumulate") || m.startsWith("num") && !m.endsWith("Second")
                    ? Shape.COUNTER : Shape.GAUGE, 500);
          }
          for (int o = 0; o < 2; o++) {
            Map<String, String> op = with(task, "operator_id",
                String.format("%032x", 0xf00d0000L + j * 64 + t * 4 + o));
            op.put("operator_name", o == 0 ? "enrich_with_customer" : "KeyedProcess_dedupe");
            for (String m : OPERATOR_METRICS) {
              used += add(with(op, "__name__", "flink_taskmanager_job_task_operator_" + m),
                  m.contains("bytes") || m.contains("hit") || m.contains("miss")
                      || m.contains("stall") || m.startsWith("numRecordsIn")
                      && !m.endsWith("Second") ? Shape.COUNTER : Shape.GAUGE, 1000);
            }
            for (String cf : new String[] {"customer_state", "dedupe_seen"}) {
              Map<String, String> cfl = with(op, "column_family", cf);
              for (String m : CF_METRICS) {
                used += add(with(cfl, "__name__",
                    "flink_taskmanager_job_task_operator_column_family_rocksdb_" + m),
                    Shape.GAUGE, 100);
              }
            }
          }
        }
      }
    }
    for (int h = 0; h < hosts; h++) {
      String host = "worker_" + h;
      Map<String, String> node = Map.of("instance", host + ":9100", "job", "node");
      for (String dev : new String[] {"vda", "vdb"}) {
        for (String m : DISK_METRICS) {
          used += add(with(with(node, "device", dev), "__name__", m), Shape.COUNTER, 1e5);
        }
      }
      for (int cpu = 0; cpu < 8; cpu++) {
        for (String mode : CPU_MODES) {
          Map<String, String> l = with(node, "cpu", Integer.toString(cpu));
          l.put("mode", mode);
          used += add(with(l, "__name__", "node_cpu_seconds_total"), Shape.COUNTER, 1e4);
        }
      }
      for (int k = 0; k < 40; k++) {
        used += add(with(node, "__name__", "node_memory_field" + k + "_bytes"), Shape.GAUGE, 1e9);
      }
      Map<String, String> app = Map.of("instance", host + ":8080", "job", "checkout");
      for (String route : APP_ROUTES) {
        for (String le : LE) {
          Map<String, String> l = with(app, "le", le);
          l.put("route", route);
          used += add(with(l, "__name__", "http_server_requests_seconds_bucket"), Shape.COUNTER,
              100);
        }
      }
      for (String m : new String[] {"go_goroutines", "go_memstats_heap_alloc_bytes",
          "process_resident_memory_bytes", "process_cpu_seconds_total", "up"}) {
        used += add(with(app, "__name__", m), Shape.GAUGE, 1e6);
      }
    }
    this.usedSeries = used;
  }

  private static Shape jobShape(String metric) {
    return switch (metric) {
      case "lastCompletedCheckpointId", "numberOfCompletedCheckpoints", "totalNumberOfCheckpoints"
          -> Shape.CHECKPOINT_ID;
      case "lastCheckpointDuration" -> Shape.CHECKPOINT_DURATION;
      default -> Shape.GAUGE;
    };
  }

  private static Map<String, String> with(Map<String, String> base, String name, String value) {
    Map<String, String> m = new TreeMap<>(base);
    m.put(name, value);
    return m;
  }

  /** Adds a series; returns 1 when the catalog uses its metric name, for the used count. */
  private int add(Map<String, String> labels, Shape shape, double base) {
    Series s = new Series(labelFields(labels), shape, base);
    series.add(s);
    int accepted = CATALOG.accepts(labels.get("__name__"));
    if (accepted == 1) {
      used.add(s);
    }
    return accepted;
  }

  /** Only the series the catalog uses, as a sender with the keep rule sends them. */
  public Fleet kept() {
    List<Series> kept = List.copyOf(used);
    return new Fleet() {
      @Override
      public List<Series> series() {
        return kept;
      }

      @Override
      public int usedSeries() {
        return kept.size();
      }
    };
  }

  /** The protobuf Label fields of a label set, sorted by name as Prometheus sends them. */
  static byte[] labelFields(Map<String, String> labels) {
    ProtoWriter w = new ProtoWriter();
    ProtoWriter label = new ProtoWriter();
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      label.reset();
      label.string(1, e.getKey()).string(2, e.getValue());
      w.varint(1 << 3 | 2).varint(label.length()).raw(label.toByteArray());
    }
    return w.toByteArray();
  }

  static final NameCheck CATALOG = new NameCheck();

  /** Series in a stable order (the order a scrape lists them). */
  @Override
  public List<Series> series() {
    return series;
  }

  @Override
  public int size() {
    return series.size();
  }

  /** Series whose metric name the detector's catalog uses. */
  @Override
  public int usedSeries() {
    return usedSeries;
  }

  /** Asks the real catalog, so the used/unused split reported is the service's own. */
  static final class NameCheck {
    private final dev.checkpointdoctor.detector.catalog.SignalCatalog catalog =
        dev.checkpointdoctor.detector.catalog.SignalCatalog.defaults();

    int accepts(String name) {
      byte[] b = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      return catalog.accepts(b, 0, b.length) ? 1 : 0;
    }
  }
}
