package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Evaluation;

/**
 * What the detector tells the edges (alerts, history, UI). Called on the detector thread while it
 * holds its lock: implementations must only hand the event over (queue it) and return at once.
 */
public interface DetectorListener {
  /** Every observation, judged against its baseline. */
  default void evaluated(Evaluation evaluation) {}

  default void anomalyOpened(Anomaly anomaly) {}

  default void anomalyResolved(Anomaly anomaly) {}

  /**
   * A job's diagnosis changed: opened ({@code before} null), changed cause, or closed ({@code
   * after} null).
   */
  default void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long eventTimeMs) {}
}
