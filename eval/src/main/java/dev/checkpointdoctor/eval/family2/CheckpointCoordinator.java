package dev.checkpointdoctor.eval.family2;

import java.util.SplittableRandom;

/**
 * The JobManager's checkpoint coordinator for one job_id, with at most one checkpoint in
 * flight: a checkpoint is triggered every interval, or as soon as the previous one ended plus
 * the minimum pause when it ran longer; one that is not complete after the timeout expires
 * (counted failed); one triggered while tasks still deploy or restore is declined (counted
 * failed, no in-progress). The gauges are what Flink's JobManager exports: {@code -1} until the
 * first completion.
 */
final class CheckpointCoordinator {
  /** How long one checkpoint will take, and what it will contain, decided at its trigger. */
  record Outcome(double durationS, double sizeBytes, double fullSizeBytes,
      double persistedBytes, double barriersS) {}

  /** Computes a checkpoint from the state of the job at its trigger. */
  interface Planner {
    /** @return the outcome; an infinite duration when an upload hangs (it expires) */
    Outcome plan(long triggerMs, long id, SplittableRandom rng);

    /** Barriers reached the subtasks: publish their start delay and alignment gauges. */
    void barriersArrived(long triggerMs);
  }

  private final Deployment d;
  private final long timeoutMs;
  private final long minPauseMs;
  private final Planner planner;

  long nextId;
  long completed;
  long failed;
  double lastDuration = -1;
  double lastSize = -1;
  double lastFullSize = -1;
  double lastPersisted = -1;
  long lastCompletedId = -1;
  long lastCompletedTs = -1;

  private boolean pending;
  private long pendingTrigger;
  private long pendingEnd;
  private boolean pendingCompletes;
  private boolean barriersPublished;
  private long barrierTs;
  private Outcome pendingOutcome;
  private long nextTrigger;
  private long lastTrigger = Long.MIN_VALUE;

  CheckpointCoordinator(Deployment d, long timeoutMs, long minPauseMs, long firstTriggerMs,
      long firstId, Planner planner) {
    this.d = d;
    this.timeoutMs = timeoutMs;
    this.minPauseMs = minPauseMs;
    this.planner = planner;
    this.nextTrigger = firstTriggerMs;
    this.nextId = firstId;
  }

  /** Starts the statistics as of a job that has been running for a while. */
  void carryOver(long completedCount, long failedCount, Outcome last, long lastEndMs) {
    completed = completedCount;
    failed = failedCount;
    if (last != null) {
      lastDuration = Math.round(last.durationS() * 1000);
      lastSize = Math.round(last.sizeBytes());
      lastFullSize = Math.round(last.fullSizeBytes());
      lastPersisted = Math.round(last.persistedBytes());
      lastCompletedId = nextId - 1;
      lastCompletedTs = lastEndMs;
    }
  }

  boolean inProgress() {
    return pending;
  }

  void step(long t, SplittableRandom rng) {
    if (pending && !barriersPublished && t >= barrierTs) {
      barriersPublished = true;
      planner.barriersArrived(pendingTrigger);
    }
    if (pending && t >= pendingEnd) {
      pending = false;
      if (pendingCompletes) {
        completed++;
        lastDuration = pendingEnd - pendingTrigger;
        lastSize = Math.round(pendingOutcome.sizeBytes());
        lastFullSize = Math.round(pendingOutcome.fullSizeBytes());
        lastPersisted = Math.round(pendingOutcome.persistedBytes());
        lastCompletedId = nextId - 1;
        lastCompletedTs = pendingEnd;
      } else {
        failed++;
      }
      nextTrigger = Math.max(lastTrigger + d.intervalMs, pendingEnd + minPauseMs);
    }
    if (!pending && t >= nextTrigger) {
      // the timer fires on schedule; the trigger itself runs a few ms to ~0.2 s later
      trigger(nextTrigger + (long) (rng.nextDouble() * rng.nextDouble() * 200), rng);
    }
  }

  /** The in-flight checkpoint is lost to a restart. */
  void abort(long t) {
    if (pending) {
      pending = false;
      failed++;
    }
    nextTrigger = Long.MAX_VALUE;
  }

  private void trigger(long at, SplittableRandom rng) {
    lastTrigger = at;
    long id = nextId++;
    if (!d.running(at)) {
      // NOT_ALL_REQUIRED_TASKS_RUNNING: fails at once, never in progress
      failed++;
      nextTrigger = at + d.intervalMs;
      return;
    }
    Outcome o = planner.plan(at, id, rng);
    pending = true;
    pendingTrigger = at;
    barriersPublished = false;
    if (!(o.durationS() * 1000 < timeoutMs)) {
      pendingCompletes = false;
      pendingEnd = at + timeoutMs;
    } else {
      pendingCompletes = true;
      pendingEnd = at + Math.max(1, Math.round(o.durationS() * 1000));
    }
    barrierTs = at + Math.min(timeoutMs, Math.round(o.barriersS() * 1000));
    pendingOutcome = o;
  }
}
