package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.JobPlan.Backend;
import dev.checkpointdoctor.eval.family2.JobPlan.FaultPlan;
import dev.checkpointdoctor.eval.family2.JobPlan.FlinkVersion;
import dev.checkpointdoctor.eval.family2.JobPlan.Lifecycle;
import dev.checkpointdoctor.eval.family2.JobPlan.RocksShape;
import dev.checkpointdoctor.eval.family2.JobPlan.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A job being drawn: every parameter starts from a random production-like default and the
 * planner overrides what a scenario needs (a layout, a backend, a fault). {@link #build()}
 * freezes it into a {@link JobPlan}.
 */
final class JobDraft {
  private static final long[] INTERVALS_S = {30, 60, 90, 120, 180, 300};
  private static final int[] PARALLELISMS = {2, 2, 3, 4, 4, 4, 6, 6, 8, 8, 12, 16};

  final SplittableRandom rng;
  String name;
  String jobName;
  String expected = "healthy";
  String control;
  long seed;
  long startMs;
  long endMs;
  FlinkVersion version;
  Layout.Kind layout;
  Backend backend = Backend.ROCKSDB;
  RocksShape rocksShape;
  int parallelism;
  int taskManagers;
  int nodes;
  DiskVolume.Kind volume;
  /** Data volume size; for gp2 0 until the pilot run measured the I/O it needs. */
  double volumeGiB = 0;
  double provisionedIops = 3000;
  double peakCpuShare;
  double heapBytes;
  String[] collectors;
  int template;
  boolean legacySource;
  double recordsPerSecond;
  double recordBytes;
  double dailyAmplitude;
  double peakHour;
  double weekendFactor = 1;
  double peakUtilization;
  double stateBytes;
  double driftPerHour;
  double writeBytesPerRecord;
  Storage storage;
  double uploadBps;
  double fileLatencyMs;
  double fixedSeconds;
  double backgroundIops;
  double compactionMargin;
  long intervalMs;
  long timeoutMs;
  long minPauseMs;
  boolean incremental;
  boolean unaligned;
  int buffersPerChannel;
  int floatingBuffers;
  int flinkScrape;
  int nodeScrape;
  int kubeletScrape;
  double failedScrapeRate;
  double sigma;
  double correlationS;
  int nu;
  double regimesPerHour;
  double regimeSigma;
  final List<FaultPlan> faults = new ArrayList<>();
  final List<FaultPlan> incidents = new ArrayList<>();
  final List<Lifecycle> lifecycle = new ArrayList<>();

  JobDraft(long seed, long startMs) {
    this.seed = seed;
    this.rng = new SplittableRandom(seed);
    this.startMs = startMs;
    this.endMs = startMs + 17 * 3_600_000L;
    version = rng.nextBoolean() ? FlinkVersion.V1_20_3 : FlinkVersion.V2_3_0;
    layout = Layout.Kind.values()[rng.nextInt(Layout.Kind.values().length)];
    rocksShape = rng.nextBoolean() ? RocksShape.COLUMN_FAMILY_LABEL : RocksShape.PER_STATE_NAME;
    parallelism(PARALLELISMS[rng.nextInt(PARALLELISMS.length)]);
    double v = rng.nextDouble();
    volume = v < 0.45 ? DiskVolume.Kind.GP2 : v < 0.8 ? DiskVolume.Kind.GP3 : DiskVolume.Kind.NVME;
    peakCpuShare = Noise.uniform(rng, 0.35, 0.6);
    double c = rng.nextDouble();
    collectors = c < 0.65 ? Jvm.G1 : c < 0.8 ? Jvm.G1_JDK21 : Jvm.PARALLEL;
    template = rng.nextInt(JobGraph.TEMPLATES);
    legacySource = rng.nextDouble() < 0.15;
    recordsPerSecond = Noise.logUniform(rng, 800, 150_000);
    recordBytes = Noise.logUniform(rng, 120, 1800);
    dailyAmplitude = rng.nextDouble() < 0.15 ? 0 : Noise.uniform(rng, 0.08, 0.45);
    peakHour = Noise.uniform(rng, 0, 24);
    peakUtilization = Noise.uniform(rng, 0.3, 0.62);
    stateBytes = Noise.logUniform(rng, 300e6, 60e9);
    driftPerHour = Noise.uniform(rng, 0, 0.004);
    writeBytesPerRecord = Noise.logUniform(rng, 40, 360);
    double s = rng.nextDouble();
    storage = s < 0.55 ? Storage.S3 : s < 0.85 ? Storage.HDFS : Storage.NFS;
    switch (storage) {
      case S3 -> {
        uploadBps = Noise.logUniform(rng, 60, 220) * 1048576;
        fileLatencyMs = Noise.uniform(rng, 30, 120);
      }
      case HDFS -> {
        uploadBps = Noise.logUniform(rng, 90, 320) * 1048576;
        fileLatencyMs = Noise.uniform(rng, 5, 30);
      }
      default -> {
        uploadBps = Noise.logUniform(rng, 40, 140) * 1048576;
        fileLatencyMs = Noise.uniform(rng, 2, 15);
      }
    }
    fixedSeconds = Noise.logUniform(rng, 0.2, 2.5);
    backgroundIops = Noise.uniform(rng, 5, 40);
    compactionMargin = Noise.logUniform(rng, 5, 30);
    intervalMs = INTERVALS_S[rng.nextInt(INTERVALS_S.length)] * 1000;
    double t = rng.nextDouble();
    timeoutMs = (t < 0.7 ? 10 : t < 0.85 ? 15 : 30) * 60_000L;
    minPauseMs = rng.nextBoolean() ? 0 : Math.min(intervalMs / 2,
        new long[] {5_000, 10_000, 30_000}[rng.nextInt(3)]);
    incremental = rng.nextDouble() < 0.75;
    unaligned = rng.nextDouble() < 0.12;
    buffersPerChannel = new int[] {2, 2, 4, 8}[rng.nextInt(4)];
    floatingBuffers = new int[] {8, 8, 16, 64}[rng.nextInt(4)];
    int[] scrapes = {15, 15, 30, 30, 60};
    flinkScrape = scrapes[rng.nextInt(scrapes.length)];
    nodeScrape = scrapes[rng.nextInt(scrapes.length)];
    kubeletScrape = scrapes[rng.nextInt(scrapes.length)];
    failedScrapeRate = Noise.uniform(rng, 0.0005, 0.004);
    sigma = Noise.uniform(rng, 0.03, 0.11);
    correlationS = Noise.logUniform(rng, 60, 1800);
    nu = 3 + rng.nextInt(3);
    regimesPerHour = Noise.uniform(rng, 0.02, 0.2);
    regimeSigma = Noise.uniform(rng, 0.03, 0.1);
  }

  JobDraft parallelism(int p) {
    parallelism = p;
    int maxSlots = 1 + rng.nextInt(4);
    taskManagers = Math.max(1, Math.min(4, (p + maxSlots - 1) / maxSlots));
    nodes = Math.max(1, taskManagers - (taskManagers > 2 && rng.nextBoolean() ? 1 : 0));
    return this;
  }

  /** Heap sized as operators size it: heap-backend state at 25-40 % of the heap. */
  private double heap() {
    if (backend == Backend.HASHMAP) {
      return stateBytes / taskManagers * 2.2 / Noise.uniform(rng, 0.25, 0.4);
    }
    return Noise.logUniform(rng, 1, 8) * 1073741824.0;
  }

  JobDraft heapBackend() {
    backend = Backend.HASHMAP;
    rocksShape = RocksShape.NONE;
    stateBytes = Noise.logUniform(rng, 50e6, 2e9);
    incremental = false;
    return this;
  }

  /**
   * Freezes the draft. The checkpoint interval is then checked the way an operator checks it:
   * a pilot run of the healthy job (no faults, no life-cycle events) measures the median
   * checkpoint duration, and an interval shorter than four durations is raised (or the
   * checkpoints made incremental, or the storage faster) until it fits. Only the
   * checkpoint-interval fault then shortens it, relative to that measured duration.
   */
  JobPlan build() {
    if (heapBytes <= 0) {
      heapBytes = heap();
    }
    if (backend == Backend.HASHMAP) {
      rocksShape = RocksShape.NONE;
    }
    double median = 0;
    for (int attempt = 0; attempt < 5; attempt++) {
      Pilot.Result pilot = Pilot.run(assemble());
      median = pilot.medianDurationSeconds();
      if (pilot.dataVolumeBytesShare() > 0.4 && attempt < 3) {
        // a heavy writer is not put on a volume whose throughput it would fill: it gets local
        // NVMe, unless the scenario is about the volume, then it writes less
        if (expected.equals(Faults.DISK)) {
          writeBytesPerRecord *= 0.35 / pilot.dataVolumeBytesShare();
        } else {
          volume = DiskVolume.Kind.NVME;
        }
        continue;
      }
      if (expected.equals(Faults.DISK) && pilot.dataVolumeIops() > 600 && attempt < 3) {
        // a burst-credit case needs headroom under the 3,000 IOPS burst for the extra demand
        writeBytesPerRecord *= 500 / pilot.dataVolumeIops();
        continue;
      }
      if (volume == DiskVolume.Kind.GP2 && volumeGiB <= 0 && expected.equals(Faults.DISK)) {
        // a small volume sized close to the job's own need: its baseline is well below the burst
        double baseline = pilot.dataVolumeIops() * (1 + dailyAmplitude)
            * Noise.uniform(rng, 1.2, 1.6);
        volumeGiB = Math.round(Math.min(333, Math.max(50, Math.max(baseline / 3,
            3 * stateBytes / nodes / 1073741824.0))));
      } else if (volume == DiskVolume.Kind.GP2 && volumeGiB <= 0) {
        // sized for the I/O it was measured to need, with a margin (bursting at peaks), and
        // for the space the state takes; never so big that the baseline reaches the burst
        double forIops = pilot.dataVolumeIops() * (1 + dailyAmplitude)
            * Noise.uniform(rng, 1.4, 2.0) / 3;
        double forSpace = 3 * stateBytes / nodes / 1073741824.0;
        volumeGiB = Math.min(900, Math.round(Math.max(Math.max(forIops, forSpace),
            Noise.uniform(rng, 50, 200))));
      }
      if (median * 4 <= intervalMs / 1000.0) {
        break;
      }
      long fitting = 0;
      for (long option : INTERVALS_S) {
        if (option >= median * 4 && (fitting == 0 || option < fitting)) {
          fitting = option;
        }
      }
      if (fitting > 0) {
        intervalMs = fitting * 1000;
      } else if (backend == Backend.ROCKSDB && !incremental) {
        incremental = true;
      } else {
        uploadBps *= median * 4 / 240;
        fixedSeconds = Math.min(fixedSeconds, 40);
      }
    }
    for (int k = 0; k < lifecycle.size(); k++) {
      Lifecycle l = lifecycle.get(k);
      if (l.kind() != Lifecycle.Kind.REDEPLOY || l.intervalMs() <= 0) {
        continue;
      }
      long shorter = expected.equals(Faults.INTERVAL)
          ? Math.max(10, Math.round(median / Noise.uniform(rng, 1.5, 2.5) / 5) * 5)
          : Math.max(l.intervalMs() / 1000, (long) Math.ceil(median * 4 / 30) * 30);
      lifecycle.set(k, new Lifecycle(l.kind(), l.atMs(), l.parallelism(), shorter * 1000,
          l.downtimeMs()));
    }
    return assemble();
  }

  private JobPlan assemble() {
    JobPlan.Cluster cluster = new JobPlan.Cluster(version, layout, backend, rocksShape,
        parallelism, taskManagers, nodes, volume, volumeGiB, provisionedIops, peakCpuShare,
        heapBytes, collectors, template, namespace(), clusterId(), legacySource);
    JobPlan.Workload workload = new JobPlan.Workload(recordsPerSecond, recordBytes,
        dailyAmplitude, peakHour, weekendFactor, peakUtilization, stateBytes, driftPerHour,
        writeBytesPerRecord, storage, uploadBps, fileLatencyMs, fixedSeconds, backgroundIops,
        compactionMargin);
    JobPlan.Checkpointing cp = new JobPlan.Checkpointing(intervalMs, timeoutMs, minPauseMs,
        incremental && backend == Backend.ROCKSDB, unaligned, buffersPerChannel,
        floatingBuffers);
    JobPlan.ScrapeSpec scrape = new JobPlan.ScrapeSpec(flinkScrape, nodeScrape, kubeletScrape,
        failedScrapeRate);
    JobPlan.NoiseSpec noise = new JobPlan.NoiseSpec(sigma, correlationS, nu, regimesPerHour,
        regimeSigma);
    lifecycle.sort((a, b) -> Long.compare(a.atMs(), b.atMs()));
    return new JobPlan(name, jobName, expected, control, seed, startMs, endMs, cluster, workload,
        cp, scrape, noise, faults, incidents, lifecycle);
  }

  private String namespace() {
    return new String[] {"streaming", "data-platform", "fraud", "analytics"}[
        (int) Math.floorMod(seed, 4L)];
  }

  private String clusterId() {
    return jobName.replace('_', '-').toLowerCase(java.util.Locale.ROOT);
  }
}
