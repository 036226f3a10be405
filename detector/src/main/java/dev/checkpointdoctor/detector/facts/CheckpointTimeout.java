package dev.checkpointdoctor.detector.facts;

import java.time.Duration;

/**
 * The checkpoint timeout forecasts are made against: the job's own when its JobManager reported
 * it, else the configured default ({@code --checkpoint-timeout}).
 *
 * @param source {@value #FLINK_REST} or {@value #DEFAULT}
 */
public record CheckpointTimeout(long ms, String source) {
  public static final String FLINK_REST = "flink-rest";
  public static final String DEFAULT = "default";

  public static CheckpointTimeout of(JobFacts facts, Duration fallback) {
    if (facts != null && facts.config().timeoutMs() > 0) {
      return new CheckpointTimeout(facts.config().timeoutMs(), FLINK_REST);
    }
    return new CheckpointTimeout(fallback.toMillis(), DEFAULT);
  }
}
