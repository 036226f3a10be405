package dev.checkpointdoctor.eval.family2;

/**
 * The CFS bandwidth control of one container (or pod cgroup) with a CPU limit, as the kernel
 * counts it and cAdvisor exports it: {@code nr_periods} (100 ms enforcement periods in which the
 * group had runnable threads) and {@code nr_throttled} (periods in which it used up its quota).
 *
 * <p>Demand within a period is bursty (GC threads, compaction, a checkpoint's upload), so a
 * container whose average demand is well under its limit is still throttled in a few periods;
 * the throttled share rises smoothly as the average demand approaches the limit and passes it.
 * Modelled as the probability that a period's demand, lognormal around the average, exceeds the
 * quota.
 */
final class CfsQuota {
  final double quotaCores;
  final double burstiness;
  double periods;
  double throttledPeriods;
  /** Share of the periods throttled in the last tick. */
  double throttledShare;
  /** Share of the wanted CPU the container got in the last tick. */
  double cpuFactor = 1;

  CfsQuota(double quotaCores, double burstiness, double bootPeriods) {
    this.quotaCores = quotaCores;
    this.burstiness = burstiness;
    this.periods = Math.floor(bootPeriods);
    this.throttledPeriods = Math.floor(bootPeriods * 0.01);
  }

  /**
   * Advances one tick.
   *
   * @param wantedCores average CPU the container's threads want
   */
  void step(double wantedCores, double dt) {
    double s = burstiness;
    double ratio = Math.max(1e-6, wantedCores / quotaCores);
    throttledShare = Noise.phi((Math.log(ratio) - s * s / 2) / s);
    cpuFactor = Math.min(1, quotaCores / Math.max(1e-6, wantedCores));
    double p = 10 * dt * Math.min(1, 0.9 + wantedCores);
    periods += p;
    throttledPeriods += p * throttledShare;
  }

  /** Counters as cAdvisor reports them: whole periods. */
  double periodsCounter() {
    return Math.floor(periods);
  }

  double throttledCounter() {
    return Math.floor(throttledPeriods);
  }
}
