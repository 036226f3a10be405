package dev.checkpointdoctor.api.bench;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Heap retained per tracked series: feeds N distinct catalog series (Flink task and RocksDB
 * column-family metrics with Flink's full label sets, three scrapes each so counters are
 * differenced and baselines hold observations) into a Detector, forces full GCs and divides the
 * growth of used heap by the tracked series. The label Strings are built fresh per series, as a
 * decoder builds them, and are counted: the detector keeps them. Settings: {@code bench.sizes}
 * (10000,100000,1000000); 1M needs about -Xmx4g. {@code bench.scrapes} (3) sets the scrapes per
 * series: 3 is the young fleet the figures in BENCHMARKS.md have always used; 500 (2 h at 15 s)
 * is the steady state, with full baseline windows, daily envelopes and recent histories.
 * {@code bench.values}: {@code integral} (default; values a float holds exactly, as counts,
 * bytes and milliseconds mostly are) or {@code fractional} (rates and averages: every value
 * needs a double) or {@code noisy} (a level plus noise drawn afresh every scrape: full-precision
 * doubles that differ every time, as measured rates and averages do; nothing repeats, so no
 * encoding is flattered). {@code bench.fillDays} (0): scrapes every {@code bench.fillStepMinutes}
 * (15) of event time for that many days before the {@code bench.scrapes} 15 s scrapes, so the
 * seasonal envelopes hold those days (8 fills them: the steady state of a fleet a week old).
 * {@code bench.histogram} (0): after each size, print that many classes of a class histogram of
 * the live heap (what the bytes per series are made of).
 */
public final class HeapPerSeries {
  private static final String[] NAMES = {
    "flink_taskmanager_job_task_busyTimeMsPerSecond",
    "flink_taskmanager_job_task_backPressuredTimeMsPerSecond",
    "flink_taskmanager_job_task_checkpointStartDelayNanos",
    "flink_taskmanager_job_task_checkpointAlignmentTime",
    "flink_taskmanager_job_task_numRecordsInPerSecond",
    "flink_taskmanager_job_task_operator_column_family_rocksdb_estimate_pending_compaction_bytes",
    "flink_taskmanager_job_task_operator_column_family_rocksdb_num_files_at_level0",
    "flink_taskmanager_job_task_operator_column_family_rocksdb_is_write_stopped",
    "flink_taskmanager_job_task_operator_column_family_rocksdb_actual_delayed_write_rate"};

  private HeapPerSeries() {}

  public static void main(String[] args) {
    String sizes = System.getProperty("bench.sizes", "10000,100000,1000000");
    System.out.println("| tracked series | baselines | heap bytes per tracked series |");
    System.out.println("| ---: | ---: | ---: |");
    int scrapes = Integer.getInteger("bench.scrapes", 3);
    String values = System.getProperty("bench.values", "integral");
    int histogram = Integer.getInteger("bench.histogram", 0);
    int fillDays = Integer.getInteger("bench.fillDays", 0);
    int fillStepMinutes = Integer.getInteger("bench.fillStepMinutes", 15);
    for (String n : sizes.split(",")) {
      int series = Integer.parseInt(n.trim());
      long[] r = measure(series, scrapes, values, histogram, fillDays, fillStepMinutes);
      System.out.printf("| %,d | %,d | %,d |%n", r[0], r[1], r[2]);
    }
  }

  /** {tracked series, baselines, bytes per tracked series}. */
  static long[] measure(int n) {
    return measure(n, 3);
  }

  static long[] measure(int n, int scrapes) {
    return measure(n, scrapes, "integral", 0, 0, 15);
  }

  static long[] measure(int n, int scrapes, String values, int histogram, int fillDays,
      int fillStepMinutes) {
    long before = usedHeapAfterGc();
    Detector detector = new Detector(SignalCatalog.defaults(), DetectorSettings.defaults());
    long[] ts = new long[1];
    double[] v = new double[1];
    long start = 1_796_000_000_000L;
    long fillStepMs = fillStepMinutes * 60_000L;
    int fills = (int) (fillDays * 86_400_000L / fillStepMs);
    long fillStart = start - fills * fillStepMs;
    for (int round = 0; round < fills + scrapes; round++) {
      ts[0] = round < fills ? fillStart + round * fillStepMs : start + (round - fills) * 15_000L;
      for (int i = 0; i < n; i++) {
        v[0] = value(values, i, round);
        detector.accept(labels(i), ts, v);
        if (i % 10_000 == 9_999) {
          detector.endBatch();
        }
      }
      detector.endBatch();
    }
    long after = usedHeapAfterGc();
    long tracked = detector.trackedSeries();
    long perSeries = (after - before) / Math.max(1, tracked);
    if (histogram > 0) {
      printHistogram(histogram);
    }
    java.lang.ref.Reference.reachabilityFence(detector);
    return new long[] {tracked, detector.baselineCount(), perSeries};
  }

  /** Series {@code i}'s value in scrape {@code round}: stationary, so baselines keep learning. */
  static double value(String values, int i, int round) {
    if ("noisy".equals(values)) {
      // two uniform draws from a hash of (series, scrape): a triangular noise of +-10 around a
      // level of its own, a fresh full-precision double every scrape
      long z = mix(i * 0x9E3779B97F4A7C15L + round);
      double u1 = (z >>> 11) * 0x1.0p-53;
      double u2 = (mix(z) >>> 11) * 0x1.0p-53;
      return 100 + i % 13 + 10 * (u1 + u2 - 1);
    }
    double v = 100 + round % 3 * 10 + i % 13;
    return "fractional".equals(values) ? v + 0.1 * (i % 7 + 1) : v; // no float holds n + 0.1
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Series {@code i}: one of the catalog names, on its own subtask (and column family). */
  static Labels labels(int i) {
    int g = i / NAMES.length;
    String name = NAMES[i % NAMES.length];
    int subtask = g % 64;
    int task = g / 64 % 4;
    int job = g / 256;
    String host = "worker_" + (g % 50);
    String jobId = String.format("%032x", 0xabcdef0000L + job);
    String taskId = String.format("%032x", 0xcafe000000L + job * 16L + task);
    String attempt = String.format("%032x", 0xbeef00000L + (long) g);
    if (name.contains("column_family")) {
      return Labels.of("__name__", name, "column_family", "state_" + (g % 3), "host", host,
          "instance", host + ":9250", "job", "flink", "job_id", jobId, "job_name",
          "orders_" + job, "operator_id", taskId, "operator_name", "KeyedProcess_dedupe",
          "subtask_index", Integer.toString(subtask), "task_attempt_id", attempt,
          "task_attempt_num", "0", "task_id", taskId, "task_name", "task_" + task, "tm_id",
          "tm_" + job + "_" + (subtask % 8));
    }
    return Labels.of("__name__", name, "host", host, "instance", host + ":9250", "job", "flink",
        "job_id", jobId, "job_name", "orders_" + job, "subtask_index", Integer.toString(subtask),
        "task_attempt_id", attempt, "task_attempt_num", "0", "task_id", taskId, "task_name",
        "task_" + task, "tm_id", "tm_" + job + "_" + (subtask % 8));
  }

  /** The first classes of a live-heap class histogram (as {@code jcmd PID GC.class_histogram}). */
  private static void printHistogram(int classes) {
    try {
      Object text = ManagementFactory.getPlatformMBeanServer().invoke(
          new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
          "gcClassHistogram", new Object[] {new String[0]},
          new String[] {String[].class.getName()});
      text.toString().lines().limit(classes + 3L).forEach(System.out::println);
    } catch (javax.management.JMException e) {
      System.out.println("no class histogram: " + e);
    }
  }

  private static long usedHeapAfterGc() {
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, mem.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
