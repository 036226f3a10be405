package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.Deployment.Start;
import dev.checkpointdoctor.eval.family2.JobGraph.Role;
import dev.checkpointdoctor.eval.family2.JobGraph.Vertex;
import dev.checkpointdoctor.eval.family2.JobPlan.Lifecycle;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Starts, redeploys, rescales and restarts the job as its plan says, with what each does to the
 * ids and counters Flink exports: a redeploy (stop with savepoint, start again) gets a new
 * {@code job_id}, new TaskManagers and fresh checkpoint statistics (the checkpoint id continues
 * from the savepoint); a rescale or a lost TaskManager keeps the {@code job_id} and its
 * statistics, counts a restart and redeploys the tasks with the next attempt number.
 */
final class Lifecycles {
  private final JobPhysics job;
  private final SplittableRandom rng;
  private final List<Lifecycle> events;
  private final int slotsPerTm;
  private int next;
  private double[] restoreBps;
  private int attempt;

  Lifecycles(JobPhysics job, SplittableRandom rng) {
    this.job = job;
    this.rng = rng;
    this.events = job.plan.lifecycle();
    JobPlan.Cluster c = job.plan.cluster();
    this.slotsPerTm = (c.parallelism() + c.taskManagers() - 1) / c.taskManagers();
    this.restoreBps = new double[c.nodes()];
  }

  /** The job as it is when the history (its warm-up) begins. */
  void begin(long t0) {
    boolean submitted = events.stream().anyMatch(e -> e.kind() == Lifecycle.Kind.SUBMIT);
    if (submitted) {
      return;
    }
    JobPlan.Checkpointing cp = job.plan.checkpointing();
    Deployment d = deploy(Start.RUNNING_BEFORE_HISTORY, t0, t0, job.plan.cluster().parallelism(),
        cp.intervalMs(), Names.hex(rng, 32), List.of(), List.of(), List.of());
    long completed = 2_000 + rng.nextInt(80_000);
    long failed = rng.nextInt(40);
    job.restarts = rng.nextInt(5);
    job.coordinator = new CheckpointCoordinator(d, cp.timeoutMs(), cp.minPauseMs(),
        t0 + (long) (rng.nextDouble() * cp.intervalMs()), completed + failed + 1
            + rng.nextInt(50), job.planner());
    job.coordinator.carryOver(completed, failed, null, -1);
  }

  /** Applies the events due at {@code t}. */
  void apply(long t) {
    while (next < events.size() && events.get(next).atMs() <= t) {
      Lifecycle e = events.get(next++);
      Deployment old = job.deployment;
      JobPlan.Checkpointing cp = job.plan.checkpointing();
      long interval = e.intervalMs() > 0 ? e.intervalMs()
          : old != null ? old.intervalMs : cp.intervalMs();
      int p = e.parallelism() > 0 ? e.parallelism()
          : old != null ? old.parallelism : job.plan.cluster().parallelism();
      long up = t + e.downtimeMs();
      long restore = restoreMs(e.kind(), p);
      CheckpointCoordinator before = job.coordinator;
      switch (e.kind()) {
        case SUBMIT, REDEPLOY -> {
          if (before != null) {
            before.abort(t);
          }
          job.layout.resetPods();
          attempt = 0;
          Deployment d = deploy(e.kind() == Lifecycle.Kind.SUBMIT ? Start.SUBMITTED
              : Start.REDEPLOYED, up, up + restore, p, interval, Names.hex(rng, 32), List.of(),
              List.of(), List.of());
          job.restarts = 0;
          long firstId = before == null ? 1 : before.nextId;
          job.coordinator = new CheckpointCoordinator(d, cp.timeoutMs(), cp.minPauseMs(),
              up + cp.minPauseMs() + (long) (rng.nextDouble() * interval), firstId,
              job.planner());
        }
        default -> {
          before.abort(t);
          attempt++;
          job.restarts++;
          int tms = (p + slotsPerTm - 1) / slotsPerTm;
          List<Layout.Tm> keep = new ArrayList<>(old.tms.subList(0, Math.min(tms, old.tms.size())));
          List<Jvm> keepJvm = new ArrayList<>(old.jvms.subList(0, keep.size()));
          List<CfsQuota> keepCfs = old.cfs.isEmpty() ? List.of()
              : new ArrayList<>(old.cfs.subList(0, keep.size()));
          if (e.kind() == Lifecycle.Kind.TM_LOST && !keep.isEmpty()) {
            int lost = rng.nextInt(keep.size());
            keep.remove(lost);
            keepJvm.remove(lost);
            if (!keepCfs.isEmpty()) {
              keepCfs.remove(lost);
            }
          }
          Deployment d = deploy(Start.RESTARTED, up, up + restore, p, interval, old.jobId, keep,
              keepJvm, keepCfs);
          CheckpointCoordinator c = new CheckpointCoordinator(d, cp.timeoutMs(), cp.minPauseMs(),
              up + restore + cp.minPauseMs() + (long) (rng.nextDouble() * interval),
              before.nextId, job.planner());
          c.completed = before.completed;
          c.failed = before.failed;
          c.lastDuration = before.lastDuration;
          c.lastSize = before.lastSize;
          c.lastFullSize = before.lastFullSize;
          c.lastPersisted = before.lastPersisted;
          c.lastCompletedId = before.lastCompletedId;
          c.lastCompletedTs = before.lastCompletedTs;
          job.coordinator = c;
        }
      }
      Deployment d = job.deployment;
      java.util.Arrays.fill(restoreBps, 0);
      for (int i = 0; i < d.parallelism; i++) {
        int node = job.layout.nodes.indexOf(d.tms.get(d.tmOf(i)).node());
        restoreBps[node] += job.stateBytes / d.parallelism / Math.max(1, restore / 1000.0);
      }
    }
  }

  double restoreWriteBps(int node) {
    return restoreBps[node];
  }

  private long restoreMs(Lifecycle.Kind kind, int p) {
    double perSubtask = job.stateBytes / p;
    double seconds = switch (kind) {
      case SUBMIT -> Noise.uniform(rng, 60, 240);
      case REDEPLOY -> 20 + perSubtask / (120 * 1048576.0) + Noise.uniform(rng, 5, 60);
      default -> 8 + perSubtask / (200 * 1048576.0) + Noise.uniform(rng, 2, 20);
    };
    return (long) (seconds * 1000);
  }

  private Deployment deploy(Start start, long up, long running, int p, long intervalMs,
      String jobId, List<Layout.Tm> keepTms, List<Jvm> keepJvms, List<CfsQuota> keepCfs) {
    JobPlan.Cluster c = job.plan.cluster();
    Deployment d = new Deployment(jobId, Names.hex(rng, 32), job.graph.size(), p, intervalMs,
        attempt, start, up, running);
    int tms = (p + slotsPerTm - 1) / slotsPerTm;
    int offset = start == Start.REDEPLOYED ? rng.nextInt(job.layout.nodes.size()) : 0;
    for (int k = 0; k < tms; k++) {
      if (k < keepTms.size()) {
        d.tms.add(keepTms.get(k));
        d.jvms.add(keepJvms.get(k));
        if (!keepCfs.isEmpty()) {
          d.cfs.add(keepCfs.get(k));
        }
        continue;
      }
      Layout.Node node = job.layout.nodes.get((k + offset) % job.layout.nodes.size());
      int onNode = 0;
      for (Layout.Tm other : d.tms) {
        if (other.node() == node) {
          onNode++;
        }
      }
      d.tms.add(job.layout.taskManager(node, 1, onNode));
      d.jvms.add(new Jvm(c.heapBytes(), c.collectors(), rng.nextDouble() * 2e5));
      if (c.layout().kubernetes()) {
        d.cfs.add(new CfsQuota(slotsPerTm * job.sizing.cpuPerSlot, Noise.uniform(rng, 0.3, 0.5),
            rng.nextDouble() * 2e4));
      }
    }
    List<Vertex> graph = job.graph;
    for (int v = 0; v < graph.size(); v++) {
      Vertex vx = graph.get(v);
      for (int i = 0; i < p; i++) {
        d.share[v][i] = vx.keyedInput() ? job.sizing.keyedShare(i, p, 0)
            : (1.0 / p) * (vx.role() == Role.SOURCE ? Math.exp(0.04 * rng.nextGaussian()) : 1);
      }
      if (vx.stateful() && c.backend() == JobPlan.Backend.ROCKSDB) {
        d.rocks[v] = new RocksInstance[p];
        for (int i = 0; i < p; i++) {
          d.rocks[v][i] = new RocksInstance(job.stateBytes * job.sizing.stateShare(v) / p,
              job.sizing.writeBufferBytes, job.sizing.threadBytesPerSecond, 2,
              1 + rng.nextInt(3), rng.nextDouble() * 4);
        }
      }
    }
    job.deployment = d;
    return d;
  }
}
