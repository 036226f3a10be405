package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.model.SeriesHistory;

/**
 * How far one records-in scope's rate now stands above its level over the last hours: the median
 * of its last {@value #RECENT_MINUTES} minutes over the median of its closed hours' medians (at
 * most {@link LoadTrend#INPUT_HOURS}). A job's checkpointed state that follows its input (windows
 * hold more records at the day's peak) rises above a band learned at the night's level on its
 * first day, before the band knows the day; a state rise the input's own rise over those hours
 * matches is load, not an anomaly. Minutes and hours, not the newest point over a band of the
 * last two hours: the state is the input of hours, and a single rate sample wanders by tens of
 * percent.
 */
public final class InputLevel {
  static final int RECENT_MINUTES = 15;
  private static final long RECENT_MS = RECENT_MINUTES * 60_000L;
  private static final int MIN_RECENT_POINTS = 3;

  private InputLevel() {}

  /**
   * @return recent level over the hours' level, or NaN when the scope has fewer than {@link
   *     LoadTrend#MIN_HOURS} closed hours with a positive median, or too few recent points
   */
  public static double ratio(SeriesHistory raw, HourlyHistory hourly, long nowMs) {
    if (raw == null || hourly == null) {
      return Double.NaN;
    }
    double[] hours = new double[hourly.hours()];
    int h = 0;
    long newest = Math.floorDiv(nowMs, HourlyHistory.HOUR_MS) - 1;
    long oldest = LoadTrend.oldestHour(nowMs, Long.MIN_VALUE);
    for (int i = 0; i < hourly.hours(); i++) {
      long hour = Math.floorDiv(hourly.hourStartMs(i), HourlyHistory.HOUR_MS);
      double m = hourly.median(i);
      if (hour >= oldest && hour <= newest && hourly.count(i) > 0 && m > 0
          && Double.isFinite(m)) {
        hours[h++] = m;
      }
    }
    if (h < LoadTrend.MIN_HOURS) {
      return Double.NaN;
    }
    double[] recent = new double[Math.min(raw.size(), 256)];
    int r = 0;
    for (int i = raw.size() - 1; i >= 0 && r < recent.length; i--) {
      long t = raw.timeMs(i);
      if (t <= nowMs - RECENT_MS) {
        break;
      }
      double v = raw.value(i);
      if (t <= nowMs && v >= 0 && Double.isFinite(v)) {
        recent[r++] = v;
      }
    }
    if (r < MIN_RECENT_POINTS) {
      return Double.NaN;
    }
    return LoadTrend.median(recent, r) / LoadTrend.median(hours, h);
  }
}
