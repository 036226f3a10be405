package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.JobGraph.Role;
import dev.checkpointdoctor.eval.family2.JobGraph.Vertex;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How the job was provisioned for its load, the way operators size jobs: the busiest task runs
 * at the planned utilization at the daily peak, CPU limits leave headroom, the gp2 volume's
 * baseline covers the average I/O with some margin (bursting above it at peaks), compaction
 * keeps up with a margin. Faults are then sized against this operating point ({@link
 * Faults.Calibration}).
 */
final class Sizing {
  static final int MAX_SUBTASKS = 16;

  final double[] tau;
  final double[] intensity;
  final double[][] subtaskCost;
  final int keyedVertex;
  final int bottleneckVertex;
  final double peakLoad;
  final double lowLoad;
  final double writeBytesPerRecord;
  final double cacheMissRatio;
  final double allocBytesPerRecord;
  final double writeBufferBytes;
  final double threadBytesPerSecond;
  final double[] baseOccupancy;
  final double cpuPerSlot;
  final double volumeGiB;
  final double baselineIops;
  private final double[] keyWeights;
  private final double[] stateShares;
  private final JobPlan plan;
  private final Faults.Calibration calibration;
  final double meanNodeIops;

  Sizing(JobPlan plan, List<Vertex> graph, SplittableRandom rng) {
    this.plan = plan;
    JobPlan.Workload w = plan.workload();
    JobPlan.Cluster c = plan.cluster();
    int vertices = graph.size();
    int p = c.parallelism();
    peakLoad = w.recordsPerSecond() * (1 + w.dailyAmplitude()) * 1.12;
    lowLoad = w.recordsPerSecond() * (1 - w.dailyAmplitude()) * Math.min(1, w.weekendFactor())
        * 0.8;
    tau = new double[vertices];
    intensity = new double[vertices];
    subtaskCost = new double[vertices][MAX_SUBTASKS];
    double maxWeight = 0;
    int keyed = -1;
    int stateful = 0;
    for (int v = 0; v < vertices; v++) {
      Vertex vx = graph.get(v);
      if (vx.cpuWeight() > maxWeight) {
        maxWeight = vx.cpuWeight();
      }
      if (vx.stateful() && keyed < 0) {
        keyed = v;
      }
      if (vx.stateful()) {
        stateful++;
      }
    }
    keyedVertex = keyed;
    int lookup = -1;
    for (int v = 0; v < vertices; v++) {
      if (graph.get(v).role() == Role.STATELESS) {
        lookup = v;
      }
    }
    boolean slowLookup = plan.faults().stream().anyMatch(f -> "slow_lookup".equals(f.variant()));
    bottleneckVertex = slowLookup && lookup >= 0 ? lookup : vertices - 1;
    // a state read that misses the block cache waits for the disk; at most a third of a
    // stateful record's time is spent so on a healthy disk
    double healthyLatency = new DiskVolume(c.volumeKind(), "x", 100, 3000, 0).baseLatencyS;
    double miss = Noise.logUniform(rng, 0.004, 0.04);
    double[] uPeak = new double[vertices];
    for (int v = 0; v < vertices; v++) {
      Vertex vx = graph.get(v);
      uPeak[v] = w.peakUtilization() * vx.cpuWeight() / maxWeight;
      double perSubtask = peakLoad * vx.selectivity() / p;
      if (vx.stateful() && c.backend() == JobPlan.Backend.ROCKSDB) {
        miss = Math.min(miss, uPeak[v] / perSubtask / 3 / healthyLatency);
      }
    }
    cacheMissRatio = miss;
    for (int v = 0; v < vertices; v++) {
      Vertex vx = graph.get(v);
      double perSubtask = peakLoad * vx.selectivity() / p;
      boolean reads = vx.stateful() && c.backend() == JobPlan.Backend.ROCKSDB;
      tau[v] = uPeak[v] / perSubtask - (reads ? miss * healthyLatency : 0);
      intensity[v] = vx.role() == Role.SINK ? Noise.uniform(rng, 0.3, 0.6)
          : Noise.uniform(rng, 0.6, 0.95);
      for (int i = 0; i < MAX_SUBTASKS; i++) {
        subtaskCost[v][i] = Math.exp(0.05 * rng.nextGaussian());
      }
    }
    keyWeights = new double[MAX_SUBTASKS];
    for (int i = 0; i < MAX_SUBTASKS; i++) {
      keyWeights[i] = Math.exp(Noise.uniform(rng, 0.03, 0.12) * rng.nextGaussian());
    }
    stateShares = new double[vertices];
    double first = stateful > 1 ? Noise.uniform(rng, 0.55, 0.8) : 1;
    boolean firstSeen = false;
    for (int v = 0; v < vertices; v++) {
      if (graph.get(v).stateful()) {
        stateShares[v] = firstSeen ? (1 - first) / Math.max(1, stateful - 1) : first;
        firstSeen = true;
      }
    }
    writeBytesPerRecord = w.writeBytesPerRecord();
    allocBytesPerRecord = Noise.logUniform(rng, 300, 3000);
    writeBufferBytes = new double[] {16, 32, 64, 64}[rng.nextInt(4)] * 1048576;
    // compaction keeps up at the peak with the planned margin (per instance of the stateful
    // vertex with the most state)
    double wa = writeAmplification(w.stateBytes() * (stateful > 1 ? first : 1) / p);
    double needPeak = peakLoad / p * writeBytesPerRecord * (wa - 1);
    double margin = w.compactionMargin();
    threadBytesPerSecond = Math.max(64 * 1024, needPeak * margin / 2);
    int tms = c.taskManagers();
    baseOccupancy = new double[tms];
    for (int k = 0; k < tms; k++) {
      baseOccupancy[k] = c.backend() == JobPlan.Backend.HASHMAP ? Noise.uniform(rng, 0.1, 0.18)
          : Noise.uniform(rng, 0.2, 0.38);
    }
    int slots = (p + tms - 1) / tms;
    double peakCores = 0.12 + compactionCores(needPeak, slots);
    for (int v = 0; v < vertices; v++) {
      peakCores += slots * uPeak[v] * intensity[v] * 1.1;
    }
    cpuPerSlot = Math.max(0.25, Math.ceil(peakCores / slots / c.peakCpuShare() * 4) / 4);
    meanNodeIops = meanNodeIops(graph, p, tms, c.nodes());
    if (c.volumeKind() == DiskVolume.Kind.GP2 && c.volumeGiB() <= 0) {
      // not sized yet (the pilot run): a first guess
      // big enough for the state (3x headroom for compaction and the previous checkpoint) and
      // for the average I/O with a margin; never so big that the baseline reaches the burst
      double forIops = meanNodeIops * Noise.uniform(rng, 1.5, 2.3) / 3;
      double forSpace = 3 * w.stateBytes() / c.nodes() / 1073741824.0;
      volumeGiB = Math.min(900, Math.round(Math.max(Math.max(forIops, forSpace),
          Noise.uniform(rng, 50, 200))));
    } else {
      volumeGiB = c.volumeGiB();
    }
    baselineIops = new DiskVolume(c.volumeKind(), "x", volumeGiB, c.provisionedIops(), 0)
        .baselineIops;
    double lowRatio = lowLoad / peakLoad;
    double quota = slots * cpuPerSlot;
    // a compaction fault has to bind at the lowest load too
    calibration = new Faults.Calibration(uPeak[bottleneckVertex] * lowRatio,
        keyed >= 0 ? uPeak[keyed] * lowRatio : 0.3, peakCores / quota,
        margin * peakLoad / lowLoad,
        baselineIops, w.stateBytes(), averageOccupancy(c), p);
  }

  private double writeAmplification(double instanceBytes) {
    return new RocksInstance(instanceBytes, writeBufferBytes, 1, 2, 0, 0).writeAmplification();
  }

  private double compactionCores(double needPerInstance, int instances) {
    return instances * needPerInstance / Math.max(1, threadBytesPerSecond) * 0.5;
  }

  private double averageOccupancy(JobPlan.Cluster c) {
    double sum = 0;
    for (double o : baseOccupancy) {
      sum += o;
    }
    double heapState = c.backend() == JobPlan.Backend.HASHMAP
        ? plan.workload().stateBytes() / c.taskManagers() * 2.2 / c.heapBytes() : 0;
    return sum / baseOccupancy.length + heapState;
  }

  /** Average IOPS the busiest node's data volume sees at the mean load. */
  private double meanNodeIops(List<Vertex> graph, int p, int tms, int nodes) {
    double[] perNode = new double[nodes];
    int slots = (p + tms - 1) / tms;
    double mean = plan.workload().recordsPerSecond();
    for (int v = 0; v < graph.size(); v++) {
      if (!graph.get(v).stateful() || plan.cluster().backend() != JobPlan.Backend.ROCKSDB) {
        continue;
      }
      for (int i = 0; i < p; i++) {
        int node = Math.min(tms - 1, i / slots) % nodes;
        double records = mean * graph.get(v).selectivity() / p;
        double bytes = records * writeBytesPerRecord;
        perNode[node] += bytes * 6 / JobPhysics.IO_BYTES * 2 + records * cacheMissRatio;
      }
    }
    double max = 0;
    for (double d : perNode) {
      max = Math.max(max, d);
    }
    return max + plan.workload().backgroundIops();
  }

  double stateShare(int v) {
    return stateShares[v];
  }

  /** Share of the keyed input of subtask i, with the hot key's extra share on subtask 0. */
  double keyedShare(int i, int p, double hotExtra) {
    double sum = 0;
    for (int k = 0; k < p; k++) {
      sum += keyWeights[k];
    }
    double base = keyWeights[i] / sum;
    int hot = hotSubtask(p);
    return i == hot ? base + hotExtra * (1 - base) : base * (1 - hotExtra);
  }

  int hotSubtask(int p) {
    return (int) (plan.seed() & 0x7fffffff) % p;
  }

  Faults.Calibration calibration() {
    return calibration;
  }

  /**
   * About how long the data volume's credit bucket lasts once a disk fault of this severity
   * has raised the demand: the first guess of when to raise it.
   */
  long drainEstimateMs(double severity) {
    double extra = Faults.diskExtraIops(baselineIops, severity);
    double demand = Math.min(DiskVolume.GP2_BURST, meanNodeIops + extra * 0.9);
    double net = Math.max(50, demand - baselineIops);
    return (long) (DiskVolume.GP2_BUCKET / net * 1000);
  }
}
