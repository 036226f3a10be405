package dev.checkpointdoctor.eval.scenario;

/**
 * What a job looks like in production beyond its fault: load cycles, a redeploy, checkpoints
 * declined at start, in-flight data with heavy tails, a slow checkpoint now and then, slow
 * compounding state growth. {@link #NONE} keeps the original corpus' behaviour (and its bytes).
 *
 * @param dailyAmplitude load swing over the day, as a fraction of the mean (0 = flat)
 * @param dailyPeakHour UTC hour at which the daily load peaks
 * @param weekendDip Saturday and Sunday run at {@code 1 - weekendDip} of the weekday load
 * @param stateLoadCoupling how much of the load cycle the full state follows (windows hold more
 *     records when more arrive); 0 = the state ignores the cycle
 * @param growthPerHour compounding growth of the full state per hour from the fault start (a
 *     {@code STATE_GROWTH} fault); 0 = the original linear growth driven by severity
 * @param redeployAtHours event time after the start at which the job is resubmitted under a new
 *     job_id; negative = never
 * @param parallelismAfter parallelism after the redeploy (0 = unchanged); TaskManagers follow
 * @param intervalAfterSeconds checkpoint interval after the redeploy (0 = unchanged)
 * @param levelAfter factor on the state after the redeploy: a lasting, healthy "new normal"
 * @param declinedAtStart checkpoints declined (failed at once) after each start: tasks not running
 *     yet
 * @param slowCheckpointsPerDay isolated slow checkpoints (a retried upload) per day, at random
 * @param heavyTailedInFlight unaligned checkpoints persist a naturally varying, heavy-tailed
 *     amount of in-flight data
 * @param storageSlowdown for {@code CHECKPOINT_STORAGE_SLOW}: uploads become this many times
 *     slower in one step; 0 = the original model (minutes added to every upload)
 * @param normalDurationSeconds when positive, the storage bandwidth is chosen so a normal
 *     checkpoint takes about this long (full-snapshot jobs, slow storage)
 * @param rampMinutes how long the fault takes to reach its full level (a heap filling, a
 *     compaction debt building up); 0 = the original one to two minutes
 * @param faultScale {@link FaultStress#severityScale()} where the fault's size is not its
 *     severity (a partially slow store's extra upload time); 1 = as drawn
 * @param noise the per-sample noise model ({@link HealthStress}); Gaussian = as drawn
 * @param cycleShape the daily cycle's shape ({@link HealthStress}); sine = as drawn
 * @param exporterEvery node_exporter and cAdvisor are scraped every this many scrapes of Flink's
 *     reporter ({@link FaultStress}); 1 = with every scrape, as drawn
 * @param loadRise factor by which the input climbs around the fault's onset and stays
 *     ({@link FaultStress#loadRise()}, {@link #loadFactor}); 1 = no rise, as drawn
 * @param alignedTimeout unaligned checkpoints start aligned and turn unaligned only once
 *     back-pressure holds the barriers up (Flink's
 *     {@code execution.checkpointing.aligned-checkpoint-timeout}): no in-flight data is persisted
 *     while the job is not back-pressured ({@link FaultStress#alignedTimeout()}); false = as drawn
 * @param wanderingInFlight unaligned checkpoints persist in-flight data that wanders with the
 *     buffers' fill from one checkpoint to the next ({@link FaultStress#wanderingInFlight()});
 *     false = an independent draw per checkpoint, as drawn
 */
public record ProductionTraits(
    double dailyAmplitude,
    double dailyPeakHour,
    double weekendDip,
    double stateLoadCoupling,
    double growthPerHour,
    double redeployAtHours,
    int parallelismAfter,
    int intervalAfterSeconds,
    double levelAfter,
    int declinedAtStart,
    double slowCheckpointsPerDay,
    boolean heavyTailedInFlight,
    double storageSlowdown,
    double normalDurationSeconds,
    double rampMinutes,
    double faultScale,
    HealthStress.Noise noise,
    HealthStress.Cycle cycleShape,
    int exporterEvery,
    double loadRise,
    boolean alignedTimeout,
    boolean wanderingInFlight) {

  static final ProductionTraits NONE = new ProductionTraits(0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0,
      false, 0, 0, 0, 1, HealthStress.Noise.GAUSSIAN, HealthStress.Cycle.SINE, 1, 1, false,
      false);

  boolean redeploys() {
    return redeployAtHours >= 0;
  }

  boolean cyclic() {
    return dailyAmplitude > 0 || weekendDip > 0;
  }

  ProductionTraits withCycle(double amplitude, double peakHour, double dip, double coupling) {
    return new ProductionTraits(amplitude, peakHour, dip, coupling, growthPerHour,
        redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter, declinedAtStart,
        slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown, normalDurationSeconds, rampMinutes, faultScale, noise, cycleShape, exporterEvery, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withRedeploy(double atHours, int parallelism, int intervalSeconds,
      double level) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, atHours, parallelism, intervalSeconds, level, declinedAtStart,
        slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown, normalDurationSeconds, rampMinutes, faultScale, noise, cycleShape, exporterEvery, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withGrowth(double perHour) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        perHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown,
        normalDurationSeconds, rampMinutes, faultScale, noise, cycleShape, exporterEvery, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withStart(int declined, double slowPerDay, boolean heavyTail) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declined, slowPerDay, heavyTail, storageSlowdown, normalDurationSeconds, rampMinutes, faultScale, noise, cycleShape, exporterEvery, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withStorage(double slowdown, double normalSeconds) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, slowdown, normalSeconds, rampMinutes, faultScale, noise, cycleShape, exporterEvery, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withFaultScale(double scale) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown,
        normalDurationSeconds, rampMinutes, scale, noise, cycleShape, exporterEvery, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withRamp(double minutes) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown,
        normalDurationSeconds, minutes, faultScale, noise, cycleShape, exporterEvery, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withHealthStress(HealthStress.Noise model, HealthStress.Cycle shape) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown,
        normalDurationSeconds, rampMinutes, faultScale, model, shape, exporterEvery, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withExporterEvery(int scrapes) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown,
        normalDurationSeconds, rampMinutes, faultScale, noise, cycleShape, scrapes, loadRise, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withLoadRise(double factor) {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown,
        normalDurationSeconds, rampMinutes, faultScale, noise, cycleShape, exporterEvery, factor, alignedTimeout,
        wanderingInFlight);
  }

  ProductionTraits withAlignedTimeout() {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown,
        normalDurationSeconds, rampMinutes, faultScale, noise, cycleShape, exporterEvery, loadRise,
        true, wanderingInFlight);
  }

  ProductionTraits withWanderingInFlight() {
    return new ProductionTraits(dailyAmplitude, dailyPeakHour, weekendDip, stateLoadCoupling,
        growthPerHour, redeployAtHours, parallelismAfter, intervalAfterSeconds, levelAfter,
        declinedAtStart, slowCheckpointsPerDay, heavyTailedInFlight, storageSlowdown,
        normalDurationSeconds, rampMinutes, faultScale, noise, cycleShape, exporterEvery, loadRise,
        alignedTimeout, true);
  }

  /** The input rise starts this long before the fault's onset ... */
  static final long RISE_BEFORE_MS = 60 * 60_000L;
  /** ... and reaches its full factor this long after it, then stays. */
  static final long RISE_AFTER_MS = 30 * 60_000L;

  /**
   * The factor on the job's input at event time {@code t} for a fault starting at
   * {@code faultStartMs}: 1 until an hour before the onset, then climbing geometrically to
   * {@link #loadRise} half an hour after it and staying there. A lasting rise of the input
   * around the onset (more users, a backfill, a partner's feed) is what production often shows
   * beside a quota or a disk that starts to bite: the fault then rides on busier tasks, and a
   * rule must still name it rather than the back-pressure the rise adds to.
   */
  double loadFactor(long t, long faultStartMs) {
    if (loadRise == 1) {
      return 1;
    }
    long from = faultStartMs - RISE_BEFORE_MS;
    double x = Math.min(1, Math.max(0, (t - from) / (double) (RISE_BEFORE_MS + RISE_AFTER_MS)));
    return Math.pow(loadRise, x);
  }
}
