package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * How often checkpoints complete, read from the times of completed-checkpoint observations
 * (scrape resolution). Before the trouble the spacing is the configured interval (while
 * checkpoints are shorter than it); during it, the spacing shows checkpoints running back to back.
 *
 * @param intervalMs typical spacing before the trouble, or NaN
 * @param recentSpacingMs typical spacing in the recent slice, or NaN
 * @param recentDurationMs median duration in the recent slice, or NaN
 */
record CheckpointCadence(double intervalMs, double recentSpacingMs, double recentDurationMs) {

  static CheckpointCadence of(JobEvidence job) {
    SeriesHistory d = job.jobSeries(Signal.CHECKPOINT_DURATION);
    if (d == null || d.size() < 3) {
      return new CheckpointCadence(Double.NaN, Double.NaN, Double.NaN);
    }
    double[] before = new double[d.size()];
    double[] recent = new double[d.size()];
    int nb = 0;
    int nr = 0;
    for (int i = 1; i < d.size(); i++) {
      double gap = d.timeMs(i) - d.timeMs(i - 1);
      if (d.timeMs(i - 1) >= job.recentFrom()) {
        recent[nr++] = gap;
      } else if (d.timeMs(i) < job.recentFrom()) {
        before[nb++] = gap;
      }
    }
    double interval = nb >= 3 ? Stats.quantile(java.util.Arrays.copyOf(before, nb), 0.25)
        : Double.NaN;
    double spacing = nr >= 2 ? Stats.median(java.util.Arrays.copyOf(recent, nr)) : Double.NaN;
    double dur = Stats.median(job.recent(d));
    return new CheckpointCadence(interval, spacing, dur);
  }
}
