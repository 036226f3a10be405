package dev.checkpointdoctor.api.alerting;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.Locale;

/**
 * The alert's {@code severity} label. Critical means someone should look now: checkpoints already
 * fail or expire, or the forecast says the checkpoint duration crosses the timeout within an hour.
 * Everything else is a warning (work queue).
 */
public enum Severity {
  WARNING,
  CRITICAL;

  static final double CRITICAL_HOURS_TO_TIMEOUT = 1.0;

  public static Severity of(Diagnosis d) {
    if (d.checkpointsFailing()) {
      return CRITICAL;
    }
    Double hours = d.hoursToTimeout();
    return hours != null && hours < CRITICAL_HOURS_TO_TIMEOUT ? CRITICAL : WARNING;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
