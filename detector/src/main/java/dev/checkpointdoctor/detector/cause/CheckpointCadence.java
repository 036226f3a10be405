package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * How often checkpoints complete, read from the times of completed-checkpoint observations
 * (scrape resolution). Before the trouble the spacing is the configured interval (while
 * checkpoints are shorter than it); during it, the spacing shows checkpoints running back to
 * back, or a new, shorter interval after a redeploy.
 *
 * @param intervalMs typical spacing before the trouble, or NaN
 * @param recentSpacingMs typical spacing in the recent slice, or NaN
 * @param recentDurationMs median duration in the recent slice, or NaN
 * @param shorter the spacings since the trouble against those before it (lower = shorter), or
 *     null when either side has too few
 * @param changedAtMs the first completion at the recent cadence, or -1
 */
record CheckpointCadence(double intervalMs, double recentSpacingMs, double recentDurationMs,
    RankTests.MannWhitney shorter, long changedAtMs) {

  static final int STEP = 4;
  /** Spacings needed on each side to compare cadences. */
  static final int MIN_GAPS = 4;

  static CheckpointCadence of(JobEvidence job) {
    return job.memo("cadence", () -> measure(job));
  }

  private static CheckpointCadence measure(JobEvidence job) {
    SeriesHistory d = job.jobSeries(Signal.CHECKPOINT_DURATION);
    if (d == null || d.size() < STEP + 3) {
      return new CheckpointCadence(Double.NaN, Double.NaN, Double.NaN, null, -1);
    }
    double[] before = new double[d.size()];
    double[] recent = new double[d.size()];
    int nb = 0;
    int nr = 0;
    // The recent spacing needs a few spans of STEP completions even when the recent slice is
    // younger than that (a 2-minute interval gives one completion per slice).
    long cut = Math.min(job.recentFrom(), d.timeMs(d.size() - 1 - (STEP + 2)));
    // Spacing over STEP completions, divided by STEP: the scrape interval quantises single gaps
    // (a 35 s interval scraped every 15 s shows as 30 s and 45 s).
    for (int i = STEP; i < d.size(); i++) {
      double gap = (d.timeMs(i) - d.timeMs(i - STEP)) / (double) STEP;
      if (d.timeMs(i - STEP) >= cut) {
        recent[nr++] = gap;
      } else if (d.timeMs(i) < cut) {
        before[nb++] = gap;
      }
    }
    double interval = RestEvidence.intervalMs(job,
        nb >= 3 ? Stats.median(java.util.Arrays.copyOf(before, nb)) : Double.NaN);
    double spacing = nr >= 1 ? Stats.median(java.util.Arrays.copyOf(recent, nr)) : Double.NaN;
    double dur = job.recentMedian(d);
    // single gaps either side of the trouble's onset, for the test of a changed cadence
    double[] gb = new double[d.size()];
    double[] gr = new double[d.size()];
    int b = 0;
    int r = 0;
    long changed = -1;
    for (int i = 1; i < d.size(); i++) {
      double gap = d.timeMs(i) - d.timeMs(i - 1);
      if (d.timeMs(i - 1) >= job.earlierTo()) {
        if (changed < 0) {
          changed = d.timeMs(i - 1);
        }
        gr[r++] = gap;
      } else if (d.timeMs(i) < job.earlierTo()) {
        gb[b++] = gap;
      }
    }
    RankTests.MannWhitney mw = b >= MIN_GAPS && r >= MIN_GAPS
        ? RankTests.mannWhitney(java.util.Arrays.copyOf(gb, b), java.util.Arrays.copyOf(gr, r), 1)
        : null;
    return new CheckpointCadence(interval, spacing, dur, mw, changed);
  }

  /** The checkpoints complete clearly more often than before the trouble. */
  boolean shortened() {
    return shorter != null && shorter.pLess() <= Change.ALPHA
        && shorter.superiority() <= 1 - Change.MIN_SUPERIORITY;
  }
}
