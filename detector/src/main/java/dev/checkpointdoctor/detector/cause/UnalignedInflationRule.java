package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * Unaligned checkpoints persisting lots of in-flight data under back-pressure: persisted data far
 * above its earlier level and growing, checkpoint size jumping.
 */
final class UnalignedInflationRule implements CauseRule {
  @Override
  public Cause cause() {
    return Cause.UNALIGNED_CHECKPOINT_INFLATION;
  }

  static boolean inflated(JobEvidence.Peak p) {
    double before = Double.isNaN(p.before()) ? 0 : p.before();
    return p.value() >= 3 * before + (8 << 20);
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    JobEvidence.Peak persisted = job.highestRecentMedian(Signal.CHECKPOINT_PERSISTED_DATA, "job");
    if (persisted == null || !inflated(persisted)) {
      return f;
    }
    double before = Double.isNaN(persisted.before()) ? 0 : persisted.before();
    f.support(0.45, Signal.CHECKPOINT_PERSISTED_DATA, "job", persisted.value(), before,
        String.format("Checkpoints persist %s of in-flight data (was %s): unaligned checkpoints "
            + "are storing the buffers.", Fmt.bytes(persisted.value()), Fmt.bytes(before)));
    SeriesHistory h = job.jobSeries(Signal.CHECKPOINT_PERSISTED_DATA);
    long[] t = JobEvidence.times(h, job.recentFrom());
    double[] v = JobEvidence.slice(h, job.recentFrom(), Long.MAX_VALUE);
    Stats.Trend trend = Stats.trend(t, v);
    if (v.length >= 4 && trend.slopePerMs() > 0 && trend.risingShare() >= 0.65) {
      f.support(0.1, Signal.CHECKPOINT_PERSISTED_DATA, "job", trend.valueAtRef(), v[0],
          "In-flight data keeps growing: +" + Fmt.bytes(trend.perHour()) + " per hour.");
    }
    JobEvidence.Peak bp = job.highestRecentMedian(Signal.BACKPRESSURE, "task:");
    if (bp != null && bp.value() >= 300) {
      f.support(0.2, Signal.BACKPRESSURE, bp.scope(), bp.value(), bp.before(), String.format(
          "%s is back-pressured %s ms/s, which fills the buffers the checkpoint persists.",
          bp.scope(), Fmt.num(bp.value())));
    }
    JobEvidence.Peak size = job.highestRecentMedian(Signal.CHECKPOINT_SIZE, "job");
    if (size != null && size.value() >= 1.5 * size.before()) {
      f.support(0.15, Signal.CHECKPOINT_SIZE, "job", size.value(), size.before(), String.format(
          "Checkpoint size jumped to %s from %s.", Fmt.bytes(size.value()),
          Fmt.bytes(size.before())));
    }
    if (job.checkpointTrouble()) {
      f.support(0.1, Signal.CHECKPOINT_DURATION, "job", 0, 0,
          "Checkpoints are slower or failing as they carry the in-flight data.");
    }
    return f;
  }
}
