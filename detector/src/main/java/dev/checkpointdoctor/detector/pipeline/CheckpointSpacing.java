package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import java.util.Arrays;

/**
 * The spacing checkpoints are taken at, read from the times of the job's completed checkpoints:
 * the lower quartile of the newest gaps between completions. While checkpoints are shorter than
 * the configured interval the gaps are that interval (give or take a scrape); checkpoints that
 * run back to back lengthen them, but only the longer three quarters of the newest gaps, so the
 * interval is still read during the first part of such trouble.
 */
final class CheckpointSpacing {
  /** Newest gaps read: half an hour at 30 s intervals, over three hours at 3 min. */
  static final int GAPS = 64;
  /** Gaps needed before a spacing is read at all. */
  static final int MIN_GAPS = 8;

  private CheckpointSpacing() {}

  /**
   * The longest checkpoint the job sustains at its interval, in milliseconds (the unit of
   * checkpoint durations), or +Inf while fewer than {@link #MIN_GAPS} gaps are known.
   */
  static double of(SeriesHistory completions) {
    int n = completions.size();
    int gaps = Math.min(GAPS, n - 1);
    if (gaps < MIN_GAPS) {
      return Double.POSITIVE_INFINITY;
    }
    double[] g = new double[gaps];
    for (int i = 0; i < gaps; i++) {
      g[i] = completions.timeMs(n - 1 - i) - completions.timeMs(n - 2 - i);
    }
    Arrays.sort(g);
    return g[gaps / 4];
  }
}
