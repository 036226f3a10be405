package dev.checkpointdoctor.detector.facts;

/**
 * What Flink's JobManager REST API said about one job, as plain values: the facts its Prometheus
 * metrics do not carry. Gathered at the edge (the service polls the JobManager) and read by the
 * cause ranker at diagnosis time; the detector never fetches anything itself.
 *
 * @param job the job as the detector knows it (the metrics' {@code job_name})
 * @param jobId Flink's job id
 * @param source where the facts came from (the JobManager's REST URL)
 * @param observedAtMs when the JobManager was last read (wall clock of the poller)
 * @param config the job's checkpoint configuration
 * @param checkpoint the latest failed, unusually slow or long-running checkpoint with its
 *     per-subtask timings, or null when every recent checkpoint was unremarkable
 */
public record JobFacts(String job, String jobId, String source, long observedAtMs,
    CheckpointConfig config, CheckpointDetail checkpoint) {

  public JobFacts {
    if (job == null || config == null) {
      throw new IllegalArgumentException("job and config are required");
    }
  }
}
