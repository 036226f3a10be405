package dev.checkpointdoctor.api.alerting;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.time.Duration;

/**
 * Which diagnoses become alerts and how urgent they are. A diagnosis whose cause is unknown stays
 * in the API and the UI, but pages nobody while checkpoints still complete: an anomaly no rule
 * explains is a question, not an incident, and alerting on it teaches operators to mute the tool.
 *
 * @param alertUnknown alert unknown causes even while checkpoints complete
 * @param forecastHorizon a forecast of the checkpoint duration reaching the timeout within this
 *     long makes the alert critical
 */
public record AlertPolicy(boolean alertUnknown, Duration forecastHorizon) {
  public static final String UNKNOWN_CAUSE = "unknown";

  public AlertPolicy {
    if (forecastHorizon == null || forecastHorizon.isNegative() || forecastHorizon.isZero()) {
      throw new IllegalArgumentException("forecastHorizon must be > 0");
    }
  }

  /** Unknown causes not alerted, forecasts inside a day critical: the service's defaults. */
  public static AlertPolicy defaults() {
    return new AlertPolicy(false, Duration.ofHours(24));
  }

  /** Whether the diagnosis is announced to Alertmanager. */
  public boolean alerts(Diagnosis d) {
    return alertUnknown || d.checkpointsFailing() || !UNKNOWN_CAUSE.equals(d.cause());
  }

  public Severity severity(Diagnosis d) {
    return Severity.of(d, forecastHorizon);
  }
}
