package dev.checkpointdoctor.detector.model;

import java.util.List;

/**
 * @param status {@code anomalous} with an open anomaly; else {@code learning} until the job's
 *     checkpoint baselines (job-scope {@code checkpoint_*} signals) are ready (or, for a job
 *     without checkpoint signals, until any baseline is); else {@code ok}
 * @param lastSeenMs event time of the job's newest observation
 * @param baselinesReady baselines of the job that may flag anomalies
 * @param baselinesTotal baselines of the job (one per signal and scope)
 * @param checkpointsUntilReady completed checkpoints the slowest checkpoint baseline still needs
 *     (0 once they are ready)
 * @param readyAtMs estimated event time at which the checkpoint baselines are ready, from how
 *     often the job completes checkpoints; {@code Long.MIN_VALUE} when ready or not yet known
 */
public record JobSummary(
    String job,
    String status,
    List<String> signals,
    int openAnomalies,
    long lastSeenMs,
    int baselinesReady,
    int baselinesTotal,
    int checkpointsUntilReady,
    long readyAtMs) {

  public JobSummary(String job, String status, List<String> signals, int openAnomalies,
      long lastSeenMs) {
    this(job, status, signals, openAnomalies, lastSeenMs, 0, 0, 0, Long.MIN_VALUE);
  }
}
