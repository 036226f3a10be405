package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.api.bootstrap.FakePromApi.Series;
import dev.checkpointdoctor.api.bootstrap.FakePromApi.ValueFn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Flink jobs as Prometheus holds them, for {@link FakePromApi}: per job the JobManager's ten
 * checkpoint gauges (a checkpoint completing every minute), and on each of its TaskManagers four
 * subtasks' five task metrics, three JVM series and node_exporter's six disk counters of its host;
 * everything scraped every 15 s, each target at its own offset. 68 series per job with the
 * defaults.
 */
public final class SyntheticFleet {
  public static final long SCRAPE_MS = 15_000;
  public static final long CHECKPOINT_MS = 60_000;

  private SyntheticFleet() {}

  /** The checkpoint duration of the checkpoint completed {@code id}: about 2 s, wobbling. */
  public static double normalDuration(long id) {
    return 2000 + Math.floorMod(id * 7919, 201) - 100;
  }

  public static List<Series> fleet(int jobs, int tmsPerJob, long firstMs, long lastMs) {
    List<Series> out = new ArrayList<>();
    for (int j = 0; j < jobs; j++) {
      out.addAll(job("job-" + j, j, tmsPerJob, firstMs, lastMs, SyntheticFleet::normalDuration));
    }
    return out;
  }

  /** One job; {@code duration} gives each completed checkpoint's duration by its id. */
  public static List<Series> job(String name, int n, int tms, long firstMs, long lastMs,
      java.util.function.LongToDoubleFunction duration) {
    List<Series> out = new ArrayList<>();
    String jobId = String.format("%032x", n + 1);
    long jmPhase = Math.floorMod(n * 1337L, SCRAPE_MS);
    Map<String, String> jm = Map.of("job", "flink", "instance", "jm-" + n + ":9249",
        "job_id", jobId, "job_name", name, "host", "jm-" + n);
    ValueFn id = t -> Math.floorDiv(t - firstMs, CHECKPOINT_MS);
    ValueFn completedAt = t -> firstMs + id.at(t) * CHECKPOINT_MS;
    out.add(s("flink_jobmanager_job_lastCompletedCheckpointId", jm, jmPhase, firstMs, lastMs, id));
    out.add(s("flink_jobmanager_job_numberOfCompletedCheckpoints", jm, jmPhase, firstMs, lastMs,
        id));
    out.add(s("flink_jobmanager_job_numberOfFailedCheckpoints", jm, jmPhase, firstMs, lastMs,
        t -> 0));
    out.add(s("flink_jobmanager_job_numberOfInProgressCheckpoints", jm, jmPhase, firstMs, lastMs,
        t -> 0));
    out.add(s("flink_jobmanager_job_numRestarts", jm, jmPhase, firstMs, lastMs, t -> 0));
    out.add(s("flink_jobmanager_job_lastCheckpointDuration", jm, jmPhase, firstMs, lastMs,
        t -> duration.applyAsDouble((long) id.at(t))));
    out.add(s("flink_jobmanager_job_lastCheckpointSize", jm, jmPhase, firstMs, lastMs,
        t -> 50_000_000 + 1000 * Math.floorMod((long) id.at(t), 17)));
    out.add(s("flink_jobmanager_job_lastCheckpointFullSize", jm, jmPhase, firstMs, lastMs,
        t -> 900_000_000 + 1000 * Math.floorMod((long) id.at(t), 13)));
    out.add(s("flink_jobmanager_job_lastCheckpointPersistedData", jm, jmPhase, firstMs, lastMs,
        t -> 50_000_000));
    out.add(s("flink_jobmanager_job_lastCheckpointCompletedTimestamp", jm, jmPhase, firstMs,
        lastMs, completedAt));
    for (int k = 0; k < tms; k++) {
      String host = "host-" + n + "-" + k;
      String tm = "tm_" + n + "_" + k;
      long phase = Math.floorMod(n * 7331L + k * 977L, SCRAPE_MS);
      Map<String, String> tmLabels = Map.of("job", "flink", "instance", host + ":9249",
          "host", host, "tm_id", tm);
      for (int sub = 0; sub < 4; sub++) {
        Map<String, String> task = new LinkedHashMap<>(tmLabels);
        task.put("job_id", jobId);
        task.put("job_name", name);
        task.put("task_name", "map");
        task.put("subtask_index", Integer.toString(k * 4 + sub));
        int seed = sub;
        out.add(s("flink_taskmanager_job_task_busyTimeMsPerSecond", task, phase, firstMs, lastMs,
            t -> 300 + Math.floorMod(t / SCRAPE_MS + seed, 40)));
        out.add(s("flink_taskmanager_job_task_backPressuredTimeMsPerSecond", task, phase, firstMs,
            lastMs, t -> Math.floorMod(t / SCRAPE_MS, 5)));
        out.add(s("flink_taskmanager_job_task_numRecordsInPerSecond", task, phase, firstMs,
            lastMs, t -> 1000 + Math.floorMod(t / SCRAPE_MS, 100)));
        out.add(s("flink_taskmanager_job_task_checkpointStartDelayNanos", task, phase, firstMs,
            lastMs, t -> 1e6 * (5 + Math.floorMod((long) id.at(t), 7))));
        out.add(s("flink_taskmanager_job_task_checkpointAlignmentTime", task, phase, firstMs,
            lastMs, t -> 1e6 * (2 + Math.floorMod((long) id.at(t), 3))));
      }
      out.add(s("flink_taskmanager_Status_JVM_Memory_Heap_Used", tmLabels, phase, firstMs, lastMs,
          t -> 1e9 + 1e6 * Math.floorMod(t / SCRAPE_MS, 300)));
      out.add(s("flink_taskmanager_Status_JVM_Memory_Heap_Max", tmLabels, phase, firstMs, lastMs,
          t -> 4e9));
      out.add(s("flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond", tmLabels,
          phase, firstMs, lastMs, t -> 5 + Math.floorMod(t / SCRAPE_MS, 3)));
      long nodePhase = Math.floorMod(phase + 4000, SCRAPE_MS);
      Map<String, String> node = Map.of("job", "node", "instance", host + ":9100",
          "device", "sda");
      double secs = 1 / 1000.0;
      out.add(s("node_disk_reads_completed_total", node, nodePhase, firstMs, lastMs,
          t -> Math.floor(t * secs * 20)));
      out.add(s("node_disk_writes_completed_total", node, nodePhase, firstMs, lastMs,
          t -> Math.floor(t * secs * 100)));
      out.add(s("node_disk_written_bytes_total", node, nodePhase, firstMs, lastMs,
          t -> Math.floor(t * secs * 4e6)));
      out.add(s("node_disk_io_time_seconds_total", node, nodePhase, firstMs, lastMs,
          t -> t * secs * 0.2));
      out.add(s("node_disk_read_time_seconds_total", node, nodePhase, firstMs, lastMs,
          t -> t * secs * 0.01));
      out.add(s("node_disk_write_time_seconds_total", node, nodePhase, firstMs, lastMs,
          t -> t * secs * 0.05));
    }
    return out;
  }

  private static Series s(String name, Map<String, String> labels, long phase, long firstMs,
      long lastMs, ValueFn value) {
    Map<String, String> l = new LinkedHashMap<>(labels);
    l.put("__name__", name);
    long first = phase + Math.floorDiv(firstMs - phase + SCRAPE_MS - 1, SCRAPE_MS) * SCRAPE_MS;
    return new Series(Map.copyOf(l), SCRAPE_MS, phase, first, lastMs, value);
  }
}
