package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Diagnosis;

/** Explains a job's open anomalies. Pure: same view, same answer. */
@FunctionalInterface
public interface Diagnoser {
  /**
   * @param sinceMs event time to report as the diagnosis' start
   * @return the diagnosis, or null when the job has nothing to explain
   */
  Diagnosis diagnose(JobView job, long sinceMs);
}
