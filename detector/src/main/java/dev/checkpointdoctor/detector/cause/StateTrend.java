package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * The trend of the checkpointed state over the last {@link #FIT_MS} (full size when Flink reports
 * it, else the checkpointed size), one point per completed checkpoint.
 */
record StateTrend(Signal signal, Stats.Trend trend, double now, double before, double first) {
  static final long FIT_MS = 90 * 60_000L;
  /** Growth that counts, as a share of the current size per hour. */
  static final double MIN_GROWTH_PER_HOUR = 0.03;
  static final double MIN_RISING_SHARE = 0.7;

  static StateTrend of(JobEvidence job) {
    return job.memo("state_trend", () -> fit(job));
  }

  private static StateTrend fit(JobEvidence job) {
    StateTrend t = of(job, Signal.CHECKPOINT_FULL_SIZE);
    return t != null ? t : of(job, Signal.CHECKPOINT_SIZE);
  }

  private static StateTrend of(JobEvidence job, Signal s) {
    SeriesHistory h = job.jobSeries(s);
    if (h == null) {
      return null;
    }
    long from = job.now() - FIT_MS;
    long[] t = JobEvidence.times(h, from);
    double[] v = JobEvidence.slice(h, from, Long.MAX_VALUE);
    if (v.length < 6) {
      return null;
    }
    withoutInFlightData(job, t, v);
    Stats.Trend trend = Stats.trend(t, v);
    return new StateTrend(s, trend, trend.valueAtRef(), v[0], v[0]);
  }

  /**
   * Takes the persisted in-flight data of the same checkpoint out of its size: buffers stored by
   * unaligned checkpoints are not state, and they swell with back-pressure, not with keys.
   */
  private static void withoutInFlightData(JobEvidence job, long[] t, double[] v) {
    SeriesHistory p = job.jobSeries(Signal.CHECKPOINT_PERSISTED_DATA);
    if (p == null) {
      return;
    }
    int j = 0;
    for (int i = 0; i < t.length; i++) {
      while (j < p.size() && p.timeMs(j) < t[i]) {
        j++;
      }
      if (j < p.size() && p.timeMs(j) == t[i] && p.value(j) > 0 && p.value(j) < v[i]) {
        v[i] -= p.value(j);
      }
    }
  }

  /** Relative growth per hour against the current size. */
  double growthPerHour() {
    return now > 0 ? trend.perHour() / now : 0;
  }

  boolean growing() {
    return growthPerHour() >= MIN_GROWTH_PER_HOUR && trend.risingShare() >= MIN_RISING_SHARE;
  }

  String sentence() {
    return String.format("%s is %s, growing %s/h (%s per hour)",
        signal == Signal.CHECKPOINT_FULL_SIZE ? "full checkpoint size" : "checkpoint size",
        Fmt.bytes(now), Fmt.bytes(trend.perHour()), Fmt.pct(growthPerHour()));
  }
}
