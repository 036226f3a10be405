package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.baseline.Band;
import dev.checkpointdoctor.detector.baseline.SignalTracker;

/**
 * The checkpoint age below which no checkpoint can be stuck: a few times the longest checkpoint
 * the job's own completed durations call usual. The age baseline learns the sawtooth of a job
 * whose checkpoints complete one after the other, and its band ends a little past the longest
 * usual one; a checkpoint now and then that takes several times as long (an upload retried, a
 * burst of in-flight data) leaves that band while it runs, completes, and is no trouble. A stuck
 * checkpoint climbs past any multiple of the usual duration. Jobs whose checkpoints are short
 * against their interval are judged by their band as before: a few of their durations lie
 * inside the band's sawtooth already.
 */
final class StuckCheckpoint {
  /**
   * Usual checkpoints (the duration band's upper end) an in-progress one may take before its
   * age is trouble. Family 1's train seed 5 healthy_unaligned_15s: usual up to 95 s, one
   * checkpoint of 480 s (5.0 of them) with nothing wrong.
   */
  static final double USUAL_DURATIONS = 6;

  private StuckCheckpoint() {}

  /**
   * The age in seconds (the age's unit) below which an age is never outside, or -Inf while the
   * job's duration baseline is unknown or learning.
   *
   * @param duration the job's checkpoint duration tracker (milliseconds), or null
   */
  static double ageFrom(SignalTracker duration) {
    if (duration == null || !duration.ready()) {
      return Double.NEGATIVE_INFINITY;
    }
    Band b = duration.band();
    if (!b.defined() || !(b.upper() > 0)) {
      return Double.NEGATIVE_INFINITY;
    }
    return USUAL_DURATIONS * b.upper() / 1000.0;
  }
}
