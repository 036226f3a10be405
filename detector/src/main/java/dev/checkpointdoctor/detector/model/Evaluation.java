package dev.checkpointdoctor.detector.model;

/**
 * One observation judged against its baseline as it was before the observation: what history
 * stores and charts draw (the band, the value, the score).
 *
 * @param ready whether the baseline had enough observations to judge
 * @param outside whether the value was out of band in the signal's bad direction
 */
public record Evaluation(
    String job,
    Signal signal,
    String scope,
    long timestampMs,
    double observed,
    double expected,
    double lower,
    double upper,
    double score,
    boolean ready,
    boolean outside) {

  /** A band below zero of a signal that cannot be negative is shown clipped at zero. */
  public Evaluation {
    lower = signal.shownLower(lower);
  }
}
