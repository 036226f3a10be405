package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * Checkpoints stuck in their upload: the last completed checkpoint ages far past the interval,
 * checkpoints stay in progress and expire, while nothing local explains it (no disk ceiling, no
 * back-pressure, no state growth). A slow upload may not show in the duration at all.
 */
final class CheckpointStorageSlowRule implements CauseRule {
  /** A barrier this late (and at least half the checkpoint) points at the data path. */
  static final double LATE_BARRIER_MS = 5_000;
  static final String LEASE_NOTE = " An HDFS LeaseExpiredException in the TaskManager logs after "
      + "an expired checkpoint is a symptom of the expiry (the aborted checkpoint's directory is "
      + "deleted under late writers), not the cause.";

  @Override
  public Cause cause() {
    return Cause.CHECKPOINT_STORAGE_SLOW;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    CheckpointCadence cadence = CheckpointCadence.of(job);
    SeriesHistory age = job.jobSeries(Signal.CHECKPOINT_AGE);
    if (age != null) {
      double now = job.recentWindow(age).max();
      // Age climbs to the interval before every completion, so normal is at least the interval.
      double normal = Stats.quantile(job.earlier(age), 0.9);
      if (!Double.isNaN(cadence.intervalMs())) {
        normal = Double.isNaN(normal) ? cadence.intervalMs() / 1000
            : Math.max(normal, cadence.intervalMs() / 1000);
      }
      if (now >= 3 * normal && now >= 60) {
        f.support(0.35, Signal.CHECKPOINT_AGE, "job", now, normal, String.format(
            "The last completed checkpoint is %s old; normally at most %s.", Fmt.ms(now * 1000),
            Fmt.ms(normal * 1000)));
      } else if (now >= 2 * normal && now >= 60) {
        f.support(0.2, Signal.CHECKPOINT_AGE, "job", now, normal, String.format(
            "The last completed checkpoint is %s old; normally at most %s.", Fmt.ms(now * 1000),
            Fmt.ms(normal * 1000)));
      }
    }
    SeriesHistory inProgress = job.jobSeries(Signal.CHECKPOINT_IN_PROGRESS);
    double busyShare = job.recentWindow(inProgress).fractionAtLeast(1);
    if (busyShare >= 0.8) {
      f.support(0.15, Signal.CHECKPOINT_IN_PROGRESS, "job", busyShare,
          Stats.fractionAtLeast(job.earlier(inProgress), 1), String.format(
              "A checkpoint was in progress in %s of recent scrapes.", Fmt.pct(busyShare)));
    }
    double failures = job.failuresNow();
    double failuresBefore = Stats.max(job.earlier(job.jobSeries(Signal.CHECKPOINT_FAILURES)));
    if (failures > 0 && !(failures <= failuresBefore)) {
      f.support(0.2, Signal.CHECKPOINT_FAILURES, "job", failures,
          Double.isNaN(failuresBefore) ? 0 : failuresBefore, String.format(
              "%s checkpoints failed in the last %d min (expired before completing).%s",
              Fmt.num(failures), job.settings().failureWindow().toMinutes(), LEASE_NOTE));
    }
    if (f.confidence() < 0.2) {
      return f; // checkpoints in progress alone are not a stuck upload
    }
    DiskPlateau disk = DiskPlateau.find(job);
    JobEvidence.Peak bp = job.highestRecentMedian(Signal.BACKPRESSURE, "task:");
    StateTrend growth = StateTrend.of(job);
    boolean local = false;
    if (disk != null && disk.saturated()) {
      local = true;
      f.against(0.4, disk.signal(), disk.scope(), disk.level(), disk.earlierPeak(),
          "But a local disk is at a flat ceiling (" + disk.scope() + ").");
    }
    if (bp == null || bp.value() < BackpressureRule.PRESSED_MS_PER_S) {
      // A fresh back-pressure has not moved the recent median yet; storage is named by exclusion,
      // so what the tasks report now must exclude it too.
      bp = job.highestLatest(Signal.BACKPRESSURE, "task:");
    }
    if (bp != null && bp.value() >= BackpressureRule.PRESSED_MS_PER_S) {
      local = true;
      f.against(0.5, Signal.BACKPRESSURE, bp.scope(), bp.value(), bp.before(),
          "But " + bp.scope() + " is back-pressured " + Fmt.num(bp.value()) + " ms/s.");
    }
    JobEvidence.Peak late = job.highestLatest(Signal.CHECKPOINT_START_DELAY, "task:");
    if (late != null && late.value() >= LATE_BARRIER_MS
        && !(late.value() < 0.5 * cadence.recentDurationMs())) {
      // The checkpoint's time went into barriers queueing behind data, before any upload; the
      // async upload does not hold barriers back, so this weighs more than other local trouble.
      local = true;
      f.against(0.3, Signal.CHECKPOINT_START_DELAY, late.scope(), late.value(), late.before(),
          "But the barrier took " + Fmt.ms(late.value()) + " to reach " + late.scope()
              + ": the time goes before the upload starts.");
    }
    if (growth != null && growth.growing()) {
      local = true;
      f.against(0.5, growth.signal(), "job", growth.now(), growth.before(),
          "But the " + growth.sentence() + ".");
    }
    RocksDbStall stall = RocksDbStall.find(job);
    if (stall.strength() == 2) {
      local = true;
      f.against(0.6, stall.signal(), stall.scope(), stall.value(), stall.before(),
          "But RocksDB " + stall.sentence());
    }
    if (!local) {
      f.support(0.15, Signal.CHECKPOINT_DURATION, "job", cadence.recentDurationMs(),
          cadence.intervalMs(), "No local disk ceiling, back-pressure, RocksDB stall or state "
              + "growth explains it: the upload to checkpoint storage is slow.");
    }
    return f;
  }
}
