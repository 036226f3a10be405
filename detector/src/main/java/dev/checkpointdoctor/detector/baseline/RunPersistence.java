package dev.checkpointdoctor.detector.baseline;

/**
 * How often a scope's out-of-band observation is followed by another on the same side: decayed
 * counts of the observations that followed one ({@code followed}) and of those that went on
 * ({@code continued}), read with {@link #PRIOR_WEIGHT} observations' worth of the prior. A scope
 * leaves its band a few times a day, so the estimate must speak after a handful of excursions:
 * a plain running mean started at the prior would take weeks.
 */
record RunPersistence(double followed, double continued) {
  /** Successors over which the counts are kept (exponentially). */
  static final int MEMORY = 50;
  /** Observations' worth of the prior in the estimate. */
  static final double PRIOR_WEIGHT = 2;
  static final RunPersistence NONE = new RunPersistence(0, 0);

  RunPersistence {
    if (!(followed >= 0 && followed <= MEMORY) || !(continued >= 0 && continued <= followed)) {
      throw new IllegalArgumentException("inconsistent run persistence counts " + followed + ", "
          + continued);
    }
  }

  /** The counts after one more observation that followed an out-of-band one. */
  RunPersistence after(boolean wentOn) {
    double keep = 1 - 1.0 / MEMORY;
    return new RunPersistence(followed * keep + 1, continued * keep + (wentOn ? 1 : 0));
  }

  /** P(the next observation is out of band on the same side | this one is), towards the prior. */
  double estimate(double prior) {
    return (continued + PRIOR_WEIGHT * prior) / (followed + PRIOR_WEIGHT);
  }
}
