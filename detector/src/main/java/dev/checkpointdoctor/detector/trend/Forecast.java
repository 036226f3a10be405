package dev.checkpointdoctor.detector.trend;

/**
 * When a growing signal reaches a limit (the checkpoint duration, the checkpoint timeout):
 * compounding growth extrapolated as compounding, a straight line as a line, whichever fitted the
 * reading's points better.
 */
public final class Forecast {
  private Forecast() {}

  /**
   * @param now the signal's value now
   * @param limit the value it must not reach
   * @return hours until it does (0 when it already has), or +infinity when it does not grow
   */
  public static double hoursToReach(double now, double limit, GrowthReading r) {
    if (now >= limit) {
      return 0;
    }
    if (r.compounding()) {
      return compounding(now, limit, r.rate());
    }
    return r.linearPerHour() > 0 ? (limit - now) / r.linearPerHour() : Double.POSITIVE_INFINITY;
  }

  /** Hours for {@code now} growing {@code rate} per hour, compounding, to reach {@code limit}. */
  public static double compounding(double now, double limit, double rate) {
    if (now >= limit) {
      return 0;
    }
    return rate > 0 ? Math.log(limit / now) / Math.log1p(rate) : Double.POSITIVE_INFINITY;
  }
}
