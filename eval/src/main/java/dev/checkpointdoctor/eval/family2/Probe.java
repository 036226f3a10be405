package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.detector.model.Labels;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Hourly summaries of a scenario's raw samples (no detector): what the simulator emitted, to
 * check by eye that a fault shows where and when it should.
 */
final class Probe {
  private final Map<String, double[]> last = new HashMap<>();
  private final List<Map<String, List<Double>>> hours = new ArrayList<>();
  private final long start;

  private Probe(long start) {
    this.start = start;
  }

  static void print(Family2Scenario s, PrintStream out) {
    Probe p = new Probe(s.truth().startMs());
    s.play(p::sample);
    long fault = s.truth().faultStartMs();
    out.println("   hour  cp_dur_ms  cp_size  full  persist  failed  inprog  busy_p99  bp_p90"
        + "  gc_ms/s  heap  L0  delayed  stall_us/s  IOPS(med/cv)  util  cfs  startdelay_p99");
    for (int h = 0; h < p.hours.size(); h++) {
      Map<String, List<Double>> m = p.hours.get(h);
      boolean faulty = fault >= 0 && s.truth().startMs() + (h + 1) * 3_600_000L > fault;
      out.printf(Locale.ROOT, "   %3d%s %9s %8s %6s %8s %7s %6s %8s %7s %8s %5s %3s %7s %10s %14s "
              + "%5s %5s %8s%n", h, faulty ? "*" : " ", f(m, "dur", 50), mb(m, "size"),
          mb(m, "full"), mb(m, "persist"), f(m, "failed", 100), f(m, "inprog", -1),
          f(m, "busy", 99), f(m, "bp", 90), f(m, "gc", 100), f(m, "heap", 100),
          f(m, "l0", 100), f(m, "delayed", -1), f(m, "stall", 90),
          f(m, "wiops", 50) + "/" + cv(m.get("wiops")), f(m, "util", 50), f(m, "cfs", 90),
          f(m, "sd", 99));
    }
  }

  private void sample(Labels l, long ts, double v) {
    if (Double.isNaN(v)) {
      if (Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(Scraper.STALE)) {
        last.remove(l.toString());
      }
      return;
    }
    String name = l.metricName();
    int h = (int) ((ts - start) / 3_600_000L);
    while (hours.size() <= h) {
      hours.add(new LinkedHashMap<>());
    }
    Map<String, List<Double>> m = hours.get(h);
    switch (name) {
      case "flink_jobmanager_job_lastCheckpointDuration" -> add(m, "dur", v);
      case "flink_jobmanager_job_lastCheckpointSize" -> add(m, "size", v);
      case "flink_jobmanager_job_lastCheckpointFullSize" -> add(m, "full", v);
      case "flink_jobmanager_job_lastCheckpointPersistedData" -> add(m, "persist", v);
      case "flink_jobmanager_job_numberOfFailedCheckpoints" -> add(m, "failed", v);
      case "flink_jobmanager_job_numberOfInProgressCheckpoints" -> add(m, "inprog", v);
      case "flink_taskmanager_job_task_busyTimeMsPerSecond" -> add(m, "busy", v);
      case "flink_taskmanager_job_task_backPressuredTimeMsPerSecond" -> add(m, "bp", v);
      case "flink_taskmanager_job_task_checkpointStartDelayNanos" -> add(m, "sd", v / 1e6);
      case "flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond" -> add(m, "gc", v);
      case "flink_taskmanager_Status_JVM_Memory_Heap_Used" -> add(m, "heapused", v);
      case "flink_taskmanager_Status_JVM_Memory_Heap_Max" -> {
        List<Double> used = m.get("heapused");
        if (used != null && !used.isEmpty()) {
          add(m, "heap", used.get(used.size() - 1) / v);
        }
      }
      default -> {
        if (name.endsWith("num_files_at_level0")) {
          add(m, "l0", v);
        } else if (name.endsWith("actual_delayed_write_rate")) {
          add(m, "delayed", v > 0 ? 1 : 0);
        } else if (name.endsWith("rocksdb_stall_micros")) {
          rate(m, "stall", l, ts, v);
        } else if ((name.equals("node_disk_writes_completed_total")
            || name.equals("node_disk_reads_completed_total"))
            && !l.get("device").endsWith("0n1") && !l.get("device").equals("xvda")) {
          totalIops(m, l, ts, v);
        } else if (name.equals("node_disk_io_time_seconds_total")
            && !l.get("device").endsWith("0n1") && !l.get("device").equals("xvda")) {
          rate(m, "util", l, ts, v);
        } else if (name.startsWith("container_cpu_cfs_") && l.get("container") != null
            && l.get("container").startsWith("flink")) {
          cfs(m, l, ts, v);
        }
      }
    }
  }

  private void rate(Map<String, List<Double>> m, String key, Labels l, long ts, double v) {
    String id = l.toString();
    double[] prev = last.put(id, new double[] {ts, v});
    if (prev != null && ts > prev[0] && v >= prev[1]) {
      add(m, key, (v - prev[1]) / ((ts - prev[0]) / 1000.0));
    }
  }

  /** Reads plus writes per second of one device, from the two counters of one scrape. */
  private void totalIops(Map<String, List<Double>> m, Labels l, long ts, double v) {
    String key = "iops/" + l.get("instance") + l.get("device");
    double[] prev = last.put(l.toString(), new double[] {ts, v});
    if (prev == null || v < prev[1] || ts <= prev[0]) {
      return;
    }
    double rate = (v - prev[1]) / ((ts - prev[0]) / 1000.0);
    double[] pair = last.get(key);
    if (pair != null && pair[0] == ts) {
      add(m, "wiops", pair[1] + rate);
      last.remove(key);
    } else {
      last.put(key, new double[] {ts, rate});
    }
  }

  private void cfs(Map<String, List<Double>> m, Labels l, long ts, double v) {
    String pod = l.get("pod") + "/" + ts;
    boolean periods = l.metricName().endsWith("cfs_periods_total");
    double[] prev = last.put(l.toString(), new double[] {ts, v});
    if (prev == null || v < prev[1]) {
      return;
    }
    double delta = v - prev[1];
    double[] pair = last.computeIfAbsent("pair/" + pod, k -> new double[] {Double.NaN,
        Double.NaN});
    pair[periods ? 0 : 1] = delta;
    if (!Double.isNaN(pair[0]) && !Double.isNaN(pair[1]) && pair[0] > 0) {
      add(m, "cfs", pair[1] / pair[0]);
      last.remove("pair/" + pod);
    }
  }

  private static void add(Map<String, List<Double>> m, String key, double v) {
    m.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
  }

  /** Percentile {@code q} (or the mean for -1) formatted briefly. */
  private static String f(Map<String, List<Double>> m, String key, int q) {
    List<Double> l = m.get(key);
    if (l == null || l.isEmpty()) {
      return "-";
    }
    double v = q < 0 ? l.stream().mapToDouble(Double::doubleValue).average().orElse(0)
        : quantile(l, q / 100.0);
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String mb(Map<String, List<Double>> m, String key) {
    List<Double> l = m.get(key);
    if (l == null || l.isEmpty()) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.1fM", quantile(l, 0.5) / 1048576);
  }

  private static String cv(List<Double> l) {
    if (l == null || l.size() < 2) {
      return "-";
    }
    double mean = l.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double var = l.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (l.size() - 1);
    return String.format(Locale.ROOT, "%.3f", mean > 0 ? Math.sqrt(var) / mean : 0);
  }

  static double quantile(List<Double> values, double q) {
    double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a[(int) Math.min(a.length - 1, Math.floor(q * (a.length - 1) + 0.5))];
  }
}
