package dev.checkpointdoctor.detector.model;

import java.util.List;

/**
 * A persistent departure of one signal from its baseline. Values describe the latest out-of-band
 * observation while open, and the last one before resolution once resolved.
 *
 * @param startedAtMs event time of the first observation of the out-of-band run
 * @param endedAtMs event time of the observation that resolved it, or -1 while open
 */
public record Anomaly(
    long id,
    String job,
    Signal signal,
    String scope,
    boolean open,
    long startedAtMs,
    long endedAtMs,
    double observed,
    double expected,
    double lower,
    double upper,
    double score,
    List<CauseHypothesis> causes) {

  public Anomaly {
    causes = causes == null ? List.of() : List.copyOf(causes);
    lower = signal.shownLower(lower);
    if (open && endedAtMs != -1) {
      throw new IllegalArgumentException("an open anomaly has no end");
    }
    if (!open && endedAtMs < startedAtMs) {
      throw new IllegalArgumentException("an anomaly cannot end before it starts");
    }
  }

  public String state() {
    return open ? "open" : "resolved";
  }

  public Anomaly withLatest(double observed, double expected, double lower, double upper,
      double score) {
    return new Anomaly(id, job, signal, scope, open, startedAtMs, endedAtMs, observed, expected,
        lower, upper, score, causes);
  }

  public Anomaly resolvedAt(long endedAtMs) {
    return new Anomaly(id, job, signal, scope, false, startedAtMs, endedAtMs, observed, expected,
        lower, upper, score, causes);
  }

  public Anomaly withCauses(List<CauseHypothesis> ranked) {
    return new Anomaly(id, job, signal, scope, open, startedAtMs, endedAtMs, observed, expected,
        lower, upper, score, ranked);
  }
}
