package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CPU per diagnosis of one realistic job, through the path the server uses ({@link
 * Detector#endBatch()} diagnosing a touched job with an open anomaly): 4 tasks x 8 subtasks, 16
 * RocksDB column families, 4 TaskManagers with their node disks and containers, scraped every
 * 15 s. Two hours of healthy scrapes fill the histories, then the disk of node 0 is throttled
 * (write IOPS flat at a ceiling, the disk busy, checkpoints slower), which opens anomalies that
 * stay open while the fault lasts; every later scrape ends in a diagnosis.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.checkpointdoctor.bench.DiagnosisBench}
 * replays the same seeded job several times (the first runs warm the JIT) and prints the thread
 * CPU ns per diagnosis of each measured run, plus a digest of every diagnosis' full text: two
 * builds that diagnose alike print the same digest. The JMH method scores one fault scrape
 * (its samples plus its diagnosis) in wall time, which the shared machine makes noisy.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DiagnosisBench {
  static final long SCRAPE_MS = 15_000;
  static final int HEALTHY_SCRAPES = 480; // 2 h
  static final int FAULT_SCRAPES = 240; // 1 h
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private Job job;

  @Setup(Level.Trial)
  public void setUp() {
    job = new Job(7, false);
    for (int i = 0; i < HEALTHY_SCRAPES + 40; i++) {
      job.scrape();
    }
  }

  /** One scrape of the faulty job: its samples and the diagnosis at its end. */
  @Benchmark
  public int faultScrape() {
    job.scrape();
    return job.diagnoses;
  }

  public static void main(String[] args) throws Exception {
    int warmRuns = Integer.getInteger("warmRuns", 6);
    int runs = Integer.getInteger("runs", 5);
    StringBuilder out = new StringBuilder("CPU ns per diagnosis:");
    String digest = null;
    for (int r = 0; r < warmRuns + runs; r++) {
      Job j = new Job(7, true);
      for (int i = 0; i < HEALTHY_SCRAPES + FAULT_SCRAPES; i++) {
        j.scrape();
      }
      String d = HexFormat.of().formatHex(j.digest.digest()).substring(0, 16);
      if (digest != null && !digest.equals(d)) {
        throw new IllegalStateException("runs diagnosed differently: " + digest + " " + d);
      }
      digest = d;
      if (r >= warmRuns) {
        out.append(String.format(" %,d", j.diagnosisCpuNs / j.diagnoses));
      }
      if (r == 0) {
        System.out.println("diagnoses per run: " + j.diagnoses + ", last: " + j.last.cause()
            + " " + j.last.confidence() + " via " + j.last.signal());
      }
    }
    System.out.println(out);
    System.out.println("digest of every diagnosis: " + digest);
  }

  /** The simulated job, its detector and the timed diagnoser. */
  static final class Job {
    static final int TASKS = 4;
    static final int PARALLELISM = 8;
    static final int TMS = 4;
    static final long T0 = 1_796_000_000_000L;

    final Random rnd;
    final Detector detector;
    final CauseRanker ranker;
    final boolean digesting;
    final MessageDigest digest;
    final Map<String, Labels> labels = new HashMap<>();
    long now = T0;
    int scrapes;
    long diagnosisCpuNs;
    int diagnoses;
    Diagnosis last;
    // cumulative counters
    long completed;
    long lastCompletedAt = T0;
    double lastDuration = 4_000;
    final double[] writes = new double[TMS];
    final double[] reads = new double[TMS];
    final double[] written = new double[TMS];
    final double[] ioTime = new double[TMS];
    final double[] readTime = new double[TMS];
    final double[] writeTime = new double[TMS];
    final double[] periods = new double[TMS];
    final double[] throttled = new double[TMS];
    final double[] stallMicros = new double[2 * PARALLELISM];
    final double baseIops = 1500;

    Job(long seed, boolean digesting) {
      rnd = new Random(seed);
      this.digesting = digesting;
      try {
        digest = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      DetectorSettings settings = DetectorSettings.defaults();
      ranker = new CauseRanker(settings);
      Diagnoser timed = (view, since) -> {
        long t0 = THREADS.getCurrentThreadCpuTime();
        Diagnosis d = ranker.diagnose(view, since);
        diagnosisCpuNs += THREADS.getCurrentThreadCpuTime() - t0;
        diagnoses++;
        last = d;
        if (this.digesting) {
          digest.update(String.valueOf(d).getBytes(StandardCharsets.UTF_8));
        }
        return d;
      };
      detector = new Detector(SignalCatalog.defaults(), settings, timed);
    }

    double jitter(double noise) {
      return 1 + noise * rnd.nextGaussian();
    }

    void scrape() {
      boolean fault = scrapes >= HEALTHY_SCRAPES;
      double dt = SCRAPE_MS / 1000.0;
      // a checkpoint completes every minute, slower and further apart under the fault
      double duration = (fault ? 35_000 : 4_000) * jitter(0.1);
      if (now - lastCompletedAt >= 60_000 + (fault ? lastDuration : 0)) {
        completed++;
        lastCompletedAt = now;
        lastDuration = Math.round(duration);
      }
      String jp = "flink_jobmanager_job_";
      gauge(jp + "lastCheckpointDuration", lastDuration, "jm");
      gauge(jp + "lastCheckpointSize", Math.round(300e6 * jitter(0.02)), "jm");
      gauge(jp + "lastCheckpointFullSize", Math.round(2e9 * jitter(0.01)), "jm");
      gauge(jp + "lastCheckpointPersistedData", 0, "jm");
      gauge(jp + "numberOfCompletedCheckpoints", completed, "jm");
      gauge(jp + "numberOfFailedCheckpoints", 0, "jm");
      gauge(jp + "numberOfInProgressCheckpoints", fault || scrapes % 4 == 0 ? 1 : 0, "jm");
      gauge(jp + "numRestarts", 0, "jm");
      String tp = "flink_taskmanager_job_task_";
      for (int t = 0; t < TASKS; t++) {
        for (int i = 0; i < PARALLELISM; i++) {
          String task = "task/" + t + "/" + i;
          double bp = Math.max(0, 15 * rnd.nextGaussian() + 10);
          gauge(tp + "backPressuredTimeMsPerSecond", Math.min(1000, bp), task);
          gauge(tp + "busyTimeMsPerSecond", Math.min(1000, 300 * jitter(0.1)), task);
          gauge(tp + "numRecordsInPerSecond", 2000 * jitter(0.1), task);
          gauge(tp + "checkpointStartDelayNanos", (5 + rnd.nextInt(40)) * 1e6, task);
          gauge(tp + "checkpointAlignmentTime", 0, task);
        }
      }
      for (int o = 0; o < 2 * PARALLELISM; o++) {
        String op = "op/" + o;
        String cf = "flink_taskmanager_job_task_operator_window_contents_rocksdb_";
        gauge(cf + "num_files_at_level0", 2 + rnd.nextInt(3) + (fault ? 3 : 0), op);
        gauge(cf + "estimate_pending_compaction_bytes", (10L << 20) * jitter(0.1), op);
        gauge(cf + "actual_delayed_write_rate", 0, op);
        gauge(cf + "is_write_stopped", 0, op);
        stallMicros[o] += rnd.nextInt(300) * dt;
        gauge("flink_taskmanager_job_task_operator_rocksdb_stall_micros", stallMicros[o], op);
      }
      for (int m = 0; m < TMS; m++) {
        String tm = "tm/" + m;
        gauge("flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond",
            Math.max(0, 10 * jitter(0.1)), tm);
        gauge("flink_taskmanager_Status_JVM_Memory_Heap_Max", 4e9, tm);
        gauge("flink_taskmanager_Status_JVM_Memory_Heap_Used", (0.45 + 0.1 * rnd.nextDouble())
            * 4e9, tm);
        boolean throttledDisk = fault && m == 0;
        double writeIops = throttledDisk ? 0.6 * baseIops * jitter(0.005)
            : baseIops * (1 + 0.24 * rnd.nextGaussian());
        double util = throttledDisk ? 0.99 : Math.min(1, 0.3 * jitter(0.1));
        double latency = (throttledDisk ? 6 : 0.8) * jitter(0.1);
        double w = Math.max(0, writeIops) * dt;
        double r = Math.max(0, 0.3 * baseIops * jitter(0.1)) * dt;
        writes[m] += w;
        reads[m] += r;
        written[m] += w * 32 * 1024;
        ioTime[m] += util * dt;
        readTime[m] += r * latency / 1000;
        writeTime[m] += w * latency / 1000;
        String node = "node/" + m;
        gauge("node_disk_writes_completed_total", writes[m], node);
        gauge("node_disk_reads_completed_total", reads[m], node);
        gauge("node_disk_written_bytes_total", written[m], node);
        gauge("node_disk_io_time_seconds_total", ioTime[m], node);
        gauge("node_disk_read_time_seconds_total", readTime[m], node);
        gauge("node_disk_write_time_seconds_total", writeTime[m], node);
        periods[m] += 10 * dt;
        throttled[m] += 10 * dt * 0.02;
        String pod = "pod/" + m;
        gauge("container_cpu_cfs_periods_total", Math.round(periods[m]), pod);
        gauge("container_cpu_cfs_throttled_periods_total", Math.round(throttled[m]), pod);
      }
      detector.endBatch();
      now += SCRAPE_MS;
      scrapes++;
    }

    private void gauge(String name, double value, String where) {
      Labels l = labels.computeIfAbsent(name + "|" + where, k -> labelsOf(name, where));
      detector.accept(l, new long[] {now}, new double[] {value});
    }

    private static Labels labelsOf(String name, String where) {
      String[] w = where.split("/");
      List<String> kv = new ArrayList<>(List.of("__name__", name));
      String jobId = "00000000000000000000000000000b07";
      switch (w[0]) {
        case "jm" -> kv.addAll(List.of("job", "flink", "instance", "jm:9249", "host", "jm_0",
            "job_id", jobId, "job_name", "orders"));
        case "task" -> {
          int i = Integer.parseInt(w[2]);
          int m = i % TMS;
          kv.addAll(List.of("job", "flink", "instance", "tm-" + m + ":9249", "host",
              "worker_" + m, "tm_id", "flink_tm_" + m, "job_id", jobId, "job_name", "orders",
              "subtask_index", Integer.toString(i), "task_name", "task_" + w[1], "task_id",
              "t" + w[1]));
        }
        case "op" -> {
          int o = Integer.parseInt(w[1]);
          int i = o % PARALLELISM;
          int m = i % TMS;
          String task = "task_" + (1 + o / PARALLELISM);
          kv.addAll(List.of("job", "flink", "instance", "tm-" + m + ":9249", "host",
              "worker_" + m, "tm_id", "flink_tm_" + m, "job_id", jobId, "job_name", "orders",
              "subtask_index", Integer.toString(i), "task_name", task, "operator_name", task));
        }
        case "tm" -> kv.addAll(List.of("job", "flink", "instance", "tm-" + w[1] + ":9249",
            "host", "worker_" + w[1], "tm_id", "flink_tm_" + w[1]));
        case "node" -> kv.addAll(List.of("job", "node", "instance", "worker-" + w[1] + ":9100",
            "device", "nvme1n1"));
        case "pod" -> kv.addAll(List.of("job", "kubelet", "pod", "flink-tm-" + w[1], "container",
            "flink-main-container", "namespace", "flink"));
        default -> throw new IllegalArgumentException(where);
      }
      return Labels.of(kv.toArray(new String[0]));
    }
  }
}
