package dev.checkpointdoctor.detector.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.extract.ScrapeFixture;
import dev.checkpointdoctor.detector.extract.ScrapeFixture.Sample;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SignalCatalogTest {
  static final String S120 = "/scrapes/flink-1.20.3-metrics-sample.txt";
  static final String S230 = "/scrapes/flink-2.3.0-metrics-sample.txt";

  private final SignalCatalog catalog = SignalCatalog.defaults();

  private static final List<String> COMMON = List.of(
      "flink_jobmanager_job_lastCheckpointDuration",
      "flink_jobmanager_job_lastCheckpointFullSize",
      "flink_jobmanager_job_lastCheckpointPersistedData",
      "flink_jobmanager_job_lastCheckpointSize",
      "flink_jobmanager_job_lastCompletedCheckpointId",
      "flink_jobmanager_job_numRestarts",
      "flink_jobmanager_job_numberOfCompletedCheckpoints",
      "flink_jobmanager_job_numberOfFailedCheckpoints",
      "flink_jobmanager_job_numberOfInProgressCheckpoints",
      "flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond",
      "flink_taskmanager_Status_JVM_GarbageCollector_G1_Old_Generation_Time",
      "flink_taskmanager_Status_JVM_GarbageCollector_G1_Young_Generation_Time",
      "flink_taskmanager_Status_JVM_Memory_Heap_Max",
      "flink_taskmanager_Status_JVM_Memory_Heap_Used",
      "flink_taskmanager_job_task_backPressuredTimeMsPerSecond",
      "flink_taskmanager_job_task_busyTimeMsPerSecond",
      "flink_taskmanager_job_task_checkpointAlignmentTime",
      "flink_taskmanager_job_task_checkpointStartDelayNanos",
      "flink_taskmanager_job_task_numRecordsInPerSecond",
      "flink_taskmanager_job_task_operator_column_family_rocksdb_actual_delayed_write_rate",
      "flink_taskmanager_job_task_operator_column_family_rocksdb_estimate_pending_compaction_bytes",
      "flink_taskmanager_job_task_operator_column_family_rocksdb_is_write_stopped",
      "flink_taskmanager_job_task_operator_column_family_rocksdb_num_files_at_level0",
      "flink_taskmanager_job_task_operator_rocksdb_stall_micros");

  private static final List<String> OTHERS = List.of(
      "flink_taskmanager_job_task_operator_numRecordsIn", "go_gc_duration_seconds", "up",
      "flink_taskmanager_Status_JVM_GarbageCollector_All_Time",
      "flink_taskmanager_Status_JVM_GarbageCollector_G1_Young_Generation_Count",
      "flink_jobmanager_Status_JVM_GarbageCollector_G1_Young_Generation_Time",
      "flink_jobmanager_Status_JVM_Memory_Heap_Used",
      "flink_taskmanager_job_task_operator_numRecordsInPerSecond",
      "flink_taskmanager_job_task_operator_rocksdb_estimate_pending_compaction_bytes",
      "flink_taskmanager_job_task_operator_window_contents_rocksdb_estimate_num_keys",
      "flink_taskmanager_job_task_operator_window_contents_rocksdb_num_files_at_level1",
      "flink_taskmanager_job_task_operator_window-contents_rocksdb_is_write_stopped",
      "node_disk_read_bytes_total", "node_disk_io_time_weighted_seconds_total",
      "node_disk_io_now", "node_cpu_seconds_total", "node_filesystem_size_bytes",
      "container_cpu_cfs_throttled_seconds_total", "container_cpu_usage_seconds_total",
      "container_fs_writes_total", "node_disk_reads_completed", "xnode_disk_reads_completed_total",
      "flink_taskmanager_Status_JVM_GarbageCollector__Time", "");

  private static final List<String> ACCEPTED_EXTRA = List.of(
      "node_disk_reads_completed_total", "node_disk_writes_completed_total",
      "node_disk_written_bytes_total", "node_disk_io_time_seconds_total",
      "node_disk_read_time_seconds_total", "node_disk_write_time_seconds_total",
      "container_cpu_cfs_periods_total", "container_cpu_cfs_throttled_periods_total",
      "flink_taskmanager_job_task_operator_window_contents_rocksdb_estimate_pending_compaction_bytes",
      "flink_taskmanager_job_task_operator_blob_rocksdb_num_files_at_level0",
      "flink_taskmanager_Status_JVM_GarbageCollector_PS_Scavenge_Time",
      "flink_taskmanager_Status_JVM_GarbageCollector_Alx_Time",
      "flink_taskmanager_Status_JVM_GarbageCollector_Al_Time",
      "flink_taskmanager_Status_JVM_GarbageCollector_Alll_Time",
      "flink_taskmanager_Status_JVM_GarbageCollector_ZGC_Cycles_Time",
      "flink_jobmanager_job_lastCheckpointCompletedTimestamp");

  private Set<String> acceptedNames(String resource) {
    return ScrapeFixture.load(resource).stream().map(Sample::name)
        .filter(n -> accepts(n)).collect(Collectors.toCollection(TreeSet::new));
  }

  private boolean accepts(String name) {
    byte[] b = ("xx" + name + "yy").getBytes(StandardCharsets.UTF_8);
    return catalog.accepts(b, 2, b.length - 4);
  }

  @Test
  void acceptsExactlyTheNeededNamesOfFlink120() {
    assertThat(acceptedNames(S120)).containsExactlyInAnyOrderElementsOf(COMMON);
  }

  @Test
  void acceptsExactlyTheNeededNamesOfFlink230() {
    Set<String> expected = new TreeSet<>(COMMON);
    expected.add("flink_jobmanager_job_lastCheckpointCompletedTimestamp");
    assertThat(acceptedNames(S230)).isEqualTo(expected);
  }

  @Test
  void rocksDbColumnFamiliesFoundInBothScrapes() {
    for (String res : List.of(S120, S230)) {
      Set<String> seen = new TreeSet<>();
      for (Sample s : ScrapeFixture.load(res)) {
        MetricRule r = catalog.ruleFor(s.name());
        if (r != null && r.kind().source() == MetricRule.Source.ROCKSDB_CF) {
          seen.add(r.kind() + "@" + s.labels().get("column_family"));
        }
      }
      Set<String> expected = new TreeSet<>();
      for (Kind k : List.of(Kind.RDB_PENDING_COMPACTION, Kind.RDB_DELAYED_WRITE_RATE,
          Kind.RDB_WRITE_STOPPED, Kind.RDB_L0_FILES)) {
        for (String cf : List.of("blob", "_timer_state_processing_user_timers",
            "_timer_state_event_user_timers")) {
          expected.add(k + "@" + cf);
        }
      }
      assertThat(seen).as(res).isEqualTo(expected);
    }
  }

  @Test
  void rejectsUnrelatedNames() {
    for (String n : OTHERS) {
      assertThat(accepts(n)).as(n).isFalse();
      assertThat(catalog.ruleFor(n)).as(n).isNull();
    }
  }

  @Test
  void acceptsDoesNotAllocate() {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        mx instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported());
    com.sun.management.ThreadMXBean tmx = (com.sun.management.ThreadMXBean) mx;
    List<byte[]> names = new java.util.ArrayList<>();
    for (String n : List.of(COMMON.get(0), COMMON.get(20), OTHERS.get(0), OTHERS.get(1),
        ACCEPTED_EXTRA.get(8), ACCEPTED_EXTRA.get(10), OTHERS.get(3))) {
      names.add(n.getBytes(StandardCharsets.UTF_8));
    }
    long id = Thread.currentThread().getId();
    int hits = 0;
    for (int round = 0; round < 2; round++) { // round 0 warms up (JIT, class init)
      long before = tmx.getThreadAllocatedBytes(id);
      for (int i = 0; i < 200_000; i++) {
        byte[] b = names.get(i % names.size());
        hits += catalog.accepts(b, 0, b.length) ? 1 : 0;
      }
      long allocated = tmx.getThreadAllocatedBytes(id) - before;
      if (round == 1) {
        // 1.4M calls: anything allocating per call would show megabytes
        assertThat(allocated).isLessThan(64 * 1024);
      }
    }
    // accepted: indexes 0, 1, 4, 5 of 7. Per round 200_000 = 7 x 28_571 + 3, and the 3 extra
    // calls hit indexes 0, 1, 2 (2 accepted): 28_571 x 4 + 2 = 114_286; two rounds = 228_572
    assertThat(hits).isEqualTo(228_572);
  }

  @Test
  void keepRegexIsRe2Compatible() {
    assertThat(catalog.keepRegex()).doesNotContain("(?=", "(?!", "(?<", "\\d");
    assertThat(catalog.patternRules()).hasSize(2);
  }

  @Test
  void bothRocksDbShapesResolveToTheSameRule() {
    MetricRule label = catalog.ruleFor(
        "flink_taskmanager_job_task_operator_column_family_rocksdb_estimate_pending_compaction_bytes");
    MetricRule name = catalog.ruleFor(
        "flink_taskmanager_job_task_operator_blob_rocksdb_estimate_pending_compaction_bytes");
    assertThat(label.kind()).isEqualTo(Kind.RDB_PENDING_COMPACTION);
    assertThat(label.columnFamily()).isNull(); // taken from the column_family label
    assertThat(name.kind()).isEqualTo(Kind.RDB_PENDING_COMPACTION);
    assertThat(name.columnFamily()).isEqualTo("blob");
    assertThat(catalog.ruleFor(
        "flink_taskmanager_job_task_operator__timer_state_event_user_timers_rocksdb_num_files_at_level0"))
        .isEqualTo(new MetricRule(Kind.RDB_L0_FILES, "_timer_state_event_user_timers", null));
    assertThat(catalog.ruleFor("flink_taskmanager_Status_JVM_GarbageCollector_PS_Scavenge_Time"))
        .isEqualTo(new MetricRule(Kind.GC_COLLECTOR_TIME, null, "PS_Scavenge"));
  }

  @Test
  void acceptsAgreesWithRuleForAndKeepRegex() {
    Pattern keep = Pattern.compile(catalog.keepRegex());
    Set<String> names = new TreeSet<>();
    for (String res : List.of(S120, S230)) {
      ScrapeFixture.load(res).forEach(s -> names.add(s.name()));
    }
    names.addAll(OTHERS);
    names.addAll(ACCEPTED_EXTRA);
    names.addAll(catalog.exactNames());
    for (String n : names) {
      boolean a = accepts(n);
      assertThat(catalog.ruleFor(n) != null).as(n).isEqualTo(a);
      assertThat(keep.matcher(n).matches()).as(n).isEqualTo(a);
    }
    for (String n : ACCEPTED_EXTRA) {
      assertThat(accepts(n)).as(n).isTrue();
    }
    // 10 job + 5 task + 3 TM + 4 RocksDB CF + 1 stall ticker + 6 node_exporter disks
    // + 1 node_exporter file systems (mounts) + 2 cAdvisor = 32
    assertThat(catalog.exactNames()).hasSize(32);
    assertThat(catalog.ruleFor("node_filesystem_avail_bytes").kind().source())
        .isEqualTo(MetricRule.Source.MOUNT);
  }
}
