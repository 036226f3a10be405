package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Test-only simulation of one Flink job, its TaskManagers' nodes and containers, scraped every
 * {@code scrapeSeconds} and fed through {@link Detector#accept} with the real metric names. Each
 * scrape starts from seeded noisy "normal" values; a scenario then overrides what its fault
 * changes. Checkpoints are simulated (trigger every interval, at most one in flight, expiry at
 * the timeout) so ids, durations, ages, in-progress and failure counts come out as Flink reports
 * them. Public for the bench module's {@code DiagnosisBench}, which diagnoses the same job.
 */
public final class FlinkJobSim {
  static final long T0 = 1_796_000_000_000L; // 2026-11-29T... UTC, a whole minute
  static final String[] TASKS = {"Source:_kafka", "window", "Sink:_kafka"};

  /** Sets one scrape's values; {@code faultMs} is the time since the fault began (< 0 before). */
  public interface Scenario {
    void apply(FlinkJobSim s, long faultMs);
  }

  final Random rnd;
  final Detector detector;
  final String job;
  final int parallelism;
  final int tms;
  final long scrapeMs;
  final boolean flink2;
  String jobId = "00000000000000000000000000000a01";
  long now = T0;
  private final Map<String, Labels> labels = new HashMap<>();

  /**
   * cAdvisor's container series are scraped every this many Flink scrapes (a kubelet job
   * scraped more slowly than Flink's reporter); the counters count on in between.
   */
  int containerEvery = 1;
  private long scrapes;

  // ---- values of the current scrape (scenarios override them)
  long intervalMs = 60_000;
  double durationMs;
  double fullSize;
  double persisted;
  double incrementalShare = 0.2;
  /** Whether the reported full size counts the persisted in-flight data (Flink's does). */
  boolean persistedInFullSize;
  final double[][] bp;
  final double[][] busy;
  final double[][] startDelayMs;
  final double[][] recordsIn;
  final double[] gcMsPerS;
  final double[] heap;
  final double[] cpuThrottled;
  final double[] writeIops;
  final double[] readIops;
  final double[] util;
  final double[] latencyMs;
  final double[] l0;
  final double[] pending;
  final double[] delayedRate;
  final double[] stopped;
  final double[] stallUsPerS;

  // ---- base levels, scaled per instance so rules are not tuned to one shape
  final double baseDurationMs;
  final double baseSize;
  final double baseIops;
  final double noise;

  // ---- cumulative state
  private long completedId;
  private long failed;
  private long restarts;
  private double lastDuration = -1;
  private double lastSize = -1;
  private double lastFullSize = -1;
  private double lastPersisted = -1;
  private long lastCompletedTs = -1;
  private long running = -1;
  private double runningDuration;
  private long nextTrigger = T0 + 5_000;
  private final double[] writes;
  private final double[] reads;
  private final double[] written;
  private final double[] ioTime;
  private final double[] readTime;
  private final double[] writeTime;
  private final double[] periods;
  private final double[] throttled;
  private final double[] stallMicros;

  FlinkJobSim(long seed, int parallelism, int tms, int scrapeSeconds, boolean flink2) {
    this(seed, parallelism, tms, scrapeSeconds, flink2, DetectorSettings.defaults());
  }

  FlinkJobSim(long seed, int parallelism, int tms, int scrapeSeconds, boolean flink2,
      DetectorSettings settings) {
    this(seed, parallelism, tms, scrapeSeconds, flink2, settings, new CauseRanker(settings));
  }

  public FlinkJobSim(long seed, int parallelism, int tms, int scrapeSeconds, boolean flink2,
      DetectorSettings settings, dev.checkpointdoctor.detector.pipeline.Diagnoser diagnoser) {
    this.rnd = new Random(seed);
    this.detector = new Detector(SignalCatalog.defaults(), settings, diagnoser);
    this.job = "orders_" + seed;
    this.parallelism = parallelism;
    this.tms = tms;
    this.scrapeMs = scrapeSeconds * 1000L;
    this.flink2 = flink2;
    this.baseDurationMs = 3_000 + rnd.nextDouble() * 20_000;
    this.baseSize = (200L << 20) * (1 + rnd.nextDouble() * 20);
    this.baseIops = 600 + rnd.nextDouble() * 2400;
    this.noise = 0.05 + rnd.nextDouble() * 0.1;
    int n = TASKS.length;
    bp = new double[n][parallelism];
    busy = new double[n][parallelism];
    startDelayMs = new double[n][parallelism];
    recordsIn = new double[n][parallelism];
    gcMsPerS = new double[tms];
    heap = new double[tms];
    cpuThrottled = new double[tms];
    writeIops = new double[tms];
    readIops = new double[tms];
    util = new double[tms];
    latencyMs = new double[tms];
    l0 = new double[parallelism];
    pending = new double[parallelism];
    delayedRate = new double[parallelism];
    stopped = new double[parallelism];
    stallUsPerS = new double[parallelism];
    writes = new double[tms];
    reads = new double[tms];
    written = new double[tms];
    ioTime = new double[tms];
    readTime = new double[tms];
    writeTime = new double[tms];
    periods = new double[tms];
    throttled = new double[tms];
    stallMicros = new double[parallelism];
  }

  double jitter() {
    return 1 + noise * rnd.nextGaussian();
  }

  /** Every TaskManager disk held flat at {@code ceiling} IOPS, busy ~100 %, slow per I/O. */
  public static Scenario diskCeiling(double ceiling) {
    return (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        x.writeIops[m] = ceiling * 0.8 * (1 + 0.004 * x.rnd.nextGaussian());
        x.readIops[m] = ceiling * 0.2 * (1 + 0.004 * x.rnd.nextGaussian());
        x.util[m] = 0.98 + 0.02 * x.rnd.nextDouble();
        x.latencyMs[m] = 15 * x.jitter();
      }
    };
  }

  /**
   * One TaskManager's disk held at {@code ceiling} IOPS (three quarters writes), busy ~100 %,
   * 40 ms per I/O.
   */
  static void throttledDisk(FlinkJobSim x, int m, double ceiling) {
    x.writeIops[m] = ceiling * 0.75 * (1 + 0.01 * x.rnd.nextGaussian());
    x.readIops[m] = ceiling * 0.25 * (1 + 0.01 * x.rnd.nextGaussian());
    x.util[m] = 0.97 + 0.03 * x.rnd.nextDouble();
    x.latencyMs[m] = 40 * x.jitter();
  }

  /** RocksDB stalling behind a slow disk: busy keyed task, delayed writes, stall time, debt. */
  static void rocksDbStalling(FlinkJobSim x) {
    for (int i = 0; i < x.parallelism; i++) {
      x.busy[1][i] = 950 + 50 * x.rnd.nextDouble();
      x.delayedRate[i] = x.rnd.nextDouble() < 0.5 ? 8 << 20 : 0;
      x.stallUsPerS[i] = 80_000 * x.jitter();
      x.pending[i] = (600L << 20) * x.jitter();
    }
    x.durationMs = x.baseDurationMs * 4 * x.jitter();
  }

  /** Normal operation for {@code normalMinutes}, then the fault for {@code faultMinutes}. */
  public FlinkJobSim run(double normalMinutes, double faultMinutes, Scenario fault) {
    long faultStart = now + (long) (normalMinutes * 60_000);
    long end = faultStart + (long) (faultMinutes * 60_000);
    while (now < end) {
      normal();
      if (now >= faultStart) {
        fault.apply(this, now - faultStart);
      }
      scrape();
      now += scrapeMs;
    }
    return this;
  }

  /**
   * Runs {@code scrapes} scrapes of {@code fault} (its time counted from now), and the causes the
   * job's diagnosis named, scrape by scrape.
   */
  List<String> namedScrapeByScrape(int scrapes, Scenario fault) {
    long start = now;
    List<String> named = new ArrayList<>();
    for (int scrape = 0; scrape < scrapes; scrape++) {
      run(0, scrapeMs / 60_000.0, (x, ignored) -> fault.apply(x, x.now - start));
      detector.diagnosis(job).ifPresent(d -> named.add(d.cause()));
    }
    return named;
  }

  long faultStartAfter(double normalMinutes) {
    return T0 + (long) (normalMinutes * 60_000);
  }

  private void normal() {
    durationMs = baseDurationMs * jitter();
    fullSize = baseSize * (1 + 0.02 * rnd.nextGaussian());
    persisted = 0;
    for (int t = 0; t < TASKS.length; t++) {
      for (int i = 0; i < parallelism; i++) {
        bp[t][i] = Math.max(0, 15 * rnd.nextGaussian() + 10);
        busy[t][i] = Math.max(0, 300 * jitter());
        startDelayMs[t][i] = 5 + rnd.nextInt(40);
        recordsIn[t][i] = 2000 * jitter();
      }
    }
    for (int m = 0; m < tms; m++) {
      gcMsPerS[m] = Math.max(0, 10 * jitter());
      heap[m] = 0.45 + 0.1 * rnd.nextDouble();
      cpuThrottled[m] = Math.max(0, 0.02 + 0.01 * rnd.nextGaussian());
      writeIops[m] = baseIops * (1 + 0.3 * rnd.nextGaussian() * 0.8);
      readIops[m] = 0.3 * baseIops * jitter();
      util[m] = Math.min(1, 0.3 * jitter());
      latencyMs[m] = 0.8 * jitter();
    }
    for (int i = 0; i < parallelism; i++) {
      l0[i] = 2 + rnd.nextInt(3);
      pending[i] = (10L << 20) * jitter();
      delayedRate[i] = 0;
      stopped[i] = 0;
      stallUsPerS[i] = rnd.nextInt(300);
    }
  }

  /** A restart under a new job_id: Flink's job gauges start over. */
  void restart(String newJobId) {
    jobId = newJobId;
    completedId = 0;
    failed = 0;
    restarts = 0;
    lastDuration = -1;
    lastSize = -1;
    lastFullSize = -1;
    lastPersisted = -1;
    lastCompletedTs = -1;
    running = -1;
    nextTrigger = now + intervalMs;
  }

  /**
   * Checkpoints declined at once because not every task runs yet (right after a start): they
   * count as failed at once, and nothing about them reaches the other gauges.
   */
  void decline(int checkpoints) {
    failed += checkpoints;
  }

  private void checkpoints() {
    long timeout = detector.settings().checkpointTimeout().toMillis();
    while (true) {
      if (running >= 0) {
        long done = running + (long) runningDuration;
        long expiry = running + timeout;
        if (Math.min(done, expiry) > now) {
          break;
        }
        if (done <= expiry) {
          completedId++;
          lastDuration = Math.round(runningDuration);
          lastFullSize = Math.round(fullSize + (persistedInFullSize ? persisted : 0));
          lastSize = Math.round(fullSize * incrementalShare + persisted);
          lastPersisted = Math.round(persisted);
          lastCompletedTs = done;
          nextTrigger = Math.max(running + intervalMs, done);
        } else {
          failed++;
          nextTrigger = Math.max(running + intervalMs, expiry);
        }
        running = -1;
      }
      if (nextTrigger > now) {
        break;
      }
      running = nextTrigger;
      runningDuration = durationMs;
    }
  }

  private void scrape() {
    checkpoints();
    long ts = now;
    String jp = "flink_jobmanager_job_";
    gauge(jp + "lastCheckpointDuration", lastDuration, "jm");
    gauge(jp + "lastCheckpointSize", lastSize, "jm");
    gauge(jp + "lastCheckpointFullSize", lastFullSize, "jm");
    gauge(jp + "lastCheckpointPersistedData", lastPersisted, "jm");
    gauge(jp + (flink2 ? "lastCompletedCheckpointId" : "numberOfCompletedCheckpoints"),
        flink2 ? (completedId == 0 ? -1 : completedId) : completedId, "jm");
    gauge(jp + "numberOfFailedCheckpoints", failed, "jm");
    gauge(jp + "numberOfInProgressCheckpoints", running >= 0 ? 1 : 0, "jm");
    gauge(jp + "numRestarts", restarts, "jm");
    if (flink2) {
      gauge(jp + "lastCheckpointCompletedTimestamp", lastCompletedTs, "jm");
    }
    double dt = scrapeMs / 1000.0;
    String tp = "flink_taskmanager_job_task_";
    for (int t = 0; t < TASKS.length; t++) {
      for (int i = 0; i < parallelism; i++) {
        String task = "task/" + t + "/" + i;
        gauge(tp + "backPressuredTimeMsPerSecond", Math.min(1000, bp[t][i]), task);
        gauge(tp + "busyTimeMsPerSecond", Math.min(1000, busy[t][i]), task);
        gauge(tp + "numRecordsInPerSecond", recordsIn[t][i], task);
        gauge(tp + "checkpointStartDelayNanos", Math.round(startDelayMs[t][i]) * 1e6, task);
        gauge(tp + "checkpointAlignmentTime", 0, task);
      }
    }
    for (int i = 0; i < parallelism; i++) {
      String op = "op/" + i;
      String cf = "flink_taskmanager_job_task_operator_"
          + (flink2 ? "column_family_rocksdb_" : "window_contents_rocksdb_");
      gauge(cf + "num_files_at_level0", l0[i], op);
      gauge(cf + "estimate_pending_compaction_bytes", pending[i], op);
      gauge(cf + "actual_delayed_write_rate", delayedRate[i], op);
      gauge(cf + "is_write_stopped", stopped[i], op);
      stallMicros[i] += stallUsPerS[i] * dt;
      gauge("flink_taskmanager_job_task_operator_rocksdb_stall_micros", stallMicros[i], op);
    }
    for (int m = 0; m < tms; m++) {
      String tm = "tm/" + m;
      gauge("flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond", gcMsPerS[m], tm);
      gauge("flink_taskmanager_Status_JVM_Memory_Heap_Max", 4e9, tm);
      gauge("flink_taskmanager_Status_JVM_Memory_Heap_Used", heap[m] * 4e9, tm);
      double w = Math.max(0, writeIops[m]) * dt;
      double r = Math.max(0, readIops[m]) * dt;
      writes[m] += w;
      reads[m] += r;
      written[m] += w * 32 * 1024;
      ioTime[m] += Math.min(1, util[m]) * dt;
      readTime[m] += r * latencyMs[m] / 1000;
      writeTime[m] += w * latencyMs[m] / 1000;
      String node = "node/" + m;
      gauge("node_disk_writes_completed_total", writes[m], node);
      gauge("node_disk_reads_completed_total", reads[m], node);
      gauge("node_disk_written_bytes_total", written[m], node);
      gauge("node_disk_io_time_seconds_total", ioTime[m], node);
      gauge("node_disk_read_time_seconds_total", readTime[m], node);
      gauge("node_disk_write_time_seconds_total", writeTime[m], node);
      periods[m] += 10 * dt;
      throttled[m] += 10 * dt * Math.min(1, cpuThrottled[m]);
      String pod = "pod/" + m;
      if (scrapes % containerEvery == 0) {
        gauge("container_cpu_cfs_periods_total", Math.round(periods[m]), pod);
        gauge("container_cpu_cfs_throttled_periods_total", Math.round(throttled[m]), pod);
      }
    }
    scrapes++;
    detector.endBatch();
  }

  private void gauge(String name, double value, String where) {
    Labels l = labels.computeIfAbsent(name + "|" + where + "|" + jobId, k -> labelsOf(name, where));
    detector.accept(l, new long[] {now}, new double[] {value});
  }

  private Labels labelsOf(String name, String where) {
    String[] w = where.split("/");
    List<String> kv = new ArrayList<>(List.of("__name__", name));
    switch (w[0]) {
      case "jm" -> kv.addAll(List.of("job", "flink", "instance", "jm:9249", "host", "jm_0",
          "job_id", jobId, "job_name", job));
      case "task", "op" -> {
        int i = Integer.parseInt(w[w.length - 1]);
        int m = i % tms;
        kv.addAll(List.of("job", "flink", "instance", "tm-" + m + ":9249", "host",
            "worker_" + m, "tm_id", "flink_tm_" + m, "job_id", jobId, "job_name", job,
            "subtask_index", Integer.toString(i)));
        if (w[0].equals("task")) {
          kv.addAll(List.of("task_name", TASKS[Integer.parseInt(w[1])], "task_id",
              "t" + w[1]));
        } else {
          kv.addAll(List.of("task_name", "window", "operator_name", "window"));
          if (name.contains("column_family")) {
            kv.addAll(List.of("column_family", "window_contents"));
          }
        }
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
