package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;

/**
 * What one rule found: a confidence built from weighted pieces of evidence, and when the cause's
 * own sign left its normal (its onset), which the ranker orders causes and consequences by.
 */
final class Finding {
  private final Cause cause;
  private final List<Evidence> evidence = new ArrayList<>();
  private double score;
  private Double hoursToTimeout;
  /** Event time the cause's own sign left its normal; -1 when unknown. */
  private long onsetMs = -1;
  private String onsetWhat;
  /** Resolution of {@link #onsetMs} (the spacing of the series it came from). */
  private double onsetResolutionMs;
  /** Signal and scope of the first (main) supporting evidence. */
  private Evidence main;
  /** Why the cause cannot be judged yet though its signs have begun, or null. */
  private String pending;
  /** Supporting evidence that is the cause's own sign (not a shared consequence). */
  private final List<Evidence> own = new ArrayList<>();

  Finding(Cause cause) {
    this.cause = cause;
  }

  Cause cause() {
    return cause;
  }

  /** Adds weight to the cause with the observation that earned it (no comparison claimed). */
  Finding support(double weight, Signal signal, String scope, double observed, double expected,
      String sentence) {
    return add(weight, new Evidence(signal.id(), scope, observed, expected, sentence));
  }

  /** Adds weight with a claim the numbers carry: see {@link Evidence}'s {@code relation}. */
  Finding support(double weight, Signal signal, String scope, double observed, double expected,
      String relation, double confidence, String sentence) {
    return add(weight, new Evidence(signal.id(), scope, observed, expected, relation, Double.NaN,
        confidence, -1, sentence));
  }

  /** Adds weight for a change decided by a test: higher or lower than before. */
  Finding support(double weight, Change c, boolean up, String sentence) {
    return add(weight, new Evidence(c.signal().id(), c.scope(), c.now(), c.before(),
        up ? Evidence.HIGHER : Evidence.LOWER, Double.NaN,
        up ? c.confidenceHigher() : c.confidenceLower(), -1, sentence));
  }

  /** Adds weight for a flat level: {@code level} ± {@code halfWidth}, against {@code before}. */
  Finding supportFlat(double weight, Signal signal, String scope, double level, double halfWidth,
      double before, double confidence, long sinceMs, String sentence) {
    return add(weight, new Evidence(signal.id(), scope, level, before, Evidence.FLAT, halfWidth,
        confidence, sinceMs, sentence));
  }

  Finding add(double weight, Evidence e) {
    score += weight;
    if (main == null && weight > 0) {
      main = e;
    }
    if (weight > 0) {
      own.add(e);
    }
    evidence.add(e);
    return this;
  }

  /**
   * Adds weight for a consequence every cause shares (checkpoints slower): it supports the
   * cause but says nothing about when the cause began.
   */
  Finding consequence(double weight, Evidence e) {
    score += weight;
    evidence.add(e);
    return this;
  }

  /** The supporting evidence that is this cause's own sign, main first. */
  List<Evidence> own() {
    return own;
  }

  /** Weakens the cause (factor in (0, 1)) because of evidence that points elsewhere. */
  Finding against(double factor, Signal signal, String scope, double observed, double expected,
      String sentence) {
    return against(factor, new Evidence(signal.id(), scope, observed, expected, sentence));
  }

  Finding against(double factor, Evidence e) {
    score *= factor;
    evidence.add(e);
    return this;
  }

  /** Caps the confidence (a consequence of a cause that ranks above it), saying why. */
  Finding capAt(double cap, Evidence e) {
    score = Math.min(score, cap);
    evidence.add(e);
    return this;
  }

  /** Evidence that carries no weight: how this cause relates to another. */
  Finding note(Evidence e) {
    evidence.add(e);
    return this;
  }

  Finding forecast(double hours) {
    this.hoursToTimeout = hours;
    return this;
  }

  /** Sets when the cause's own sign left its normal, and what that sign is. */
  Finding onset(long ms, double resolutionMs, String what) {
    this.onsetMs = ms;
    this.onsetResolutionMs = resolutionMs;
    this.onsetWhat = what;
    return this;
  }

  /**
   * Marks the cause as begun but not yet judgeable (too few points since its onset): its
   * consequences wait for it instead of being named first.
   */
  Finding pending(String why) {
    this.pending = why;
    return this;
  }

  String pendingWhy() {
    return pending;
  }

  long onsetMs() {
    return onsetMs;
  }

  double onsetResolutionMs() {
    return onsetResolutionMs;
  }

  String onsetWhat() {
    return onsetWhat;
  }

  Evidence main() {
    return main;
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
