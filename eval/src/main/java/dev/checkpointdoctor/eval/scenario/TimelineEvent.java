package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;

/**
 * Something the detector said during a replay.
 *
 * @param atMs event time of the batch in which it happened
 * @param anomaly the anomaly opened or resolved, else null
 * @param before the previous diagnosis (diagnosis changes only; null when newly opened)
 * @param after the new diagnosis (diagnosis changes only; null when closed)
 */
public record TimelineEvent(long atMs, Kind kind, String job, Anomaly anomaly, Diagnosis before,
    Diagnosis after) {

  /** What happened. */
  public enum Kind {
    ANOMALY_OPENED, ANOMALY_RESOLVED, DIAGNOSIS_CHANGED
  }
}
