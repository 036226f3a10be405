package dev.checkpointdoctor.eval.scenario;

import java.util.Locale;

/** What a generated scenario tests, carried in its manifest shape as {@code kind}. */
public enum ScenarioKind {
  /** One of the causes, injected after hours of normal running. */
  FAULT,
  /** Slow compounding state growth: named early, with a forecast? */
  GROWTH,
  /** Nothing is wrong: no anomaly, no alert. */
  HEALTHY,
  /** A job minutes old whose checkpoints become much slower in one step: not state growth. */
  NEW_USER;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind of a manifest entry; entries without one are faults or healthy controls. */
  public static ScenarioKind of(ScenarioManifest.Entry e) {
    String k = e.shape() == null ? null : e.shape().getString("kind");
    if (k != null) {
      return valueOf(k.toUpperCase(Locale.ROOT));
    }
    return e.healthy() ? HEALTHY : FAULT;
  }
}
