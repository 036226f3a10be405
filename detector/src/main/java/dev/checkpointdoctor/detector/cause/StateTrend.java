package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.GrowthTest;
import dev.checkpointdoctor.detector.trend.SenSlope;

/**
 * The trend of the checkpointed state (full size when Flink reports it, else the checkpointed
 * size): the pipeline's trend test when it sees growth (two hours of raw points, or days of hourly
 * medians), else a fit of what the job has of the last {@link #FIT_MS} (or, when that is not a
 * line, of what came since the trouble's onset), in-flight data taken out, for growth fast enough
 * to break a band within minutes. Every window quoted is the data's own.
 */
record StateTrend(Signal signal, GrowthReading reading, boolean historyStart) {
  /** The most a young job's own fit reaches back. */
  static final long FIT_MS = 90 * 60_000L;
  /** Growth that counts in that fit, as a share of the size per hour. */
  static final double MIN_GROWTH_PER_HOUR = 0.03;
  /**
   * The fewest points a fit reads: those whose slope interval has a lower bound at all (7 at the
   * trend test's 99 %); with fewer, the fit can never say growing.
   */
  static final int MIN_POINTS = SenSlope.fewestPoints(GrowthTest.CONFIDENCE);
  /** Points before the onset that the fit since the onset starts with. */
  static final int ONSET_LEAD = 3;

  static StateTrend of(JobEvidence job) {
    return job.memo("state_trend", () -> fit(job));
  }

  /**
   * The trend, or the one the job's last diagnosis found from the same inputs: a scrape's series
   * reach the detector over several requests and a job with an open anomaly is diagnosed after
   * each of them, at the same event time and mostly without a new checkpoint in between. The
   * fit's two Theil–Sen fits were ~4 % of the kept load's CPU.
   */
  private static StateTrend fit(JobEvidence job) {
    Signal s = job.jobSeries(Signal.CHECKPOINT_FULL_SIZE) != null
        ? Signal.CHECKPOINT_FULL_SIZE : Signal.CHECKPOINT_SIZE;
    return job.kept().result("state_trend", Inputs.of(job, s), () -> of(job, s));
  }

  /**
   * Everything {@link #of(JobEvidence, Signal)} reads: the event time and onset its windows
   * start from, the pipeline's reading (by value; a record), and the exact runs of the size and
   * the in-flight data histories.
   */
  private record Inputs(Signal signal, long now, long onset, GrowthReading watched,
      SliceCache.Run size, SliceCache.Run inFlight) {
    /** Null when a history does not track its runs: then nothing is kept. */
    static Inputs of(JobEvidence job, Signal s) {
      SliceCache.Run size = SliceCache.Run.of(job.jobSeries(s));
      SliceCache.Run inFlight =
          SliceCache.Run.of(job.jobSeries(Signal.CHECKPOINT_PERSISTED_DATA));
      return size == null || inFlight == null ? null
          : new Inputs(s, job.now(), job.onset(), job.growth(s), size, inFlight);
    }
  }

  private static StateTrend of(JobEvidence job, Signal s) {
    GrowthReading watched = job.growth(s);
    if (watched != null && watched.growing()) {
      return new StateTrend(s, watched, false);
    }
    SeriesHistory h = job.jobSeries(s);
    if (h == null || h.size() == 0) {
      return null;
    }
    StateTrend own = fit(job, s, h, job.now() - FIT_MS);
    if ((own == null || !own.growing()) && job.onset() < job.now()) {
      // Growth that set in minutes ago, after a flat stretch, is a line only since it set in;
      // the band noticed it a few checkpoints late, so the fit starts a few points earlier, and
      // reaches back far enough for a slope interval (fast growth caught within seconds of its
      // onset has fewer checkpoints since than that; the flat points before only lower its rate).
      int i = 0;
      while (i < h.size() && h.timeMs(i) < job.onset()) {
        i++;
      }
      int first = Math.max(0, Math.min(i - ONSET_LEAD, h.size() - MIN_POINTS));
      StateTrend since = fit(job, s, h, h.timeMs(first));
      own = since != null && since.growing() ? since : own;
    }
    if (own == null || (!own.growing() && watched != null)) {
      return watched == null ? null : new StateTrend(s, watched, false);
    }
    return own;
  }

  private static StateTrend fit(JobEvidence job, Signal s, SeriesHistory h, long from) {
    long[] t = JobEvidence.times(h, from);
    double[] v = JobEvidence.slice(h, from, Long.MAX_VALUE);
    if (v.length < MIN_POINTS) {
      return null;
    }
    withoutInFlightData(job, t, v);
    GrowthReading r = GrowthTest.ofPoints(s, t, v, v.length, job.now(), MIN_GROWTH_PER_HOUR, 0);
    return r == null ? null : new StateTrend(s, r, t[0] <= h.timeMs(0));
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

  /** The size now (the median of the last points read). */
  double now() {
    return reading.toValue();
  }

  /** The size where the window starts. */
  double before() {
    return reading.fromValue();
  }

  /** Relative growth per hour (compounding). */
  double growthPerHour() {
    return reading.rate();
  }

  boolean growing() {
    return reading.growing();
  }

  String sentence() {
    return String.format("%s grew from %s to %s %s: %s",
        signal == Signal.CHECKPOINT_FULL_SIZE ? "full checkpoint size" : "checkpoint size",
        Fmt.bytes(before()), Fmt.bytes(now()), TrendWords.window(reading, historyStart),
        TrendWords.rate(reading));
  }
}
