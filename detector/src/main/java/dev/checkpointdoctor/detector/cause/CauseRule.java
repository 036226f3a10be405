package dev.checkpointdoctor.detector.cause;

/** Scores one cause for one job from the job's own evidence. */
interface CauseRule {
  Cause cause();

  /** A finding with a confidence in [0, 1]; zero when nothing points at this cause. */
  Finding assess(JobEvidence job);
}
