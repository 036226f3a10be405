package dev.checkpointdoctor.detector.facts;

import java.util.List;

/**
 * One checkpoint and how each subtask fared in it.
 *
 * @param status {@code completed}, {@code failed} or {@code in_progress}
 * @param why why this checkpoint was looked at: {@code failed}, {@code slow} or {@code
 *     long_running}
 * @param failureMs when it failed, or -1
 * @param failureMessage Flink's failure message ("Checkpoint expired before completing."), or null
 * @param endToEndMs trigger to last acknowledgement (failure, for a failed one; so far, for one in
 *     progress)
 * @param subtasks every subtask of every vertex the JobManager detailed, acknowledged or not
 */
public record CheckpointDetail(long id, String status, String why, long triggerMs,
    long failureMs, String failureMessage, long endToEndMs, int numSubtasks,
    int numAcknowledged, List<SubtaskTiming> subtasks) {

  public CheckpointDetail {
    subtasks = subtasks == null ? List.of() : List.copyOf(subtasks);
  }

  public boolean failed() {
    return "failed".equals(status);
  }

  public boolean inProgress() {
    return "in_progress".equals(status);
  }
}
