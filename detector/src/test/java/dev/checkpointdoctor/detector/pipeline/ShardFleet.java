package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;

/**
 * A small fleet for comparing one detector with shards: jobs whose TaskManagers share hosts (so a
 * host's node series belong to jobs on different shards), TaskManager JVM series, node_exporter
 * disks (one host runs no job: unjoined), cAdvisor containers named after TaskManagers (one pod
 * of no TaskManager: unjoined), per-target scrape offsets (job frames end when later samples
 * arrive), a fault (one job's checkpoints slow down while its host's disk saturates), a restart
 * under a new job_id and a series that ends with a stale marker. Deterministic.
 */
final class ShardFleet {
  static final long T0 = 1_796_000_000_000L;
  static final long SCRAPE_MS = 15_000;
  static final double STALE = Double.longBitsToDouble(Detector.STALE_NAN_BITS);

  /** One sample of one series. */
  record Sample(Labels labels, long ts, double value) {}

  private final int jobs;
  private final int hosts;
  private final int faultFrom;
  private final double[] counters;
  /** When set, every scrape hands out the same Labels instance per series, as a decoder does. */
  private java.util.Map<Labels, Labels> instances;

  ShardFleet(int jobs, int hosts, int faultFrom) {
    this.jobs = jobs;
    this.hosts = hosts;
    this.faultFrom = faultFrom;
    this.counters = new double[4096];
  }

  /** Hands out one Labels instance per series from now on (the detector's memo path). */
  ShardFleet reusingLabels() {
    instances = new java.util.HashMap<>();
    return this;
  }

  /** Every sample of scrape {@code round}, in an order that interleaves targets. */
  List<Sample> scrape(int round) {
    List<Sample> out = new ArrayList<>();
    long t = T0 + round * SCRAPE_MS;
    int c = 0;
    for (int j = 0; j < jobs; j++) {
      String job = "job_" + j;
      String jobId = j == 4 && round >= 90 ? "restarted0000000000000000000004" : "id_" + j;
      String host = "host_" + (j % hosts);
      String tm = "tm_" + j;
      boolean fault = j == 1 && round >= faultFrom;
      double noise = noise(j, round);
      long jm = t + 300 * j; // each JobManager is scraped at its own offset
      double duration = (fault ? 9_000 : 1_500) * (1 + 0.1 * noise);
      out.add(new Sample(jobGauge("lastCheckpointDuration", job, jobId), jm, duration));
      out.add(new Sample(jobGauge("lastCompletedCheckpointId", job, jobId), jm,
          round - (j == 4 && round >= 90 ? 90 : 0)));
      out.add(new Sample(jobGauge("lastCheckpointSize", job, jobId), jm,
          (50 << 20) * (1 + 0.05 * noise)));
      out.add(new Sample(jobGauge("numberOfFailedCheckpoints", job, jobId), jm, 0));
      out.add(new Sample(jobGauge("numberOfInProgressCheckpoints", job, jobId), jm, 0));
      long tmTs = t + 1_100 + 50 * j;
      for (int s = 0; s < 2; s++) {
        Labels busy = task("busyTimeMsPerSecond", job, jobId, host, tm, s);
        if (j == 3 && s == 1 && round == 70) {
          out.add(new Sample(busy, tmTs, STALE));
        } else if (!(j == 3 && s == 1 && round > 70 && round < 75)) {
          out.add(new Sample(busy, tmTs, 300 + 50 * noise + (fault ? 500 : 0)));
        }
        out.add(new Sample(task("backPressuredTimeMsPerSecond", job, jobId, host, tm, s), tmTs,
            fault ? 700 : 20 + 5 * noise));
      }
      out.add(new Sample(tmSeries("GarbageCollector_All_TimeMsPerSecond", host, tm), tmTs,
          15 + 3 * noise));
      out.add(new Sample(tmSeries("Memory_Heap_Used", host, tm), tmTs, 4e8 * (1 + 0.1 * noise)));
      out.add(new Sample(tmSeries("Memory_Heap_Max", host, tm), tmTs, 1e9));
      if (j % 2 == 0) {
        out.add(new Sample(container("container_cpu_cfs_periods_total", tm), tmTs + 7,
            counter(c++, 100)));
        out.add(new Sample(container("container_cpu_cfs_throttled_periods_total", tm), tmTs + 7,
            counter(c++, 5 + 2 * noise)));
      }
    }
    out.add(new Sample(container("container_cpu_cfs_periods_total", "lonely_pod"), t + 900,
        counter(c++, 100)));
    out.add(new Sample(container("container_cpu_cfs_throttled_periods_total", "lonely_pod"),
        t + 900, counter(c++, 1)));
    for (int h = 0; h <= hosts; h++) { // host_<hosts> runs no job
      String instance = "host_" + h + ":9100";
      long nodeTs = t + 2_000 + 10 * h;
      boolean hot = h == 1 && round >= faultFrom;
      double noise = noise(100 + h, round);
      out.add(new Sample(node("node_disk_writes_completed_total", instance), nodeTs,
          counter(c++, 15 * (hot ? 3_000 : 800 + 40 * noise))));
      out.add(new Sample(node("node_disk_reads_completed_total", instance), nodeTs,
          counter(c++, 15 * (200 + 10 * noise))));
      out.add(new Sample(node("node_disk_io_time_seconds_total", instance), nodeTs,
          counter(c++, 15 * (hot ? 0.99 : 0.3 + 0.02 * noise))));
      out.add(new Sample(node("node_disk_write_time_seconds_total", instance), nodeTs,
          counter(c++, 15 * (hot ? 30 : 1 + 0.05 * noise))));
      out.add(new Sample(node("node_disk_read_time_seconds_total", instance), nodeTs,
          counter(c++, 15 * (0.2 + 0.01 * noise))));
    }
    // interleave targets as remote-write shards would: a fixed permutation
    List<Sample> shuffled = new ArrayList<>(out.size());
    int step = 7;
    for (int k = 0; k < step; k++) {
      for (int i = k; i < out.size(); i += step) {
        Sample s = out.get(i);
        shuffled.add(instances == null ? s
            : new Sample(instances.computeIfAbsent(s.labels(), l -> l), s.ts(), s.value()));
      }
    }
    return shuffled;
  }

  private double counter(int slot, double increment) {
    counters[slot] += Math.max(0, increment);
    return counters[slot];
  }

  static double noise(long a, long b) {
    long z = (a * 0x9E3779B97F4A7C15L) ^ (b * 0xBF58476D1CE4E5B9L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return (z >>> 11) * 0x1.0p-52 - 1;
  }

  private static Labels jobGauge(String metric, String job, String jobId) {
    return Labels.of("__name__", "flink_jobmanager_job_" + metric, "host", "jm", "job", "flink",
        "job_id", jobId, "job_name", job);
  }

  private static Labels task(String metric, String job, String jobId, String host, String tm,
      int subtask) {
    return Labels.of("__name__", "flink_taskmanager_job_task_" + metric, "host", host, "job",
        "flink", "job_id", jobId, "job_name", job, "subtask_index", Integer.toString(subtask),
        "task_name", "window", "tm_id", tm);
  }

  private static Labels tmSeries(String metric, String host, String tm) {
    return Labels.of("__name__", "flink_taskmanager_Status_JVM_" + metric, "host", host, "job",
        "flink", "tm_id", tm);
  }

  private static Labels node(String metric, String instance) {
    return Labels.of("__name__", metric, "device", "vda", "instance", instance, "job", "node");
  }

  private static Labels container(String metric, String pod) {
    return Labels.of("__name__", metric, "container", "taskmanager", "job", "cadvisor", "pod",
        pod);
  }
}
