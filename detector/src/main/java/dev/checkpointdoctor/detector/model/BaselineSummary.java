package dev.checkpointdoctor.detector.model;

/**
 * The learned normal of one (job, signal, scope), as the API shows it.
 *
 * @param state {@code learning} until enough observations, then {@code ready}
 * @param lower the band's lower edge, never below zero for a signal that cannot be negative
 * @param join how a node or container scope was tied to the job, or null for Flink's own series
 * @param historySinceMs event time of the first observation this baseline learned from history
 *     read at start-up (Prometheus' query API), or {@link Long#MIN_VALUE} when it learned only
 *     from live samples
 */
public record BaselineSummary(
    String job,
    Signal signal,
    String scope,
    String state,
    double expected,
    double lower,
    double upper,
    int observations,
    long lastTimestampMs,
    double lastObserved,
    String join,
    long historySinceMs) {

  /** A band below zero of a signal that cannot be negative is shown clipped at zero. */
  public BaselineSummary {
    lower = signal.shownLower(lower);
  }

  /** A baseline that learned from live samples only. */
  public BaselineSummary(String job, Signal signal, String scope, String state, double expected,
      double lower, double upper, int observations, long lastTimestampMs, double lastObserved,
      String join) {
    this(job, signal, scope, state, expected, lower, upper, observations, lastTimestampMs,
        lastObserved, join, Long.MIN_VALUE);
  }

  /** Whether some of what this baseline learned came from history. */
  public boolean learnedFromHistory() {
    return historySinceMs != Long.MIN_VALUE;
  }
}
