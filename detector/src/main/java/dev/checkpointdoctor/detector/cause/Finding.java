package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;

/** What one rule found: a confidence built from weighted pieces of evidence. */
final class Finding {
  private final Cause cause;
  private final List<Evidence> evidence = new ArrayList<>();
  private double score;
  private Double hoursToTimeout;

  Finding(Cause cause) {
    this.cause = cause;
  }

  Cause cause() {
    return cause;
  }

  /** Adds weight to the cause with the observation that earned it. */
  Finding support(double weight, Signal signal, String scope, double observed, double expected,
      String sentence) {
    score += weight;
    evidence.add(new Evidence(signal.id(), scope, observed, expected, sentence));
    return this;
  }

  /** Weakens the cause (factor in (0, 1)) because of evidence that points elsewhere. */
  Finding against(double factor, Signal signal, String scope, double observed, double expected,
      String sentence) {
    score *= factor;
    evidence.add(new Evidence(signal.id(), scope, observed, expected, sentence));
    return this;
  }

  Finding forecast(double hours) {
    this.hoursToTimeout = hours;
    return this;
  }

  double confidence() {
    return Math.max(0, Math.min(1, score));
  }

  Double hoursToTimeout() {
    return hoursToTimeout;
  }

  List<Evidence> evidence() {
    return evidence;
  }

  CauseHypothesis hypothesis() {
    return new CauseHypothesis(cause.id(), confidence(), evidence, cause.remedy(),
        cause.docsUrl());
  }
}
