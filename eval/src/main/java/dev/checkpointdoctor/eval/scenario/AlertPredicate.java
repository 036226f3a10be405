package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.Diagnosis;

/**
 * Which diagnoses the evaluation counts as alerts: a diagnosis naming a known cause, or
 * {@code unknown} while checkpoints fail. This is the service's default alert policy
 * ({@code AlertPolicy} in the api module: {@code unknown} is alerted only when checkpoints fail,
 * or with {@code --alert-unknown}); keep the two in step.
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
