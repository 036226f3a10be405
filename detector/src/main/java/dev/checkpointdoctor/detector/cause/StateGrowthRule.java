package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.Forecast;
import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.GrowthTest;
import java.util.Locale;

/**
 * Checkpointed state trending up ({@link StateTrend}), with the checkpoint duration following it;
 * forecasts when the duration reaches the checkpoint timeout by extrapolating the duration's own
 * fitted growth (compounding when that fits at least as well as a line), or, when the duration is
 * too noisy to fit, the state's growth applied to it.
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
    boolean watched = state.reading().window() != GrowthReading.Window.CHOSEN;
    f.support(watched ? 0.6 : 0.5, state.signal(), "job", state.now(), state.before(),
        "The " + state.sentence() + ".");
    SeriesHistory d = job.jobSeries(Signal.CHECKPOINT_DURATION);
    Jump jump = d == null ? null : Jump.at(job, d, job.jobSeries(state.signal()));
    if (jump != null && jump.duration() >= MIN_UNEXPLAINED_JUMP
        && jump.duration() >= MIN_UNEXPLAINED_JUMP * jump.state()) {
      // Checkpoint time grows with the state it writes, not tenfold at once for a state that grew
      // by a fifth (RocksDB files piling up between compactions drift the size of any young job).
      return f.against(0.4, Signal.CHECKPOINT_DURATION, "job", jump.duration(), jump.state(),
          String.format(Locale.ROOT, "But checkpoints got %.0f times slower at %s in one step "
              + "while the state grew only %.1f times: the growth does not explain them.",
              jump.duration(), JobEvidence.clock(jump.atMs()), jump.state()));
    }
    forecast(job, f, state, d);
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

  /**
   * The forecast: the duration's own trend when it grows too (it corroborates the state), else
   * the state's growth applied to the duration now, said as an assumption.
   */
  private static void forecast(JobEvidence job, Finding f, StateTrend state, SeriesHistory d) {
    double timeout = job.settings().checkpointTimeout().toMillis();
    GrowthReading duration = durationTrend(job, state, d);
    if (duration != null && duration.rate() > 0 && duration.lower() > 0 && !duration.step()) {
      double now = duration.toValue();
      double hours = Forecast.hoursToReach(now, timeout, duration);
      if (Double.isFinite(hours)) {
        f.forecast(hours);
      }
      String growth = duration.compounding()
          ? "growing " + TrendWords.rate(duration) + ", compounding"
          : "rising " + Fmt.ms(duration.linearPerHour()) + " per hour (a straight line fits "
              + "better than compounding)";
      f.support(0.3, Signal.CHECKPOINT_DURATION, "job", now, duration.fromValue(), String.format(
          Locale.ROOT, "Checkpoint duration follows it: %s now, %s; %s.", Fmt.ms(now), growth,
          reach(timeout, hours)));
      return;
    }
    double now = d == null ? Double.NaN : job.recentMedian(d);
    if (now > 0) {
      GrowthReading s = state.reading();
      // the duration scaled with the size: it reaches the timeout when the size reaches
      // timeout / duration times its size now
      double hours = s.compounding()
          ? Forecast.compounding(now, timeout, s.rate())
          : s.linearPerHour() > 0
              ? (timeout / now - 1) * s.toValue() / s.linearPerHour()
              : Double.POSITIVE_INFINITY;
      if (Double.isFinite(hours)) {
        f.forecast(hours);
      }
      f.support(0.05, Signal.CHECKPOINT_DURATION, "job", now, 0, String.format(Locale.ROOT,
          "Checkpoint duration is %s; if it keeps following the size, %s.", Fmt.ms(now),
          reach(timeout, hours)));
    }
  }

  static String reach(double timeoutMs, double hours) {
    return "checkpoints reach the timeout (" + Fmt.ms(timeoutMs) + ") "
        + (!Double.isFinite(hours) ? "only if the growth speeds up"
            : hours == 0 ? "already" : "in " + Fmt.hours(hours));
  }

  /** The duration's trend over the window the state's trend was read from. */
  private static GrowthReading durationTrend(JobEvidence job, StateTrend state, SeriesHistory d) {
    GrowthReading watched = job.growth(Signal.CHECKPOINT_DURATION);
    if (state.reading().window() != GrowthReading.Window.CHOSEN) {
      return watched;
    }
    if (d == null) {
      return null;
    }
    long[] t = JobEvidence.times(d, state.reading().fromMs());
    double[] v = JobEvidence.slice(d, state.reading().fromMs(), Long.MAX_VALUE);
    return v.length < StateTrend.MIN_POINTS ? null
        : GrowthTest.ofPoints(Signal.CHECKPOINT_DURATION, t, v, v.length, job.now(), 0, 0);
  }

  /**
   * How much the duration and the state changed at the job's trouble onset: medians after it
   * against medians before it (within the raw window). A fault that slowed every checkpoint at
   * once shows a large duration ratio with a small state ratio.
   */
  record Jump(double duration, double state, long atMs) {
    static Jump at(JobEvidence job, SeriesHistory d, SeriesHistory s) {
      long onset = job.onset();
      if (onset >= job.now() || s == null) {
        return null;
      }
      double dBefore = job.median(d, Long.MIN_VALUE, onset);
      double dAfter = job.median(d, onset, Long.MAX_VALUE);
      double sBefore = job.median(s, Long.MIN_VALUE, onset);
      double sAfter = job.median(s, onset, Long.MAX_VALUE);
      if (!(dBefore > 0 && dAfter > 0 && sBefore > 0 && sAfter > 0)) {
        return null;
      }
      return new Jump(dAfter / dBefore, sAfter / sBefore, onset);
    }
  }
}
