package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.JobGraph.Role;
import dev.checkpointdoctor.eval.family2.JobGraph.Vertex;
import dev.checkpointdoctor.eval.family2.JobPlan.Backend;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The simulated job and its machines, advanced in fixed ticks of event time: load, flow,
 * RocksDB, disks, JVMs, CPU quotas, checkpoints and life-cycle events. Nothing is stored per
 * tick: the state is the present only, and the scraper reads it as Prometheus would.
 */
final class JobPhysics {
  static final double TICK_S = 5;
  static final long TICK_MS = 5_000;
  /** The job runs this long before the history starts, so its state is warm when it does. */
  static final long WARMUP_MS = 2 * 3_600_000L;
  static final double IO_BYTES = 128 * 1024;
  static final double POINT_READ_BYTES = 16 * 1024;

  final JobPlan plan;
  final List<Vertex> graph;
  final Layout layout;
  final Sizing sizing;
  final Faults faults;
  final DiskVolume[] data;
  final DiskVolume[] root;
  final Lifecycles lifecycles;
  private final SplittableRandom rng;
  private final Noise.Ar1 loadNoise;
  private final Noise.RegimeJitter regime;
  private final Noise.Ar1[] costNoise;
  private final Noise.Ar1[] ioNoise;
  private final double[] burstUntil;
  private final double[] nextBurst;
  private final double[] burstIops;
  private final double[] jitter;
  private final CheckpointPlanner planner;

  Deployment deployment;
  CheckpointCoordinator coordinator;
  long restarts;
  double stateBytes;
  double backlog;
  long now;
  double throughput;
  double load;

  JobPhysics(JobPlan plan) {
    this.plan = plan;
    this.rng = new SplittableRandom(plan.seed());
    SplittableRandom structure = rng.split();
    JobPlan.Cluster c = plan.cluster();
    this.graph = JobGraph.template(c.template(), structure);
    this.layout = new Layout(c.layout(), c.nodes(), c.namespace(), c.clusterId(),
        image(c, structure), structure);
    this.sizing = new Sizing(plan, graph, structure);
    this.stateBytes = plan.workload().stateBytes();
    int n = c.nodes();
    data = new DiskVolume[n];
    root = new DiskVolume[n];
    ioNoise = new Noise.Ar1[n];
    burstUntil = new double[n];
    nextBurst = new double[n];
    burstIops = new double[n];
    boolean nitro = c.layout().kubernetes() || structure.nextDouble() < 0.7;
    for (int i = 0; i < n; i++) {
      data[i] = new DiskVolume(c.volumeKind(), nitro ? "nvme1n1" : "xvdf",
          sizing.volumeGiB, c.provisionedIops(), structure.nextDouble());
      root[i] = new DiskVolume(DiskVolume.Kind.GP3, nitro ? "nvme0n1" : "xvda", 50, 3000,
          structure.nextDouble());
      ioNoise[i] = new Noise.Ar1(0.25, 600, TICK_S, 3, structure);
      nextBurst[i] = plan.startMs() / 1000.0 + Noise.uniform(structure, 600, 4 * 3600);
      // log shipping, image pulls, a compaction of another tenant: above a gp2 baseline now
      // and then (spending credits), a small bump on a bigger volume
      burstIops[i] = c.volumeKind() == DiskVolume.Kind.GP2
          && sizing.baselineIops < 0.6 * DiskVolume.GP2_BURST
          ? sizing.baselineIops * Noise.uniform(structure, 0.5, 1.1)
          : sizing.meanNodeIops * Noise.uniform(structure, 1, 3) + Noise.uniform(structure, 50, 300);
    }
    JobPlan.NoiseSpec ns = plan.noise();
    loadNoise = new Noise.Ar1(ns.sigma(), ns.correlationSeconds(), TICK_S, ns.nu(), structure);
    regime = new Noise.RegimeJitter(ns.regimesPerHour(), ns.regimeSigma(), 45);
    costNoise = new Noise.Ar1[graph.size()];
    jitter = new double[graph.size()];
    for (int v = 0; v < graph.size(); v++) {
      costNoise[v] = new Noise.Ar1(ns.sigma() * 0.5, ns.correlationSeconds() * 0.7, TICK_S,
          ns.nu(), structure);
    }
    this.faults = new Faults(plan.faults(), plan.incidents(), sizing.calibration());
    this.planner = new CheckpointPlanner(this, structure.split());
    this.lifecycles = new Lifecycles(this, structure.split());
    this.now = plan.startMs() - WARMUP_MS;
    lifecycles.begin(now);
  }

  private static String image(JobPlan.Cluster c, SplittableRandom rng) {
    String v = c.version().id;
    return rng.nextBoolean() ? "docker.io/library/flink:" + v + "-scala_2.12-java17"
        : "registry.internal.example.com/streaming/" + c.clusterId() + ":" + v + "-"
            + (1 + rng.nextInt(40)) + "." + rng.nextInt(10) + ".0";
  }

  CheckpointPlanner planner() {
    return planner;
  }

  /** Advances until {@code t} (the last tick at or before it). */
  void advanceTo(long t) {
    while (now + TICK_MS <= t) {
      step(now + TICK_MS);
    }
  }

  private void step(long t) {
    now = t;
    lifecycles.apply(t);
    faults.at(t);
    double lam = sourceRate(t);
    load = lam;
    stateBytes += (plan.workload().driftPerHour() * plan.workload().stateBytes() / 3600
        + faults.stateGrowthPerSecond) * TICK_S;
    Deployment d = deployment;
    if (d == null || t < d.runningMs) {
      backlog += lam * TICK_S;
      throughput = 0;
      disks(t, d, false);
      return;
    }
    double offered = lam + (backlog > 0 ? Math.max(lam * 0.6, backlog / 90.0) : 0);
    // what the threads would do with all the CPU they want sets the CPU they ask the quota for
    capacities(d, true);
    double unthrottled = Flow.limit(d, graph, offered);
    cpu(d, unthrottled);
    capacities(d, false);
    for (int v = 0; v < graph.size(); v++) {
      jitter[v] = Math.exp(costNoise[v].next(rng) * 0.3);
    }
    double x = Flow.solve(d, graph, offered, jitter, rng);
    throughput = x;
    backlog = Math.max(0, backlog + (lam - x) * TICK_S);
    disks(t, d, true);
    jvms(d);
    coordinator.step(t, rng);
  }

  /** Records per second the sources would read now, without back-pressure. */
  double sourceRate(long t) {
    JobPlan.Workload w = plan.workload();
    ZonedDateTime z = Instant.ofEpochMilli(t).atZone(ZoneOffset.UTC);
    double hour = z.getHour() + z.getMinute() / 60.0;
    double phase = 2 * Math.PI * (hour - w.peakHourUtc()) / 24;
    double daily = 1 + w.dailyAmplitude() * (0.8 * Math.cos(phase) + 0.2 * Math.cos(2 * phase));
    DayOfWeek day = z.getDayOfWeek();
    double weekend = day == DayOfWeek.SATURDAY || day == DayOfWeek.SUNDAY ? w.weekendFactor()
        : 1;
    return w.recordsPerSecond() * daily * weekend * Math.exp(loadNoise.next(rng))
        * regime.next(rng, TICK_S) * faults.loadFactor;
  }

  /**
   * Per-record CPU cost of a vertex. A CPU-cost fault (heavier deserialisation, a costlier
   * format or UDF) applies to every task: all threads of a slot want more CPU.
   */
  private double cost(int v) {
    return sizing.tau[v] * faults.cpuCostFactor;
  }

  private void capacities(Deployment d, boolean unthrottled) {
    for (int v = 0; v < graph.size(); v++) {
      Vertex vx = graph.get(v);
      double cost = cost(v);
      for (int i = 0; i < d.parallelism; i++) {
        int k = d.tmOf(i);
        double cpu = d.cfs.isEmpty() || unthrottled ? 1 : d.cfs.get(k).cpuFactor;
        double gcAvail = 1 - d.jvms.get(k).gcMsPerSecond / 1000;
        double perRecord = cost * sizing.subtaskCost[v][i % Sizing.MAX_SUBTASKS] / cpu;
        RocksInstance r = d.rocks[v] == null ? null : d.rocks[v][i];
        if (r != null) {
          // a state read that misses the block cache waits for the disk on the task thread
          DiskVolume disk = data[layout.nodes.indexOf(d.tms.get(k).node())];
          perRecord += sizing.cacheMissRatio * disk.latencyS;
        }
        double cap = gcAvail / perRecord;
        if (v == sizing.bottleneckVertex) {
          cap *= faults.bottleneckCapacity;
        }
        if (r != null) {
          cap = Math.min(cap, r.writeCapacity / (sizing.writeBytesPerRecord * faults.writeFactor));
        }
        if (vx.role() == Role.STATEFUL && v == sizing.keyedVertex) {
          d.share[v][i] = sizing.keyedShare(i, d.parallelism, faults.hotExtraShare);
        }
        d.capacity[v][i] = Math.max(1e-3, cap);
      }
    }
  }

  /** RocksDB instances and the volumes under them. */
  private void disks(long t, Deployment d, boolean running) {
    double ts = t / 1000.0;
    for (int n = 0; n < data.length; n++) {
      double readBps = 0;
      double writeBps = 0;
      double pointReads = 0;
      if (d != null && running) {
        for (int v = 0; v < graph.size(); v++) {
          if (d.rocks[v] == null) {
            continue;
          }
          for (int i = 0; i < d.parallelism; i++) {
            if (d.tms.get(d.tmOf(i)).node() != layout.nodes.get(n)) {
              continue;
            }
            RocksInstance r = d.rocks[v][i];
            double w = d.recordsIn[v][i] * sizing.writeBytesPerRecord * faults.writeFactor;
            // compactions come in jobs of whole files: the I/O of one tick is lumpy
            double lumps = Math.exp(0.3 * rng.nextGaussian() - 0.045);
            writeBps += r.wantedWriteBytes(w) * lumps;
            readBps += r.wantedReadBytes(w) * lumps;
            pointReads += d.recordsIn[v][i] * sizing.cacheMissRatio;
          }
        }
      } else if (d != null && t >= d.upMs) {
        writeBps += lifecycles.restoreWriteBps(n);
      }
      if (ts >= nextBurst[n]) {
        burstUntil[n] = ts + Noise.uniform(rng, 300, 1200);
        nextBurst[n] = burstUntil[n] + Noise.uniform(rng, 5400, 4 * 3600);
      }
      double background = plan.workload().backgroundIops() * Math.exp(ioNoise[n].next(rng))
          + (ts < burstUntil[n] ? burstIops[n] : 0);
      double extra = faults.extraDiskIops * (1 + 0.05 * Noise.studentT(rng, 4));
      double readIops = readBps / IO_BYTES + pointReads + background * 0.3
          + extra * faults.extraReadFraction;
      double writeIops = writeBps / IO_BYTES + background * 0.7
          + extra * (1 - faults.extraReadFraction);
      double fraction = data[n].serve(readIops, writeIops,
          readBps + pointReads * POINT_READ_BYTES + background * 0.3 * 16384,
          writeBps + background * 0.7 * 32768 + extra * 65536, TICK_S,
          Math.max(-3, Math.min(3, rng.nextGaussian())));
      root[n].serve(3 + rng.nextDouble() * 4, 15 + rng.nextDouble() * 20, 40_000, 400_000,
          TICK_S, 0);
      if (d != null && running) {
        stepRocks(d, n, fraction);
      }
    }
  }

  private void stepRocks(Deployment d, int node, double fraction) {
    for (int v = 0; v < graph.size(); v++) {
      if (d.rocks[v] == null) {
        continue;
      }
      for (int i = 0; i < d.parallelism; i++) {
        int k = d.tmOf(i);
        if (d.tms.get(k).node() != layout.nodes.get(node)) {
          continue;
        }
        RocksInstance r = d.rocks[v][i];
        double perRecord = sizing.writeBytesPerRecord * faults.writeFactor;
        double w = d.recordsIn[v][i] * perRecord;
        double wanted = Math.max(w, load * d.share[v][i] * graph.get(v).selectivity()
            * perRecord);
        r.stateBytes = stateBytes * sizing.stateShare(v) / d.parallelism;
        double cpu = d.cfs.isEmpty() ? 1 : d.cfs.get(k).cpuFactor;
        r.step(w, wanted, fraction, cpu, faults.compactionSlowdown, TICK_S);
      }
    }
  }

  /** CFS quotas: the CPU each TaskManager's threads want for {@code rate} records/s. */
  private void cpu(Deployment d, double rate) {
    if (d.cfs.isEmpty()) {
      return;
    }
    for (int k = 0; k < d.tms.size(); k++) {
      double wanted = 0.12;
      for (int i = 0; i < d.parallelism; i++) {
        if (d.tmOf(i) != k) {
          continue;
        }
        for (int v = 0; v < graph.size(); v++) {
          double records = rate * d.share[v][i] * graph.get(v).selectivity();
          wanted += Math.min(1.0, records * cost(v)) * sizing.intensity[v];
          if (d.rocks[v] != null) {
            wanted += d.rocks[v][i].compactionBytesPerSecond / d.rocks[v][i].threadBytesPerSecond;
          }
        }
      }
      wanted += d.jvms.get(k).gcMsPerSecond / 1000 * 2;
      wanted += coordinator.inProgress() ? 0.15 : 0;
      wanted += faults.extraCpuShare * d.cfs.get(k).quotaCores;
      d.cfs.get(k).step(wanted, TICK_S);
    }
  }

  private void jvms(Deployment d) {
    for (int k = 0; k < d.tms.size(); k++) {
      double records = 0;
      double heapState = 0;
      for (int i = 0; i < d.parallelism; i++) {
        if (d.tmOf(i) != k) {
          continue;
        }
        for (int v = 0; v < graph.size(); v++) {
          records += d.recordsIn[v][i] + (graph.get(v).role() == Role.SOURCE
              ? throughput * d.share[v][i] : 0);
        }
        if (plan.cluster().backend() == Backend.HASHMAP) {
          heapState += stateBytes / d.parallelism;
        }
      }
      Jvm jvm = d.jvms.get(k);
      double live = jvm.heapMax * sizing.baseOccupancy[k % sizing.baseOccupancy.length]
          + heapState * 2.2;
      if (faults.liveOccupancyTarget > 0) {
        live = Math.max(live, jvm.heapMax * faults.liveOccupancyTarget
            * (0.985 + 0.03 * ((k * 7919) % 10) / 10.0));
      }
      double cpu = d.cfs.isEmpty() ? 1 : d.cfs.get(k).cpuFactor;
      jvm.step(live, records * sizing.allocBytesPerRecord, cpu, TICK_S, rng);
    }
  }

}
