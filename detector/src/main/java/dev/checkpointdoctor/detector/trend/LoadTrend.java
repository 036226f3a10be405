package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import java.util.Arrays;
import java.util.List;

/**
 * How the job's input rate moved over a window, with a confidence interval, for the trend test of
 * a job too young to know its daily cycle: checkpoints that grow because the evening peak is
 * coming are not state growth. Every scope of records-in is taken relative to its own median over
 * the window (in logs), the scopes are pooled into {@value #BIN_MINUTES}-minute bins (the median
 * of each bin), and a Theil–Sen line goes through the bins, its interval widened for the input
 * rate's wander ({@link SlowNoise}). Bins rather than raw points: a job has many scopes, and a
 * bin's median is robust to one subtask's hiccup; comparing the medians of the window's two ends
 * instead, as first written, moved by several percent an hour from one reading to the next.
 */
public final class LoadTrend {
  static final int BIN_MINUTES = 5;
  private static final long BIN_MS = BIN_MINUTES * 60_000L;
  /** Bins with points needed for a line: 40 minutes of them. */
  static final int MIN_BINS = 8;
  private static final int MIN_SCOPE_POINTS = 6;
  /**
   * Closed hours of the input rate its lasting rise is read over: longer than the trend test's
   * two hours, so the input's own wander (tens of percent over minutes) averages out.
   */
  public static final int INPUT_HOURS = 6;
  /** Fewest closed hours a lasting rise is read from. */
  public static final int MIN_HOURS = 3;

  private LoadTrend() {}

  /**
   * @return the input rate's line over {@code [fromMs, toMs]}, in logs per hour (slope 0.1 = about
   *     10 % an hour) against hours before {@code nowMs}, or null when the scopes have too few
   *     points
   */
  public static SenSlope.Fit fit(List<SeriesHistory> recordsIn, long fromMs, long toMs,
      long nowMs, double confidence) {
    if (recordsIn == null || recordsIn.isEmpty() || toMs <= fromMs) {
      return null;
    }
    int bins = (int) ((toMs - fromMs) / BIN_MS) + 1;
    double[][] pooled = new double[bins][];
    int[] filled = new int[bins];
    for (SeriesHistory h : recordsIn) {
      double[] logs = new double[h.size()];
      int[] bin = new int[h.size()];
      int n = 0;
      for (int i = 0; i < h.size(); i++) {
        long t = h.timeMs(i);
        double v = h.value(i);
        // points of the instant being judged may or may not have been read yet, depending on
        // the order a scrape's samples arrive in: left out, so the answer does not depend on it
        if (t >= fromMs && t <= toMs && t < nowMs && v > 0 && Double.isFinite(v)) {
          logs[n] = Math.log(v);
          bin[n] = (int) ((t - fromMs) / BIN_MS);
          n++;
        }
      }
      if (n < MIN_SCOPE_POINTS) {
        continue;
      }
      double level = median(Arrays.copyOf(logs, n), n);
      for (int i = 0; i < n; i++) {
        int b = bin[i];
        if (pooled[b] == null) {
          pooled[b] = new double[4];
        } else if (filled[b] == pooled[b].length) {
          pooled[b] = Arrays.copyOf(pooled[b], filled[b] * 2);
        }
        pooled[b][filled[b]++] = logs[i] - level;
      }
    }
    double[] x = new double[bins];
    double[] y = new double[bins];
    int k = 0;
    for (int b = 0; b < bins; b++) {
      if (filled[b] > 0) {
        x[k] = (fromMs + b * BIN_MS + BIN_MS / 2.0 - nowMs) / HourlyHistory.HOUR_MS;
        y[k] = median(pooled[b], filled[b]);
        k++;
      }
    }
    if (k < MIN_BINS) {
      return null;
    }
    SenSlope.Fit line = SenSlope.fit(x, y, k, confidence);
    return line.widened(SlowNoise.inflation(x, y, k, line));
  }

  /** The median of {@code v[0..n)}; sorts that range. */
  static double median(double[] v, int n) {
    Arrays.sort(v, 0, n);
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /**
   * The input rate's rise over its last closed hours (at most {@value #INPUT_HOURS}, none that
   * began before the job's last deployment), in logs per hour: every scope's hourly medians
   * relative to their own median over those hours, pooled per hour (the median across scopes), a
   * Theil–Sen slope through the hours. Why hours: over the two hours the trend test reads, the
   * input's wander can hide a rise of the daily cycle that the state follows (a state rising 4 %
   * an hour beside an input whose two-hour slope is 0 +- 6 %/h, while over six hours it rose 5 %
   * an hour); the state of windowed aggregations follows the input over hours, not its minutes.
   *
   * @return the slope, or NaN with fewer than {@value #MIN_HOURS} such hours
   */
  public static double lastingSlope(List<HourlyHistory> inputs, long nowMs, long deployedAtMs) {
    if (inputs == null || inputs.isEmpty()) {
      return Double.NaN;
    }
    long hour = HourlyHistory.HOUR_MS;
    long newest = Math.floorDiv(nowMs, hour) - 1; // the last closed hour
    long oldest = oldestHour(nowMs, deployedAtMs);
    int span = (int) (newest - oldest + 1);
    if (span < MIN_HOURS) {
      return Double.NaN;
    }
    double[][] pooled = new double[span][inputs.size()];
    int[] filled = new int[span];
    double[] logs = new double[span];
    int[] at = new int[span];
    for (HourlyHistory h : inputs) {
      int n = 0;
      for (int i = 0; i < h.hours(); i++) {
        long start = Math.floorDiv(h.hourStartMs(i), hour);
        double m = h.median(i);
        if (start >= oldest && start <= newest && h.count(i) > 0 && m > 0
            && Double.isFinite(m)) {
          logs[n] = Math.log(m);
          at[n] = (int) (start - oldest);
          n++;
        }
      }
      if (n < MIN_HOURS) {
        continue;
      }
      double level = median(Arrays.copyOf(logs, n), n);
      for (int i = 0; i < n; i++) {
        pooled[at[i]][filled[at[i]]++] = logs[i] - level;
      }
    }
    double[] x = new double[span];
    double[] y = new double[span];
    int k = 0;
    for (int b = 0; b < span; b++) {
      if (filled[b] > 0) {
        x[k] = b;
        y[k] = median(pooled[b], filled[b]);
        k++;
      }
    }
    // only the slope is read: its interval over a handful of hours says little
    return k < MIN_HOURS ? Double.NaN : SenSlope.line(x, y, k).slope();
  }

  /**
   * Whether a job whose history began at {@code firstMs} has, at {@code nowMs}, the closed hours
   * since its last deployment that {@link #lastingSlope} reads a rise from (given its inputs
   * report them).
   */
  public static boolean hoursKnown(long firstMs, long nowMs, long deployedAtMs) {
    if (firstMs == Long.MIN_VALUE) {
      return false;
    }
    long hour = HourlyHistory.HOUR_MS;
    long oldest = Math.max(oldestHour(nowMs, deployedAtMs), Math.floorDiv(firstMs, hour));
    return Math.floorDiv(nowMs, hour) - oldest >= MIN_HOURS;
  }

  /** The oldest hour (in hours since the epoch) the lasting rise reads at {@code nowMs}. */
  static long oldestHour(long nowMs, long deployedAtMs) {
    long hour = HourlyHistory.HOUR_MS;
    long oldest = Math.floorDiv(nowMs, hour) - INPUT_HOURS;
    if (deployedAtMs != Long.MIN_VALUE) {
      oldest = Math.max(oldest, Math.floorDiv(deployedAtMs + hour - 1, hour));
    }
    return oldest;
  }
}
