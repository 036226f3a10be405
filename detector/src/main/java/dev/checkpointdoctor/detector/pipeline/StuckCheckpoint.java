package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.baseline.Band;
import dev.checkpointdoctor.detector.baseline.SignalTracker;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.trend.HourlyHistory;
import java.util.Arrays;

/**
 * The checkpoint age below which no checkpoint can be stuck: a few times the longest checkpoint
 * the job's own completed durations call usual. The age baseline learns the sawtooth of a job
 * whose checkpoints complete one after the other, and its band ends a little past the longest
 * usual one; a checkpoint now and then that takes several times as long (an upload retried, a
 * burst of in-flight data) leaves that band while it runs, completes, and is no trouble. A stuck
 * checkpoint climbs past any multiple of the usual duration. Jobs whose checkpoints are short
 * against their interval wait most of it before each one starts, and that wait is no part of
 * the running checkpoint's slowness ({@link #ageFrom}).
 *
 * <p>How slow "now and then" gets is the job's own: a running checkpoint not yet {@link
 * #SLOWEST_COMPLETED} times as old as the slowest one it completed over the fourteen days of
 * hourly summaries is not stuck either. The band's memory (a few hundred observations) forgets a
 * slow checkpoint within a day, and a job that completes one every day or two would otherwise
 * open an anomaly for each; the first such checkpoint of a job's life still opens one.
 */
final class StuckCheckpoint {
  /**
   * Usual checkpoints (the duration band's upper end) an in-progress one may take before its
   * age is trouble. Family 1's train seed 5 healthy_unaligned_15s: usual up to 95 s, one
   * checkpoint of 480 s (5.0 of them) with nothing wrong.
   */
  static final double USUAL_DURATIONS = 6;
  /**
   * How far past the slowest checkpoint the job completed a running one may get: its age adds
   * the pause before it started to its running time, and the next slow one is seldom exactly as
   * slow.
   */
  static final double SLOWEST_COMPLETED = 1.5;

  /**
   * Completed checkpoints a learning duration baseline's job needs before the newest of them
   * stand in for its band.
   */
  static final int MIN_COMPLETED = 8;
  /** Newest completed durations read while the duration baseline learns. */
  static final int RECENT_COMPLETED = 64;

  private StuckCheckpoint() {}

  /**
   * The age in seconds (the age's unit) below which an age is never outside, or -Inf while the
   * job's durations are unknown.
   *
   * <p>The age is the pause before the running checkpoint was triggered plus its running time;
   * only the running time is measured in usual checkpoints. A job whose checkpoints are short
   * against its interval waits most of the interval before each one (family 1's train seed 10
   * healthy_redeploy: 19 s checkpoints every 60 s, an age sawtooth up to 100 s), so the pause
   * (the spacing of completions less a usual checkpoint) is added: a retried upload that ran
   * eight usual checkpoints then completed opened an anomaly on the pause's account.
   *
   * <p>While the duration baseline learns (after a redeploy it relearns from one completion per
   * interval, while the age baseline, fed every scrape, is ready a good deal sooner: seed 22's
   * age judged a 480 s checkpoint with no floor half an hour after one) the job's newest
   * completed durations stand in for its band: their largest for its upper end, their median
   * for its middle.
   *
   * @param duration the job's checkpoint duration tracker (milliseconds), or null
   * @param durations the same signal's hourly summaries, or null
   * @param completed the same signal's raw history (one point per completion seen), or null
   * @param age the age being judged: below the usual bound neither the pause nor the slowest
   *     completed checkpoint can change the answer, so they are not read on every scrape
   */
  static double ageFrom(SignalTracker duration, HourlyHistory durations,
      SeriesHistory completed, double age) {
    Usual usual = usual(duration, completed);
    if (usual == null) {
      return Double.NEGATIVE_INFINITY;
    }
    double running = USUAL_DURATIONS * usual.upperMs() / 1000.0;
    if (age < running) {
      return running;
    }
    double spacing = completed == null ? Double.POSITIVE_INFINITY
        : CheckpointSpacing.of(completed);
    double pause = Double.isFinite(spacing) ? Math.max(0, spacing - usual.middleMs()) / 1000.0 : 0;
    double bound = pause + running;
    if (durations == null || age < bound) {
      return bound;
    }
    // the slowest completed one's allowance covers a pause already (SLOWEST_COMPLETED)
    double slowest = durations.largest();
    return slowest > 0 ? Math.max(bound, SLOWEST_COMPLETED * slowest / 1000.0) : bound;
  }

  /** A usual checkpoint's duration and the upper end of usual ones, in milliseconds. */
  private record Usual(double middleMs, double upperMs) {}

  /**
   * What a usual checkpoint takes, or null while neither the baseline nor {@link #MIN_COMPLETED}
   * completions tell it.
   */
  private static Usual usual(SignalTracker duration, SeriesHistory completed) {
    if (duration != null && duration.ready()) {
      Band b = duration.band();
      if (b.defined() && b.upper() > 0) {
        return new Usual(b.expected(), b.upper());
      }
    }
    int n = completed == null ? 0 : completed.size();
    if (n < MIN_COMPLETED) {
      return null;
    }
    int k = Math.min(n, RECENT_COMPLETED);
    double[] v = new double[k];
    for (int i = 0; i < k; i++) {
      v[i] = completed.value(n - 1 - i);
    }
    Arrays.sort(v);
    return v[k - 1] > 0 ? new Usual(v[k / 2], v[k - 1]) : null;
  }
}
