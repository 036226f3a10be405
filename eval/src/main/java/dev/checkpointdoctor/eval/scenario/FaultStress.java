package dev.checkpointdoctor.eval.scenario;

/**
 * An evaluation knob on family 1's fault jobs (train sensitivity studies): the train faults are
 * sudden and strong, so a rule can pass on them while it misses a milder or slower fault.
 * {@link #NONE} draws exactly the default corpus. Healthy controls, growth and young jobs are
 * untouched; only the {@code <cause>_a/_b} fault jobs change.
 *
 * @param severityScale factor on how hard each fault bites: on the drawn severity (a stuck
 *     store, severity 1.5, turns partial below about 0.65), on the extra upload time of a
 *     partially slow store, and on how much shorter a too-short interval is than the
 *     checkpoints (interval = duration / (1 + (r - 1) * scale) for a drawn ratio r of 1.5-2.5)
 * @param onsetMinutes when positive, every fault reaches its full level linearly over this many
 *     minutes (a gradual onset) instead of its drawn ramp of minutes
 * @param scrapeSeconds when positive, every fault job is scraped this often instead of its drawn
 *     15-60 s (a fault seen through fewer, coarser samples)
 * @param intervalSeconds when positive, every fault job checkpoints this often instead of its
 *     drawn 30 s-5 min (fewer checkpoints per hour of fault); the interval-too-short and growth
 *     jobs keep their own lower bounds on it
 * @param parallelism when positive, every fault job runs with this parallelism instead of its
 *     drawn 2-16, on as many TaskManagers as drawn (at most one per subtask)
 * @param exporterScrapeSeconds when positive, node_exporter and cAdvisor are scraped about this
 *     often (the nearest whole multiple of the job's scrape, at least one) while Flink's
 *     reporter keeps the job's scrape: production scrape jobs have scrape intervals of their own
 * @param noise the per-sample noise of every fault job ({@link HealthStress.Noise}): the train
 *     faults ride on independent noise, so a rule can name them while it would read a fault in
 *     wandering noise (runs of high values, a load that drifts) as a consequence's cause
 * @param loadRise when above 1, every fault job's input climbs by this factor from an hour
 *     before the fault's onset to half an hour after it and stays
 *     ({@link ProductionTraits#loadFactor}): the train faults start on a steady input, so a
 *     rule can name them while it would name the back-pressure of a busier job instead
 * @param alignedTimeout every fault job that runs unaligned checkpoints starts them aligned and
 *     turns them unaligned only under back-pressure (Flink's aligned-checkpoint timeout), so it
 *     persists no in-flight data before its trouble: the train jobs persist some all along, so
 *     a rule can tell them unaligned from the first minute while it could not tell this one
 * @param wanderingInFlight every fault job that runs unaligned checkpoints persists in-flight
 *     data that follows the slowly changing fill of its buffers (AR(1) in log space, 0.95 per
 *     checkpoint, spread 0.5) instead of an independent draw per checkpoint: the train jobs'
 *     in-flight data is uncorrelated, so a rank test decides its rise in a few checkpoints
 *     while for this one it could not
 */
public record FaultStress(double severityScale, double onsetMinutes, int scrapeSeconds,
    int intervalSeconds, int parallelism, int exporterScrapeSeconds, HealthStress.Noise noise,
    double loadRise, boolean alignedTimeout, boolean wanderingInFlight) {
  public static final FaultStress NONE = new FaultStress(1, 0, 0, 0, 0, 0);

  public FaultStress(double severityScale, double onsetMinutes) {
    this(severityScale, onsetMinutes, 0, 0, 0, 0);
  }

  public FaultStress(double severityScale, double onsetMinutes, int scrapeSeconds,
      int intervalSeconds, int parallelism, int exporterScrapeSeconds) {
    this(severityScale, onsetMinutes, scrapeSeconds, intervalSeconds, parallelism,
        exporterScrapeSeconds, HealthStress.Noise.GAUSSIAN);
  }

  public FaultStress(double severityScale, double onsetMinutes, int scrapeSeconds,
      int intervalSeconds, int parallelism, int exporterScrapeSeconds, HealthStress.Noise noise) {
    this(severityScale, onsetMinutes, scrapeSeconds, intervalSeconds, parallelism,
        exporterScrapeSeconds, noise, 1);
  }

  public FaultStress(double severityScale, double onsetMinutes, int scrapeSeconds,
      int intervalSeconds, int parallelism, int exporterScrapeSeconds, HealthStress.Noise noise,
      double loadRise) {
    this(severityScale, onsetMinutes, scrapeSeconds, intervalSeconds, parallelism,
        exporterScrapeSeconds, noise, loadRise, false);
  }

  public FaultStress(double severityScale, double onsetMinutes, int scrapeSeconds,
      int intervalSeconds, int parallelism, int exporterScrapeSeconds, HealthStress.Noise noise,
      double loadRise, boolean alignedTimeout) {
    this(severityScale, onsetMinutes, scrapeSeconds, intervalSeconds, parallelism,
        exporterScrapeSeconds, noise, loadRise, alignedTimeout, false);
  }

  public FaultStress {
    if (!(severityScale > 0) || severityScale > 10) {
      throw new IllegalArgumentException("severity scale must be in (0, 10], got "
          + severityScale);
    }
    if (!(onsetMinutes >= 0) || onsetMinutes > 24 * 60) {
      throw new IllegalArgumentException("onset must be 0-1440 minutes, got " + onsetMinutes);
    }
    if (scrapeSeconds < 0 || scrapeSeconds > 300) {
      throw new IllegalArgumentException("scrape must be 0-300 s, got " + scrapeSeconds);
    }
    if (intervalSeconds != 0 && (intervalSeconds < 10 || intervalSeconds > 3600)) {
      throw new IllegalArgumentException("interval must be 10-3600 s, got " + intervalSeconds);
    }
    if (exporterScrapeSeconds < 0 || exporterScrapeSeconds > 600) {
      throw new IllegalArgumentException("exporter scrape must be 0-600 s, got "
          + exporterScrapeSeconds);
    }
    if (noise == null) {
      throw new IllegalArgumentException("noise model must be given");
    }
    if (!(loadRise >= 1) || loadRise > 10) {
      throw new IllegalArgumentException("load rise must be in [1, 10], got " + loadRise);
    }
    if (parallelism < 0 || parallelism > 64) {
      throw new IllegalArgumentException("parallelism must be 0-64, got " + parallelism);
    }
  }

  boolean none() {
    return equals(NONE);
  }
}
