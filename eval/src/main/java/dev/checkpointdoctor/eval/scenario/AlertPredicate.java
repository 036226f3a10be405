package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.Diagnosis;

/**
 * Which diagnoses the evaluation counts as alerts: a diagnosis naming a known cause, or
 * {@code unknown} while checkpoints fail. The one place to change when the service's alerting
 * changes (issue 15 item 2: {@code unknown} alerted only when checkpoints fail, or with
 * {@code --alert-unknown}). Note: the service at the time of writing alerts every diagnosis,
 * {@code unknown} included; the reports therefore also count diagnoses.
 */
public final class AlertPredicate {
  private AlertPredicate() {}

  public static boolean alerts(Diagnosis d) {
    if (d == null) {
      return false;
    }
    return !d.cause().equals(UnknownCauseDiagnoser.UNKNOWN) || d.checkpointsFailing();
  }
}
