package dev.checkpointdoctor.detector.model;

import java.util.List;

/**
 * A job's current explanation of its trouble: the top-ranked cause while the job has open
 * anomalies.
 *
 * @param sinceMs event time at which this cause became the top one
 * @param signal the anomalous signal that best shows the trouble (alert label {@code signal})
 * @param checkpointsFailing whether checkpoints already fail or expire
 * @param hoursToTimeout forecast hours until the checkpoint duration crosses the timeout, or
 *     null when there is no forecast
 * @param ranked every hypothesis considered, best first (the first is this diagnosis)
 * @param missingSources sources some cause needs that are absent or unjoined: those causes
 *     could not be judged (not snapshotted: the next diagnosis finds them again)
 */
public record Diagnosis(
    String job,
    String cause,
    double confidence,
    long sinceMs,
    String signal,
    boolean checkpointsFailing,
    Double hoursToTimeout,
    List<CauseHypothesis> ranked,
    List<MissingSource> missingSources) {

  public Diagnosis {
    ranked = List.copyOf(ranked);
    missingSources = missingSources == null ? List.of() : List.copyOf(missingSources);
    if (ranked.isEmpty() || !ranked.get(0).cause().equals(cause)) {
      throw new IllegalArgumentException("the diagnosis must be the top-ranked hypothesis");
    }
  }

  /** A diagnosis that found no missing source. */
  public Diagnosis(String job, String cause, double confidence, long sinceMs, String signal,
      boolean checkpointsFailing, Double hoursToTimeout, List<CauseHypothesis> ranked) {
    this(job, cause, confidence, sinceMs, signal, checkpointsFailing, hoursToTimeout, ranked,
        List.of());
  }

  public CauseHypothesis top() {
    return ranked.get(0);
  }
}
