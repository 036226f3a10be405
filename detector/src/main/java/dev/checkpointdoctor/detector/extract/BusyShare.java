package dev.checkpointdoctor.detector.extract;

import java.util.Arrays;

/**
 * The share of a run's time spent checkpointing, from its newest completions: their median
 * duration over the time between them per checkpoint. Spacing is read over {@link #SPANS}
 * completions because the scrape interval quantises single gaps (a 35 s interval scraped every
 * 15 s shows as 30 s and 45 s), and per checkpoint counted by the completion marker because
 * several may complete between two scrapes.
 */
public final class BusyShare {
  /** Completions the spacing is read over. */
  public static final int SPANS = 4;

  private final long[] times = new long[SPANS + 1];
  private final double[] markers = new double[SPANS + 1];
  private final double[] durations = new double[SPANS + 1];
  private int count;

  BusyShare() {}

  /**
   * Records a completion seen at {@code tsMs} with completion marker {@code marker} and duration
   * {@code durationMs}; returns the share once {@link #SPANS} spans are known, else NaN.
   */
  double completed(long tsMs, double marker, double durationMs) {
    int n = Math.min(count, SPANS + 1);
    if (n == SPANS + 1) {
      System.arraycopy(times, 1, times, 0, SPANS);
      System.arraycopy(markers, 1, markers, 0, SPANS);
      System.arraycopy(durations, 1, durations, 0, SPANS);
      n--;
    }
    times[n] = tsMs;
    markers[n] = marker;
    durations[n] = durationMs;
    count = n + 1;
    if (count < SPANS + 1) {
      return Double.NaN;
    }
    double checkpoints = markers[SPANS] - markers[0];
    long spanMs = times[SPANS] - times[0];
    if (!(checkpoints > 0) || spanMs <= 0) {
      return Double.NaN;
    }
    double median = typicalDuration(Arrays.copyOfRange(durations, 1, SPANS + 1));
    return Math.min(1, median / (spanMs / checkpoints));
  }

  /**
   * The duration a share is read at: the median of the newest completions' durations. The
   * signal book scales the share by the same number, so both must take it alike.
   *
   * @param newest up to {@value #SPANS} durations, reordered by the call; NaN when empty
   */
  public static double typicalDuration(double[] newest) {
    int n = newest.length;
    if (n == 0) {
      return Double.NaN;
    }
    Arrays.sort(newest);
    return n % 2 == 1 ? newest[n / 2] : (newest[n / 2 - 1] + newest[n / 2]) / 2;
  }
}
