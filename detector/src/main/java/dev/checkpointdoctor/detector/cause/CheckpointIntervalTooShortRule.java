package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * Checkpoints running back to back: the duration reaches the spacing between completions (so the
 * configured interval is no longer what paces them) and one is almost always in progress.
 */
final class CheckpointIntervalTooShortRule implements CauseRule {
  /** Durations this many intervals long point at slower checkpoints, not at the interval. */
  static final double MAX_RATIO = 2.5;

  @Override
  public Cause cause() {
    return Cause.CHECKPOINT_INTERVAL_TOO_SHORT;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    CheckpointCadence c = CheckpointCadence.of(job);
    double spacing = c.recentSpacingMs();
    double duration = c.recentDurationMs();
    if (!(duration > 0 && spacing > 0)) {
      return f;
    }
    double reference = Double.isNaN(c.intervalMs()) ? spacing : Math.min(spacing, c.intervalMs());
    if (duration < 0.95 * reference) {
      return f;
    }
    f.support(0.4, Signal.CHECKPOINT_DURATION, "job", duration, reference, String.format(
        "Checkpoints take %s and complete every %s%s: each starts as soon as the last ends.",
        Fmt.ms(duration), Fmt.ms(spacing), Double.isNaN(c.intervalMs()) ? ""
            : " (the interval looked like " + Fmt.ms(c.intervalMs()) + " before)"));
    SeriesHistory inProgress = job.jobSeries(Signal.CHECKPOINT_IN_PROGRESS);
    double share = job.recentWindow(inProgress).fractionAtLeast(1);
    if (share >= 0.85) {
      f.support(0.3, Signal.CHECKPOINT_IN_PROGRESS, "job", share,
          Stats.fractionAtLeast(job.earlier(inProgress), 1), String.format(
              "A checkpoint is in progress in %s of recent scrapes.", Fmt.pct(share)));
    }
    if (job.isOpen(Signal.CHECKPOINT_DURATION)) {
      f.support(0.1, Signal.CHECKPOINT_DURATION, "job", duration, reference,
          "The checkpoint duration left its learned band.");
    }
    if (!Double.isNaN(c.intervalMs()) && duration >= MAX_RATIO * c.intervalMs()) {
      f.against(0.5, Signal.CHECKPOINT_DURATION, "job", duration, c.intervalMs(), String.format(
          "But checkpoints take %.1f times the interval: something made them slower, the "
              + "interval is not what changed.", duration / c.intervalMs()));
    }
    if (job.failuresNow() > 0) {
      f.against(0.6, Signal.CHECKPOINT_FAILURES, "job", job.failuresNow(), 0,
          "But checkpoints also fail, which a short interval alone does not explain.");
    }
    return f;
  }
}
