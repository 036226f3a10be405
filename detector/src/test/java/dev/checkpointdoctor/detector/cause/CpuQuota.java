package dev.checkpointdoctor.detector.cause;

/**
 * A CPU quota biting a simulated job, as the CPU throttling tests have it: every TaskManager's
 * throttled share rises, the keyed tasks get busier, and a while later the subtasks fall behind
 * and back-pressure their source.
 */
final class CpuQuota {
  private CpuQuota() {}

  /**
   * One scrape of the quota.
   *
   * @param share what the quota adds to every TaskManager's throttled share now
   * @param busier how many times as busy the keyed tasks are now
   * @param pressed whether the source is back-pressured yet
   */
  static void bite(FlinkJobSim x, double share, double busier, boolean pressed) {
    for (int m = 0; m < x.tms; m++) {
      x.cpuThrottled[m] += share;
    }
    for (int i = 0; i < x.parallelism; i++) {
      x.busy[1][i] = Math.min(1000, x.busy[1][i] * busier);
      x.bp[1][i] = 5 * x.rnd.nextDouble();
      if (pressed) {
        x.bp[0][i] = 600 + 200 * x.rnd.nextDouble();
      }
    }
  }
}
