package dev.checkpointdoctor.detector.model;

/**
 * The learned normal of one (job, signal, scope), as the API shows it.
 *
 * @param state {@code learning} until enough observations, then {@code ready}
 * @param lower the band's lower edge, never below zero for a signal that cannot be negative
 * @param join how a node or container scope was tied to the job, or null for Flink's own series
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
    String join) {

  /** A band below zero of a signal that cannot be negative is shown clipped at zero. */
  public BaselineSummary {
    lower = signal.shownLower(lower);
  }
}
