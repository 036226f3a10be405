package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * Checkpointed state trending up with the checkpoint duration following it; forecasts when the
 * duration line (Theil–Sen over the last {@link StateTrend#FIT_MS}) crosses the checkpoint
 * timeout.
 */
final class StateGrowthRule implements CauseRule {
  /** A duration jump this many times the state's own growth is something else. */
  static final double MIN_UNEXPLAINED_JUMP = 4;

  @Override
  public Cause cause() {
    return Cause.STATE_GROWTH;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    StateTrend state = StateTrend.of(job);
    if (state == null || !state.growing()) {
      return f;
    }
    f.support(state.trend().risingShare() >= 0.85 ? 0.5 : 0.4, state.signal(), "job",
        state.now(), state.first(), "The " + state.sentence() + "; it was "
            + Fmt.bytes(state.first()) + " 90 min ago.");
    SeriesHistory d = job.jobSeries(Signal.CHECKPOINT_DURATION);
    double durationJump = d == null ? Double.NaN
        : job.recentMedian(d) / job.earlierMedian(d);
    double stateJump = state.now() / state.first();
    if (durationJump >= MIN_UNEXPLAINED_JUMP && durationJump >= MIN_UNEXPLAINED_JUMP * stateJump) {
      // Checkpoint time grows with the state it writes, not tenfold for a state that grew by half
      // (RocksDB files piling up between compactions drift the size of any young job).
      return f.against(0.4, Signal.CHECKPOINT_DURATION, "job", durationJump, stateJump,
          String.format("But checkpoints got %.0f times slower while the state grew only %.1f "
              + "times: the growth does not explain them.", durationJump, stateJump));
    }
    if (d != null) {
      long from = job.now() - StateTrend.FIT_MS;
      long[] t = JobEvidence.times(d, from);
      double[] v = JobEvidence.slice(d, from, Long.MAX_VALUE);
      Stats.Trend dt = v.length >= 6 ? Stats.trend(t, v) : null;
      if (dt != null && dt.slopePerMs() > 0 && dt.risingShare() >= 0.6) {
        double timeout = job.settings().checkpointTimeout().toMillis();
        double hours = Math.max(0, (timeout - dt.valueAtRef()) / dt.perHour());
        f.forecast(hours);
        f.support(0.3, Signal.CHECKPOINT_DURATION, "job", dt.valueAtRef(), v[0], String.format(
            "Checkpoint duration follows it: %s now, rising %s per hour; checkpoints will start "
                + "timing out (timeout %s) in %s.", Fmt.ms(dt.valueAtRef()), Fmt.ms(dt.perHour()),
            Fmt.ms(timeout), Fmt.hours(hours)));
      }
    }
    if (job.isOpen(Signal.CHECKPOINT_DURATION) || job.isOpen(state.signal())) {
      f.support(0.1, Signal.CHECKPOINT_DURATION, "job", 0, 0,
          "The checkpoint duration or size left its learned band.");
    }
    JobEvidence.Peak persisted = job.highestRecentMedian(Signal.CHECKPOINT_PERSISTED_DATA, "job");
    if (persisted != null && persisted.value() >= 0.2 * state.now()) {
      f.against(0.5, Signal.CHECKPOINT_PERSISTED_DATA, "job", persisted.value(), 0,
          "Much of the size is in-flight data (" + Fmt.bytes(persisted.value())
              + " persisted), which points at unaligned checkpoints rather than state.");
    }
    return f;
  }
}
