package dev.checkpointdoctor.detector.model;

import java.util.List;

/**
 * One ranked explanation of a job's anomaly.
 *
 * @param cause a cause id such as {@code disk_throttling}; the API and alert labels use it as is
 * @param confidence in [0, 1]
 */
public record CauseHypothesis(
    String cause, double confidence, List<Evidence> evidence, String remedy, String docsUrl) {

  public CauseHypothesis {
    if (!(confidence >= 0 && confidence <= 1)) {
      throw new IllegalArgumentException("confidence must be in [0,1]: " + confidence);
    }
    evidence = evidence == null ? List.of() : List.copyOf(evidence);
  }

  /** What was seen, where, against what was expected, in one plain sentence. */
  public record Evidence(
      String signal, String scope, double observed, double expected, String sentence) {}
}
