package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.JobGraph.Vertex;
import dev.checkpointdoctor.eval.family2.JobPlan.Backend;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What one checkpoint costs, from the state of the job when it is triggered, phase by phase
 * as Flink's checkpoint monitoring splits it:
 *
 * <ul>
 *   <li>start delay: the barrier travels behind the records already queued in front of it,
 *       so it waits about {@code queued records / processing rate} at every exchange; an
 *       unaligned barrier overtakes the queue and waits only for the task to be free;
 *   <li>alignment: from the first to the last barrier of a subtask's input channels;
 *   <li>sync: the memtable flush (RocksDB, bounded by the local disk) or the copy-on-write
 *       snapshot (heap), stretched by GC pauses and CPU throttling;
 *   <li>async: reading the new SST files from the local disk and uploading them (and the
 *       persisted in-flight data of an unaligned checkpoint) at the TaskManager's share of the
 *       storage bandwidth, plus a per-file latency;
 *   <li>the JobManager's metadata write.
 * </ul>
 */
final class CheckpointPlanner implements CheckpointCoordinator.Planner {
  static final double BUFFER_BYTES = 32 * 1024;

  private final JobPhysics job;
  private final SplittableRandom rng;
  private double[][] pendingStart;
  private double[][] pendingAlign;

  CheckpointPlanner(JobPhysics job, SplittableRandom rng) {
    this.job = job;
    this.rng = rng;
  }

  @Override
  public CheckpointCoordinator.Outcome plan(long triggerMs, long id, SplittableRandom unused) {
    Deployment d = job.deployment;
    List<Vertex> graph = job.graph;
    JobPlan.Workload w = job.plan.workload();
    boolean unaligned = job.plan.checkpointing().unaligned();
    int p = d.parallelism;
    int vertices = graph.size();
    double recordBytes = w.recordBytes();
    double recordsPerBuffer = Math.max(1, BUFFER_BYTES / recordBytes);
    pendingStart = new double[vertices][p];
    pendingAlign = new double[vertices][p];
    double[] arrival = new double[p];
    for (int i = 0; i < p; i++) {
      // the trigger RPC and the source's mailbox
      arrival[i] = 0.004 + 0.02 * rng.nextDouble() + d.busy[0][i] / 1000 * 0.01;
      pendingStart[0][i] = arrival[i];
    }
    double persisted = 0;
    double maxBarrier = 0;
    for (int v = 1; v < vertices; v++) {
      Vertex vx = graph.get(v);
      int channels = vx.keyedInput() ? p : 1;
      JobPlan.Checkpointing cp = job.plan.checkpointing();
      double gateRecords = (cp.buffersPerChannel() * channels + cp.floatingBuffers())
          * recordsPerBuffer;
      double outRecords = (channels + cp.floatingBuffers()) * recordsPerBuffer;
      double[] next = new double[p];
      double earliest = Double.MAX_VALUE;
      double latest = 0;
      for (int j = 0; j < p; j++) {
        earliest = Math.min(earliest, arrival[j]);
        latest = Math.max(latest, arrival[j]);
      }
      for (int i = 0; i < p; i++) {
        double first = vx.keyedInput() ? earliest : arrival[i];
        double last = vx.keyedInput() ? latest : arrival[i];
        double fill = d.fill[v][i];
        double inFlight = fill * (gateRecords + outRecords);
        persisted += inFlight * recordBytes;
        double rate = Math.max(0.5, d.recordsIn[v][i]);
        double start;
        double align;
        if (unaligned) {
          // overtakes the queue; a hard back-pressured task first needs a free buffer
          double wait = fill > 0.8 ? recordsPerBuffer / rate * rng.nextDouble() : 0;
          start = first + 0.002 + wait;
          align = vx.keyedInput() ? Math.min(last - first, 0.05) * rng.nextDouble() : 0;
          next[i] = start;
        } else {
          // below saturation the output flusher sends a buffer at least every 100 ms, so a
          // barrier waits about that, more as the task gets busier; behind a full queue it
          // waits for the whole queue to drain
          double u = Math.min(0.95, d.utilization[v][i]);
          double latency = 0.05 * (0.3 + 0.7 * rng.nextDouble()) / (1 - u);
          double queue = Math.min(1200, Math.max(latency, fill > 0.3 ? inFlight / rate : 0));
          double heterogeneity = 0.05 + 0.25 * rng.nextDouble() * fill;
          start = first + queue * (1 - heterogeneity);
          double end = last + queue * (1 + heterogeneity);
          align = vx.keyedInput() ? Math.max(0, end - start) : 0;
          next[i] = start + align;
        }
        pendingStart[v][i] = start;
        pendingAlign[v][i] = align;
        maxBarrier = Math.max(maxBarrier, start + align);
      }
      arrival = next;
    }
    if (!unaligned) {
      persisted = 0;
    }
    return phases(d, triggerMs, persisted, maxBarrier);
  }

  private CheckpointCoordinator.Outcome phases(Deployment d, long triggerMs, double persisted,
      double maxBarrier) {
    JobPlan plan = job.plan;
    JobPlan.Workload w = plan.workload();
    Faults f = job.faults;
    boolean incremental = plan.checkpointing().incremental();
    boolean heap = plan.cluster().backend() == Backend.HASHMAP;
    int p = d.parallelism;
    double full = job.stateBytes;
    double size = 0;
    double slowest = 0;
    int[] uploaders = new int[d.tms.size()];
    for (int i = 0; i < p; i++) {
      uploaders[d.tmOf(i)]++;
    }
    for (int i = 0; i < p; i++) {
      int k = d.tmOf(i);
      double cpu = d.cfs.isEmpty() ? 1 : d.cfs.get(k).cpuFactor;
      double gc = d.jvms.get(k).gcMsPerSecond / 1000;
      double diskFraction = diskFraction(d, k);
      double bytes = 0;
      double files = 1;
      double sync = 0.002 + 0.004 * rng.nextDouble();
      for (int v = 0; v < job.graph.size(); v++) {
        RocksInstance r = d.rocks[v] == null ? null : d.rocks[v][i];
        if (r != null) {
          // the new SST files since the last checkpoint, never more than the whole tree
          double newBytes = incremental
              ? Math.min(r.newSstBytesSinceCheckpoint * 0.55, r.stateBytes) : r.stateBytes;
          r.newSstBytesSinceCheckpoint = 0;
          bytes += newBytes;
          files += job.graph.get(v).states().size() * (1 + Math.ceil(newBytes / r.writeBufferBytes));
          double memtable = r.writeBufferBytes * (0.1 + 0.6 * rng.nextDouble());
          sync += memtable / (120 * 1048576.0 * Math.max(0.01, diskFraction));
        } else if (heap && job.graph.get(v).stateful()) {
          double share = job.stateBytes * job.sizing.stateShare(v) / p;
          bytes += share;
          sync += share / 4e9;
          files += 1;
        }
      }
      size += bytes;
      double bandwidth = w.uploadBytesPerSecond() * f.uploadFactor * Math.sqrt(cpu)
          / uploaders[k];
      double latency = w.fileLatencyMs() / 1000 * f.fileLatencyFactor;
      double read = heap ? 0 : bytes / (250 * 1048576.0 * Math.max(0.01, diskFraction));
      double async = bytes / bandwidth + files * latency / 4 + read;
      if (persisted > 0) {
        async += persisted / p / bandwidth;
      }
      double stretch = (1 + 3 * gc) / Math.max(0.05, cpu);
      double barrier = 0;
      for (int v = 0; v < pendingStart.length; v++) {
        barrier = Math.max(barrier, pendingStart[v][i] + pendingAlign[v][i]);
      }
      double total = barrier + sync * stretch
          + async * (1 + gc) / Math.max(0.2, Math.sqrt(cpu));
      slowest = Math.max(slowest, total);
    }
    // the per-checkpoint cost that does not scale with bytes is mostly requests to the store
    // (creates, renames, metadata): it grows with the store's latency
    double fixed = w.fixedCheckpointSeconds() * Math.exp(0.15 * Noise.studentT(rng, 4))
        * (1 + 0.5 * (f.fileLatencyFactor - 1));
    double metadata = (0.02 + 0.1 * rng.nextDouble()) * f.fileLatencyFactor;
    double duration = (slowest + fixed + metadata) * Math.exp(0.08 * Noise.studentT(rng, 3));
    if (rng.nextDouble() < 0.004) {
      duration += Noise.uniform(rng, 5, 40); // a retried upload: the tail every store has
    }
    if (f.hangProbability > 0 && rng.nextDouble() < f.hangProbability) {
      duration = Double.POSITIVE_INFINITY; // an upload that never returns (lease lost, stuck)
    }
    return new CheckpointCoordinator.Outcome(duration, size + persisted, full + persisted,
        persisted, maxBarrier);
  }

  private double diskFraction(Deployment d, int tm) {
    DiskVolume disk = job.data[job.layout.nodes.indexOf(d.tms.get(tm).node())];
    return disk.demandIops > 0 ? Math.min(1, disk.servedIops / disk.demandIops) : 1;
  }

  @Override
  public void barriersArrived(long triggerMs) {
    Deployment d = job.deployment;
    if (pendingStart == null || pendingStart[0].length != d.parallelism) {
      return;
    }
    for (int v = 0; v < pendingStart.length; v++) {
      for (int i = 0; i < d.parallelism; i++) {
        // observed start delays are whole milliseconds in nanoseconds
        d.startDelayNanos[v][i] = Math.round(pendingStart[v][i] * 1000) * 1_000_000L;
        d.alignmentNanos[v][i] = Math.round(pendingAlign[v][i] * 1e9);
      }
    }
  }
}
