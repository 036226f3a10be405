package dev.checkpointdoctor.api.alerting;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.time.Duration;
import java.util.Locale;

/**
 * The alert's {@code severity} label. Critical means someone should look now: checkpoints already
 * fail or expire, or the forecast says the checkpoint duration reaches the timeout within the
 * forecast horizon ({@code --forecast-horizon}, a day by default: a job that will stop
 * checkpointing tomorrow needs someone today). Everything else is a warning (work queue).
 */
public enum Severity {
  WARNING,
  CRITICAL;

  public static Severity of(Diagnosis d, Duration forecastHorizon) {
    if (d.checkpointsFailing()) {
      return CRITICAL;
    }
    Double hours = d.hoursToTimeout();
    double horizonHours = forecastHorizon.toMillis() / 3_600_000.0;
    return hours != null && hours <= horizonHours ? CRITICAL : WARNING;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
