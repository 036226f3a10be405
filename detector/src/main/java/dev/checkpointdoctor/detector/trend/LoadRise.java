package dev.checkpointdoctor.detector.trend;

/**
 * The clearest recent rise of a young job's input rate, for the trend test of one of its
 * checkpoint signals. A checkpoint signal that follows the load does not stop rising the minute
 * the input rate's two-hour line stops being sure of its rise: where the rise slows near the daily
 * peak the line's interval widens, and the state (or the in-flight data) keeps following what the
 * load did for a while. So the rise the input rate surely made in the last {@link #LAG_MS} (the
 * largest lower bound of its slope, when it reaches {@link #MIN_RISE}) still explains as much of the signal's growth. The
 * lower bound, not the slope: a steady input rate's line is now and then sure of a small rise by
 * chance, and a job whose load swings little seldom makes a sure rise of more than a percent an
 * hour, so their own growth is not taken out.
 *
 * <p>Not thread-safe; one per trend watch.
 */
public final class LoadRise {
  /** How long a sure rise of the input rate explains the signal's growth. */
  public static final long LAG_MS = 3 * HourlyHistory.HOUR_MS;

  /**
   * The least sure rise remembered, in logs per hour: as fast as the recent window's growth
   * rate, so a chance rise of a steady input rate, sure of a fraction of a percent, is not.
   */
  static final double MIN_RISE = Math.log1p(GrowthTest.RECENT_RATE);

  // the surest rise since it was seen, and the latest sure one (which outlives the surest)
  private long surestMs = Long.MIN_VALUE;
  private double surest;
  private long latestMs = Long.MIN_VALUE;
  private double latest;

  /** The input rate's line over the window read at {@code nowMs}, or null when there was none. */
  void saw(long nowMs, SenSlope.Fit load) {
    if (load == null || !(load.lower() >= MIN_RISE) || !Double.isFinite(load.lower())) {
      return;
    }
    latestMs = nowMs;
    latest = load.lower();
    if (!recent(surestMs, nowMs) || latest >= surest) {
      surestMs = nowMs;
      surest = latest;
    }
  }

  /** The growth, in logs per hour, the surest recent rise still explains at {@code nowMs}. */
  double explains(long nowMs) {
    return Math.max(recent(surestMs, nowMs) ? surest : 0, recent(latestMs, nowMs) ? latest : 0);
  }

  private static boolean recent(long atMs, long nowMs) {
    return atMs != Long.MIN_VALUE && nowMs >= atMs && nowMs - atMs <= LAG_MS;
  }

  public void writeTo(java.io.DataOutput out) throws java.io.IOException {
    out.writeLong(surestMs);
    out.writeDouble(surest);
    out.writeLong(latestMs);
    out.writeDouble(latest);
  }

  public static LoadRise readFrom(java.io.DataInput in) throws java.io.IOException {
    LoadRise r = new LoadRise();
    r.surestMs = in.readLong();
    r.surest = in.readDouble();
    r.latestMs = in.readLong();
    r.latest = in.readDouble();
    return r;
  }
}
