package dev.checkpointdoctor.detector.facts;

/**
 * The port through which facts gathered outside the detector (Flink's REST API) reach a
 * diagnosis. Read at diagnosis time; implementations must answer from memory, never block.
 */
@FunctionalInterface
public interface JobFactsSource {
  /** No facts for any job: diagnoses from metrics alone. */
  JobFactsSource NONE = job -> null;

  /** What is known of the job, or null. */
  JobFacts facts(String job);
}
