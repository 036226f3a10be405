package dev.checkpointdoctor.detector.trend;

import java.util.List;

/**
 * How closely a checkpoint signal follows the job's input rate (its elasticity: the share of a
 * rise of the input that shows in the signal, in logs), read from the job's own earlier hours,
 * for the trend test of a job too young to know its daily cycle. Without it the test must assume
 * the signal follows the load in full and take all of the input's rise out of the signal's; but
 * a full snapshot writes the whole state whatever the load, and a state that follows a fifth of
 * the daily cycle then lost real growth to every rise of the input, whether the morning's or a
 * wander of its minutes (family 1 train seeds 1-10: the full size's own interval was within
 * +-0.1 %/h, yet growth of 2-5 %/h was named within 2 h 12/30, the input's rise of up to 14 %/h
 * taken out in full; 18/30 with this).
 *
 * <p>The hours read are the closed hours since the last deployment that end before the recent
 * window the test judges ({@link GrowthTest#RECENT_MS}): growth that starts now does not enter
 * them, and growth that went on before them moved the signal with time whether or not the input
 * rose. A Theil–Sen line of the signal's hourly medians (logs) against the input's pooled hourly
 * levels ({@link LoadTrend#pooledHours}); the answer is the upper bound of its {@value #CONFIDENCE}
 * interval, kept within [0, 1]. Unknown, and so 1 (follows in full), with fewer than
 * {@value #MIN_HOURS} hours or while the input moved less than {@value #MIN_SPREAD} in logs over
 * them: a flat input tells nothing of how the signal follows it.
 */
public final class LoadFollowing {
  /**
   * Closed hours read at most: half a day holds half a daily cycle, and every records-in scope
   * keeps this many hourly summaries more.
   */
  public static final int HOURS = 12;
  static final int MIN_HOURS = 6;
  /**
   * The input's hourly levels must span this much (in logs, about 5 %); below it the line's
   * interval decides, which is wide unless the signal stayed flat beside the input's moves.
   */
  static final double MIN_SPREAD = 0.05;
  /**
   * Closed hours every records-in scope keeps: those read here (they end two hours before now)
   * and those of the lasting rise ({@link LoadTrend#INPUT_HOURS}), and one more: the newest
   * closed hour is summarised only when the next one begins.
   */
  public static final int INPUT_HOURS_KEPT = Math.max(LoadTrend.INPUT_HOURS,
      HOURS + (int) (GrowthTest.RECENT_MS / HourlyHistory.HOUR_MS) + 1) + 1;
  /** Two-sided: the upper bound is a 97.5 % one-sided one over a handful of hours. */
  static final double CONFIDENCE = 0.95;
  /** As if the signal followed the input in full. */
  public static final double IN_FULL = 1;

  private LoadFollowing() {}

  /**
   * @param signal the signal's hourly medians
   * @param inputs every records-in scope's hourly medians
   * @return the elasticity's upper bound in [0, 1], or {@link #IN_FULL} when it cannot be told
   */
  public static double upperBound(HourlyHistory signal, List<HourlyHistory> inputs, long nowMs,
      long deployedAtMs) {
    if (signal == null || inputs == null || inputs.isEmpty()) {
      return IN_FULL;
    }
    long hour = HourlyHistory.HOUR_MS;
    // closed hours ending at or before the recent window's start
    long newest = Math.floorDiv(nowMs - GrowthTest.RECENT_MS, hour) - 1;
    long oldest = newest - HOURS + 1;
    if (deployedAtMs != Long.MIN_VALUE) {
      oldest = Math.max(oldest, Math.floorDiv(deployedAtMs + hour - 1, hour));
    }
    if (newest - oldest + 1 < MIN_HOURS) {
      return IN_FULL;
    }
    double[][] load = LoadTrend.pooledHours(inputs, oldest, newest, MIN_HOURS);
    double[] x = new double[load[0].length];
    double[] y = new double[x.length];
    int k = 0;
    int j = 0;
    for (int i = 0; i < signal.hours() && j < x.length; i++) {
      long start = Math.floorDiv(signal.hourStartMs(i), hour);
      double m = signal.median(i);
      while (j < x.length && load[0][j] < start) {
        j++;
      }
      if (j < x.length && load[0][j] == start && signal.count(i) > 0 && m > 0
          && Double.isFinite(m)) {
        x[k] = load[1][j];
        y[k] = Math.log(m);
        k++;
      }
    }
    if (k < MIN_HOURS || spread(x, k) < MIN_SPREAD) {
      return IN_FULL;
    }
    double upper = SenSlope.fit(x, y, k, CONFIDENCE).upper();
    return Double.isFinite(upper) ? Math.max(0, Math.min(IN_FULL, upper)) : IN_FULL;
  }

  private static double spread(double[] v, int n) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      lo = Math.min(lo, v[i]);
      hi = Math.max(hi, v[i]);
    }
    return hi - lo;
  }
}
