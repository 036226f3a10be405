package dev.checkpointdoctor.eval.family2;

import java.util.ArrayList;
import java.util.List;

/**
 * One run of the job under one {@code job_id} and parallelism: its TaskManagers, where each
 * subtask runs, and the per-subtask state of the flow. A redeploy makes a new one (new job_id,
 * new TaskManagers); a rescale or a lost TaskManager makes a new one under the same job_id with
 * the next attempt number.
 */
final class Deployment {
  /** Why the run started; decides which counters carry over. */
  enum Start {
    RUNNING_BEFORE_HISTORY, SUBMITTED, REDEPLOYED, RESTARTED
  }

  final String jobId;
  final String executionGraphId;
  final int parallelism;
  final long intervalMs;
  final int attempt;
  final Start start;
  /** Tasks are deployed and restoring from here on; Flink's targets are up. */
  final long upMs;
  /** Tasks run (checkpoints can succeed) from here on. */
  final long runningMs;
  final List<Layout.Tm> tms = new ArrayList<>();
  final List<Jvm> jvms = new ArrayList<>();
  final List<CfsQuota> cfs = new ArrayList<>();

  // per vertex and subtask
  final double[][] share;
  final double[][] capacity;
  final double[][] utilization;
  final double[][] busy;
  final double[][] backpressure;
  final double[][] recordsIn;
  final double[][] fill;
  final long[][] startDelayNanos;
  final long[][] alignmentNanos;
  /** RocksDB instance per stateful vertex and subtask (null elsewhere or on a heap backend). */
  final RocksInstance[][] rocks;

  Deployment(String jobId, String executionGraphId, int vertices, int parallelism,
      long intervalMs, int attempt, Start start, long upMs, long runningMs) {
    this.jobId = jobId;
    this.executionGraphId = executionGraphId;
    this.parallelism = parallelism;
    this.intervalMs = intervalMs;
    this.attempt = attempt;
    this.start = start;
    this.upMs = upMs;
    this.runningMs = runningMs;
    share = new double[vertices][parallelism];
    capacity = new double[vertices][parallelism];
    utilization = new double[vertices][parallelism];
    busy = new double[vertices][parallelism];
    backpressure = new double[vertices][parallelism];
    recordsIn = new double[vertices][parallelism];
    fill = new double[vertices][parallelism];
    startDelayNanos = new long[vertices][parallelism];
    alignmentNanos = new long[vertices][parallelism];
    rocks = new RocksInstance[vertices][];
  }

  /** TaskManager index of a subtask: Flink fills slots TaskManager by TaskManager. */
  int tmOf(int subtask) {
    int slots = (parallelism + tms.size() - 1) / tms.size();
    return Math.min(tms.size() - 1, subtask / slots);
  }

  int slotsPerTm() {
    return (parallelism + tms.size() - 1) / tms.size();
  }

  boolean running(long t) {
    return t >= runningMs;
  }

  /** {@code <execution graph>_<vertex>_<subtask>_<attempt>}, as Flink 1.18+ spells it. */
  String taskAttemptId(String vertexId, int subtask) {
    return executionGraphId + "_" + vertexId + "_" + subtask + "_" + attempt;
  }
}
