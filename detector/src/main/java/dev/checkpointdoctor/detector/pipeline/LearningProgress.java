package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.baseline.BaselineView;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.Arrays;
import java.util.List;

/**
 * How far one job has learned, gathered baseline by baseline: how many baselines are ready, and
 * whether and when its checkpoint baselines will be. Those gate the job's status: node, RocksDB or
 * JVM baselines fill within minutes, while a checkpoint baseline needs {@code --min-observations}
 * completed checkpoints (20 at a 5 min interval: 1 h 40 min), and until then the job's most
 * important signals cannot flag anything.
 */
final class LearningProgress {
  /** Gaps between recent observations used for the cadence; the newest ones say the most. */
  static final int CADENCE_GAPS = 10;

  private final int minObservations;
  private int total;
  private int ready;
  private boolean anyCheckpointBaseline;
  private boolean checkpointsReady = true;
  private int checkpointsToGo;
  private long readyAtMs = Long.MIN_VALUE;
  private boolean readyAtUnknown;

  LearningProgress(int minObservations) {
    this.minObservations = minObservations;
  }

  /**
   * The job-scope checkpoint signals: the ones whose readiness makes the job "ok". Not the busy
   * share: read from a run's fifth completion on, it would keep a job "learning" four
   * checkpoints longer than the durations it is made of.
   */
  static boolean gates(Signal signal, String scope) {
    return "job".equals(scope) && signal.id().startsWith("checkpoint_")
        && signal != Signal.CHECKPOINT_BUSY_SHARE;
  }

  void add(Signal signal, String scope, BaselineView view, SeriesHistory history) {
    total++;
    boolean isReady = BaselineView.READY.equals(view.state());
    if (isReady) {
      ready++;
    }
    if (!gates(signal, scope)) {
      return;
    }
    anyCheckpointBaseline = true;
    if (isReady) {
      return;
    }
    checkpointsReady = false;
    int toGo = Math.max(1, minObservations - view.observations());
    checkpointsToGo = Math.max(checkpointsToGo, toGo);
    long cadence = cadenceMs(history);
    if (cadence <= 0 || view.lastTimestampMs() == Long.MIN_VALUE) {
      readyAtUnknown = true;
    } else {
      readyAtMs = Math.max(readyAtMs, view.lastTimestampMs() + toGo * cadence);
    }
  }

  JobSummary summary(String job, List<String> signals, int openAnomalies, long lastSeenMs) {
    boolean learned = anyCheckpointBaseline ? checkpointsReady : ready > 0;
    String status = openAnomalies > 0 ? "anomalous" : learned ? "ok" : "learning";
    long at = checkpointsReady || readyAtUnknown ? Long.MIN_VALUE : readyAtMs;
    return new JobSummary(job, status, signals, openAnomalies, lastSeenMs, ready, total,
        checkpointsReady ? 0 : checkpointsToGo, at);
  }

  /** Median gap between the newest observations, or 0 with fewer than two. */
  static long cadenceMs(SeriesHistory h) {
    if (h == null || h.size() < 2) {
      return 0;
    }
    int n = Math.min(CADENCE_GAPS, h.size() - 1);
    long[] gaps = new long[n];
    for (int k = 0; k < n; k++) {
      int i = h.size() - 1 - k;
      gaps[k] = h.timeMs(i) - h.timeMs(i - 1);
    }
    Arrays.sort(gaps);
    return gaps[n / 2];
  }
}
