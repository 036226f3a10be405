package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * Checkpoints running back to back: each takes most of the spacing between completions, one is
 * in progress in almost every scrape, and, after a redeploy with a shorter interval, they
 * complete more often than before while taking as long as they did. Slower checkpoints run back
 * to back too: {@link CausalModel} ranks this below whatever made them slower.
 */
final class CheckpointIntervalTooShortRule implements CauseRule {
  /** Durations this many intervals long point at slower checkpoints, not at the interval. */
  static final double MAX_RATIO = 2.5;
  /**
   * Share of the time spent checkpointing from which checkpoints count as back to back: a
   * quarter of the time or less left for the job between them.
   */
  static final double BACK_TO_BACK = 0.75;

  /**
   * The recent share of the time spent checkpointing (NaN when unknown). Both readings can only
   * fall short: the cadence's gaps between observations cannot be shorter than a scrape (several
   * checkpoints may complete between two), and the extractor's share, which counts them by id,
   * lags a few completions behind a change.
   */
  static double busyShare(JobEvidence job, CheckpointCadence c) {
    double byCadence = Math.min(1, c.recentDurationMs() / c.recentSpacingMs());
    SeriesHistory measured = job.jobSeries(Signal.CHECKPOINT_BUSY_SHARE);
    double byId = measured == null || job.recentWindow(measured).size() == 0 ? Double.NaN
        : job.recentMedian(measured);
    return Double.isNaN(byId) ? byCadence
        : Double.isNaN(byCadence) ? byId : Math.max(byId, byCadence);
  }

  @Override
  public Cause cause() {
    return Cause.CHECKPOINT_INTERVAL_TOO_SHORT;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    CheckpointCadence c = CheckpointCadence.of(job);
    double duration = c.recentDurationMs();
    SeriesHistory measured = job.jobSeries(Signal.CHECKPOINT_BUSY_SHARE);
    double busyShare = busyShare(job, c);
    if (!(duration > 0 && busyShare > 0)) {
      return f;
    }
    double spacing = duration / busyShare;
    if (busyShare < BACK_TO_BACK) {
      return f;
    }
    f.support(0.3, Signal.CHECKPOINT_DURATION, "job", duration, BACK_TO_BACK * spacing,
        Evidence.AT_LEAST, Double.NaN, String.format("Checkpoints take %s and complete every "
            + "%s%s: %s of the time goes to checkpointing, each starts as soon as the last ends.",
            Fmt.ms(duration), Fmt.ms(spacing), Double.isNaN(c.intervalMs()) ? ""
                : " (the interval looked like " + Fmt.ms(c.intervalMs()) + " before)",
            Fmt.pct(busyShare)));
    if (c.changedAtMs() >= 0 && c.shortened()) {
      f.add(0.25, new Evidence(Signal.CHECKPOINT_DURATION.id(), "job", spacing,
          c.intervalMs(), Evidence.LOWER, Double.NaN, 1 - c.shorter().pLess(), c.changedAtMs(),
          String.format("Since %s checkpoints complete every %s, before every %s (Mann–Whitney "
                  + "p = %.3f over the gaps between completions): the interval was shortened, "
                  + "e.g. by a redeploy.", JobEvidence.clock(c.changedAtMs()), Fmt.ms(spacing),
              Fmt.ms(c.intervalMs()), c.shorter().pLess())));
      SeriesHistory d = job.jobSeries(Signal.CHECKPOINT_DURATION);
      f.onset(c.changedAtMs(), JobEvidence.spacing(d), "cadence");
    }
    double[] sharesBefore = measured == null ? new double[0] : job.earlier(measured);
    double earlierShare = sharesBefore.length >= JobEvidence.MIN_EARLIER
        ? Stats.median(sharesBefore) : Double.NaN;
    SeriesHistory inProgress = job.jobSeries(Signal.CHECKPOINT_IN_PROGRESS);
    double share = job.recentWindow(inProgress).fractionAtLeast(1);
    double[] inProgressBefore = job.earlier(inProgress);
    double before = Stats.fractionAtLeast(inProgressBefore, 1);
    // when checkpoints ran back to back before too, a checkpoint in progress now is no news
    boolean backToBackBefore = earlierShare >= BACK_TO_BACK;
    if (share >= BACK_TO_BACK && inProgressBefore.length >= JobEvidence.MIN_EARLIER
        && share > before && !backToBackBefore) {
      f.support(0.3, Signal.CHECKPOINT_IN_PROGRESS, "job", share, before, Evidence.HIGHER,
          Double.NaN, String.format("A checkpoint is in progress in %s of recent scrapes, %s "
              + "before.", Fmt.pct(share), Fmt.pct(before)));
    } else if (share >= BACK_TO_BACK && !backToBackBefore) {
      f.support(0.2, Signal.CHECKPOINT_IN_PROGRESS, "job", share, BACK_TO_BACK,
          Evidence.AT_LEAST, Double.NaN, String.format(
              "A checkpoint is in progress in %s of recent scrapes.", Fmt.pct(share)));
    }
    if (job.isOpen(Signal.CHECKPOINT_DURATION)) {
      CheckpointTrouble.support(f, job, "as they follow each other");
    }
    if (!Double.isNaN(c.intervalMs()) && duration >= MAX_RATIO * c.intervalMs()) {
      f.against(0.5, new Evidence(Signal.CHECKPOINT_DURATION.id(), "job", duration,
          MAX_RATIO * c.intervalMs(), Evidence.AT_LEAST, Double.NaN, Double.NaN, -1,
          String.format("But checkpoints take %.1f times the interval: something made them "
              + "slower, the interval is not what changed.", duration / c.intervalMs())));
    }
    if (earlierShare >= BACK_TO_BACK) {
      // a job that always ran back to back did not get its trouble from the interval now
      f.against(0.5, new Evidence(Signal.CHECKPOINT_BUSY_SHARE.id(), "job", busyShare,
          earlierShare, Evidence.HIGHER, Double.NaN, Double.NaN, -1, String.format(
              "But checkpoints ran back to back before the trouble too (%s of the time): the "
                  + "interval is not what changed.", Fmt.pct(earlierShare))));
    }
    if (CheckpointStorageSlowRule.expiring(job)) {
      f.against(0.6, new Evidence(Signal.CHECKPOINT_FAILURES.id(), "job", job.failuresNow(), 0,
          Evidence.HIGHER, Double.NaN, Double.NaN, -1,
          "But checkpoints also fail, which a short interval alone does not explain."));
    }
    return f;
  }
}
