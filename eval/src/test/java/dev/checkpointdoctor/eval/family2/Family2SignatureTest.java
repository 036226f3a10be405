package dev.checkpointdoctor.eval.family2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.eval.scenario.GeneratedScenario;
import dev.checkpointdoctor.eval.scenario.ScenarioManifest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulator injects what it claims: for one job per cause, the cause's primary physical
 * signature, computed from the raw samples (not by the detector), is there after the fault
 * starts and not in the three hours before. Plays a slice (three hours before the fault to the
 * end); the physics still runs from the start.
 */
class Family2SignatureTest {
  /** The seed the test plays; {@code -Dfamily2.seed=N} checks another one. */
  static final long SEED = Long.getLong("family2.seed", 11);
  static final long HOUR = 3_600_000L;
  static final long MINUTE = 60_000L;

  @ParameterizedTest
  @ValueSource(strings = {"disk_throttling", "state_growth", "backpressure",
      "unaligned_checkpoint_inflation", "rocksdb_write_stall", "gc_pressure",
      "checkpoint_storage_slow", "data_skew", "cpu_throttling",
      "checkpoint_interval_too_short"})
  void primarySignatureIsThereAfterTheFaultAndNotBefore(String cause) {
    Family2Scenario s = scenario(cause + "_1");
    ScenarioManifest.Entry truth = s.truth();
    long fault = truth.faultStartMs();
    long from = fault - 3 * HOUR;
    RawSamples raw = new RawSamples(name -> true);
    s.play(raw, from, truth.endMs());
    long before = fault - 5 * MINUTE;
    long afterFrom = fault + 15 * MINUTE;
    long end = truth.endMs();
    Signature sig = signature(cause);
    assertThat(sig.present(raw, from, before, from)).as("%s before the fault", cause).isFalse();
    assertThat(sig.present(raw, Math.max(afterFrom, end - 2 * HOUR), end, from))
        .as("%s after the fault", cause).isTrue();
  }

  /** Whether the signature is in [from, to); {@code sliceStart} is where the samples begin. */
  @FunctionalInterface
  interface Signature {
    boolean present(RawSamples raw, long from, long to, long sliceStart);
  }

  private static Signature signature(String cause) {
    return switch (cause) {
      case Faults.DISK -> Family2SignatureTest::flatBelowEarlierPeaks;
      case Faults.STATE -> (raw, from, to, s) -> growthPerHour(raw.of(
          "flink_jobmanager_job_lastCheckpointFullSize"), from, to) >= 0.03;
      case Faults.BACKPRESSURE -> (raw, from, to, s) -> RawSamples.median(sourceValues(raw,
          "flink_taskmanager_job_task_backPressuredTimeMsPerSecond", from, to)) >= 500;
      case Faults.UNALIGNED -> (raw, from, to, s) -> {
        String m = "flink_jobmanager_job_lastCheckpointPersistedData";
        double reference = RawSamples.median(raw.values(m, s, s + HOUR));
        double now = RawSamples.median(raw.values(m, from, to));
        return now >= 1 << 20 && now >= 10 * reference;
      };
      case Faults.ROCKSDB -> (raw, from, to, s) -> rocksDbStalls(raw, from, to)
          && !flatBelowEarlierPeaks(raw, from, to, s);
      case Faults.GC -> (raw, from, to, s) -> {
        String m = "flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond";
        double reference = RawSamples.median(raw.values(m, s, s + HOUR));
        double now = RawSamples.median(raw.values(m, from, to));
        return now >= 100 && now >= 3 * reference;
      };
      case Faults.STORAGE -> Family2SignatureTest::slowerCheckpointsWithBarriersOnTime;
      case Faults.SKEW -> (raw, from, to, s) -> hotSubtaskShare(raw, from, to) >= 1.8;
      case Faults.CPU -> (raw, from, to, s) -> {
        double reference = RawSamples.median(throttledShares(raw, s, s + HOUR));
        double now = RawSamples.median(throttledShares(raw, from, to));
        return now >= 0.12 && now >= 3 * Math.max(0.01, reference);
      };
      case Faults.INTERVAL -> Family2SignatureTest::backToBackCheckpoints;
      default -> throw new IllegalArgumentException(cause);
    };
  }

  /**
   * Some data volume is busy all the time (io_time rate at least 0.9) serving a flat rate
   * (coefficient of variation under 3 %, reads plus writes) below three quarters of the highest
   * rate it served earlier in the slice.
   */
  static boolean flatBelowEarlierPeaks(RawSamples raw, long from, long to, long sliceStart) {
    Map<String, TreeMap<Long, Double>> util = deviceRates(raw,
        new String[] {"node_disk_io_time_seconds_total"});
    for (Map.Entry<String, TreeMap<Long, Double>> e : dataVolumeIops(raw).entrySet()) {
      TreeMap<Long, Double> rates = e.getValue();
      TreeMap<Long, Double> busy = util.getOrDefault(e.getKey(), new TreeMap<>());
      double earlierPeak = rates.headMap(from).values().stream().mapToDouble(x -> x).max()
          .orElse(0);
      // look at hour-long windows: a flat stretch, not a flat instant
      for (long w = from; to - w >= 30 * MINUTE; w += 15 * MINUTE) {
        List<Double> window = new ArrayList<>(rates.subMap(w, Math.min(to, w + HOUR)).values());
        List<Double> busyWindow = new ArrayList<>(busy.subMap(w, Math.min(to, w + HOUR))
            .values());
        if (window.size() >= 10 && RawSamples.cv(window) < 0.03
            && RawSamples.median(window) < 0.75 * earlierPeak
            && RawSamples.median(busyWindow) >= 0.9) {
          return true;
        }
      }
    }
    return false;
  }

  /** Reads plus writes per second of every data (non-root) device, by timestamp. */
  static Map<String, TreeMap<Long, Double>> dataVolumeIops(RawSamples raw) {
    return deviceRates(raw, new String[] {"node_disk_reads_completed_total",
        "node_disk_writes_completed_total"});
  }

  /** The summed per-second rates of node_exporter counters of every data (non-root) device. */
  static Map<String, TreeMap<Long, Double>> deviceRates(RawSamples raw, String[] counters) {
    Map<String, TreeMap<Long, Double>> out = new TreeMap<>();
    for (String m : counters) {
      for (RawSamples.Series s : raw.of(m)) {
        String device = s.labels.get("device");
        if (device.equals("nvme0n1") || device.equals("xvda")) {
          continue;
        }
        TreeMap<Long, Double> rates = out.computeIfAbsent(s.labels.get("instance") + "/"
            + device, k -> new TreeMap<>());
        for (double[] r : s.rates(Long.MIN_VALUE, Long.MAX_VALUE)) {
          rates.merge((long) r[0], r[1], Double::sum);
        }
      }
    }
    return out;
  }

  static double growthPerHour(List<RawSamples.Series> series, long from, long to) {
    List<Double> values = new ArrayList<>();
    for (RawSamples.Series s : series) {
      values.addAll(s.values(from, to));
    }
    if (values.size() < 10) {
      return 0;
    }
    int fifth = values.size() / 5;
    double first = RawSamples.median(values.subList(0, fifth));
    double last = RawSamples.median(values.subList(values.size() - fifth, values.size()));
    double hours = (to - from) / (double) HOUR * 0.8;
    return (last - first) / first / hours;
  }

  static List<Double> sourceValues(RawSamples raw, String metric, long from, long to) {
    List<Double> out = new ArrayList<>();
    for (RawSamples.Series s : raw.of(metric)) {
      if (s.labels.get("task_name").startsWith("Source")) {
        out.addAll(s.values(from, to));
      }
    }
    return out;
  }

  static boolean rocksDbStalls(RawSamples raw, long from, long to) {
    for (RawSamples.Series s : raw.of(SeriesBuilder.CF_PREFIX + "is_write_stopped")) {
      if (s.values(from, to).stream().anyMatch(v -> v >= 1)) {
        return true;
      }
    }
    for (String m : perStateAndLabel(raw, "actual_delayed_write_rate")) {
      if (raw.values(m, from, to).stream().anyMatch(v -> v > 0)) {
        return true;
      }
    }
    for (String m : perStateAndLabel(raw, "num_files_at_level0")) {
      if (raw.values(m, from, to).stream().anyMatch(v -> v >= RocksInstance.SLOWDOWN_L0)) {
        return true;
      }
    }
    return false;
  }

  /** The metric names of a RocksDB property in both name shapes. */
  static Set<String> perStateAndLabel(RawSamples raw, String property) {
    Set<String> names = new HashSet<>();
    for (String m : raw.metricNames()) {
      if (m.startsWith(SeriesBuilder.OPERATOR_PREFIX) && m.endsWith("_rocksdb_" + property)) {
        names.add(m);
      }
    }
    return names;
  }

  static boolean slowerCheckpointsWithBarriersOnTime(RawSamples raw, long from, long to,
      long sliceStart) {
    String d = "flink_jobmanager_job_lastCheckpointDuration";
    double reference = RawSamples.median(raw.values(d, sliceStart, sliceStart + HOUR));
    double now = RawSamples.median(raw.values(d, from, to));
    List<Double> failed = raw.values("flink_jobmanager_job_numberOfFailedCheckpoints", from, to);
    boolean failing = failed.size() > 1 && failed.get(failed.size() - 1) - failed.get(0) >= 2;
    String sd = "flink_taskmanager_job_task_checkpointStartDelayNanos";
    double delayBefore = RawSamples.median(raw.values(sd, sliceStart, sliceStart + HOUR));
    double delayNow = RawSamples.median(raw.values(sd, from, to));
    boolean barriersOnTime = delayNow <= 3 * delayBefore + 100e6;
    return (now >= 2.5 * reference || failing) && barriersOnTime;
  }

  /**
   * How many times its fair share of a keyed vertex's records the busiest subtask takes: its
   * median records/s in the window over the mean of all subtasks' medians.
   */
  static double hotSubtaskShare(RawSamples raw, long from, long to) {
    double best = 0;
    Map<String, List<RawSamples.Series>> byTask = RawSamples.by(
        raw.of("flink_taskmanager_job_task_numRecordsInPerSecond"), "task_name");
    for (List<RawSamples.Series> subtasks : byTask.values()) {
      if (subtasks.size() < 4) {
        continue;
      }
      double sum = 0;
      double max = 0;
      for (RawSamples.Series s : subtasks) {
        double m = RawSamples.median(s.values(from, to));
        if (!Double.isNaN(m)) {
          sum += m;
          max = Math.max(max, m);
        }
      }
      if (sum > 0) {
        best = Math.max(best, max / sum * subtasks.size());
      }
    }
    return best;
  }

  /** Throttled periods / periods of the TaskManager containers, per scrape interval. */
  static List<Double> throttledShares(RawSamples raw, long from, long to) {
    List<Double> out = new ArrayList<>();
    for (RawSamples.Series periods : raw.of("container_cpu_cfs_periods_total")) {
      String container = periods.labels.get("container");
      if (container == null || !container.startsWith("flink")) {
        continue;
      }
      RawSamples.Series throttled = raw.of("container_cpu_cfs_throttled_periods_total").stream()
          .filter(t -> t.labels.get("id").equals(periods.labels.get("id"))).findFirst()
          .orElseThrow();
      List<double[]> p = periods.rates(from, to);
      List<double[]> q = throttled.rates(from, to);
      for (int i = 0; i < Math.min(p.size(), q.size()); i++) {
        if (p.get(i)[0] == q.get(i)[0] && p.get(i)[1] > 0) {
          out.add(q.get(i)[1] / p.get(i)[1]);
        }
      }
    }
    return out;
  }

  /** Checkpoints complete at least twice as often as in the first hour and are always running. */
  static boolean backToBackCheckpoints(RawSamples raw, long from, long to, long sliceStart) {
    String id = "flink_jobmanager_job_lastCompletedCheckpointId";
    double before = completionsPerHour(raw.values(id, sliceStart, sliceStart + HOUR), HOUR);
    double now = completionsPerHour(raw.values(id, from, to), to - from);
    List<Double> inProgress = raw.values("flink_jobmanager_job_numberOfInProgressCheckpoints",
        from, to);
    double busy = inProgress.stream().mapToDouble(x -> x).average().orElse(0);
    return now >= 2 * before && busy >= 0.8;
  }

  static double completionsPerHour(List<Double> ids, long spanMs) {
    Set<Double> distinct = new HashSet<>();
    for (double v : ids) {
      if (v >= 0) {
        distinct.add(v);
      }
    }
    return distinct.size() / (spanMs / (double) HOUR);
  }

  private static Map<String, Family2Scenario> corpus;

  static synchronized Family2Scenario scenario(String name) {
    if (corpus == null) {
      corpus = new TreeMap<>();
      for (GeneratedScenario g : new Family2().scenarios(SEED)) {
        corpus.put(((Family2Scenario) g).name(), (Family2Scenario) g);
      }
    }
    return corpus.get(name);
  }
}
