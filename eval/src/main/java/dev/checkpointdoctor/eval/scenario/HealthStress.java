package dev.checkpointdoctor.eval.scenario;

import java.util.Locale;

/**
 * An evaluation knob on family 1's healthy controls (train false-alarm studies): the train
 * controls draw one noise model, one daily cycle shape and fixed scrapes (60 s over 14 days,
 * 15 s over 16 h), so a band or test can stay quiet on them while it fires on healthy jobs
 * scraped, checkpointed or disturbed otherwise. {@link #NONE} draws exactly the default corpus;
 * fault, growth and young jobs are untouched.
 *
 * @param scrapeSeconds when positive, every healthy control is scraped this often
 * @param intervalSeconds when positive, every healthy control checkpoints this often
 * @param noise the multiplicative noise of the job's gauges and durations
 * @param cycle the shape of the daily load cycle
 */
public record HealthStress(int scrapeSeconds, int intervalSeconds, Noise noise, Cycle cycle) {
  public static final HealthStress NONE = new HealthStress(0, 0, Noise.GAUSSIAN, Cycle.SINE);

  /** How the per-sample noise is drawn; every model keeps the job's drawn log-scale. */
  public enum Noise {
    /** Independent log-normal: the default corpus. */
    GAUSSIAN,
    /** Laplace (unit variance): exponential tails, several-sigma values far more often. */
    HEAVY,
    /** AR(1) with 0.9 per scrape (unit variance): runs of high or low values. */
    AR,
    /**
     * Independent per-sample noise as drawn, but the load wanders slowly: AR(1) in log space
     * with a 15-minute correlation time and 7 % spread (production loads drift over tens of
     * minutes, about as long as a 120-observation window at 15 s scrapes spans), plus regimes
     * starting at 0.1 per hour: a log-normal 7 % level shift lasting 45 minutes on average.
     */
    SLOW
  }

  /** The daily load cycle's shape; the amplitude and the peak hour stay as drawn. */
  public enum Cycle {
    /** Two harmonics: a smooth day. */
    SINE,
    /** A flattened-top day: the load climbs within about an hour in the morning and drops fast. */
    STEEP
  }

  public HealthStress {
    if (scrapeSeconds < 0 || scrapeSeconds > 300) {
      throw new IllegalArgumentException("scrape must be 0-300 s, got " + scrapeSeconds);
    }
    if (intervalSeconds != 0 && (intervalSeconds < 10 || intervalSeconds > 3600)) {
      throw new IllegalArgumentException("interval must be 10-3600 s, got " + intervalSeconds);
    }
  }

  /** Parses {@code gaussian|heavy|ar|slow}. */
  public static Noise noise(String s) {
    return Noise.valueOf(s.toUpperCase(Locale.ROOT));
  }

  /** Parses {@code sine|steep}. */
  public static Cycle cycle(String s) {
    return Cycle.valueOf(s.toUpperCase(Locale.ROOT));
  }

  boolean none() {
    return equals(NONE);
  }
}
