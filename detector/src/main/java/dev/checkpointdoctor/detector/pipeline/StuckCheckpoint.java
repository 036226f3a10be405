package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.baseline.Band;
import dev.checkpointdoctor.detector.baseline.SignalTracker;
import dev.checkpointdoctor.detector.trend.HourlyHistory;

/**
 * The checkpoint age below which no checkpoint can be stuck: a few times the longest checkpoint
 * the job's own completed durations call usual. The age baseline learns the sawtooth of a job
 * whose checkpoints complete one after the other, and its band ends a little past the longest
 * usual one; a checkpoint now and then that takes several times as long (an upload retried, a
 * burst of in-flight data) leaves that band while it runs, completes, and is no trouble. A stuck
 * checkpoint climbs past any multiple of the usual duration. Jobs whose checkpoints are short
 * against their interval are judged by their band as before: a few of their durations lie
 * inside the band's sawtooth already.
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

  private StuckCheckpoint() {}

  /**
   * The age in seconds (the age's unit) below which an age is never outside, or -Inf while the
   * job's duration baseline is unknown or learning.
   *
   * @param duration the job's checkpoint duration tracker (milliseconds), or null
   * @param durations the same signal's hourly summaries, or null
   * @param age the age being judged: below the usual bound the slowest completed checkpoint
   *     cannot change the answer, so its fourteen days are not scanned on every scrape
   */
  static double ageFrom(SignalTracker duration, HourlyHistory durations, double age) {
    if (duration == null || !duration.ready()) {
      return Double.NEGATIVE_INFINITY;
    }
    Band b = duration.band();
    if (!b.defined() || !(b.upper() > 0)) {
      return Double.NEGATIVE_INFINITY;
    }
    double usual = USUAL_DURATIONS * b.upper() / 1000.0;
    if (durations == null || age < usual) {
      return usual;
    }
    double slowest = durations.largest();
    return slowest > 0 ? Math.max(usual, SLOWEST_COMPLETED * slowest / 1000.0) : usual;
  }
}
