package dev.checkpointdoctor.eval.nab;

/**
 * One NAB scoring profile (a row of {@code config/profiles.json}); the true-negative weight is
 * left out because NAB never uses it.
 *
 * @param tp reward for the earliest detection in a window (A_TP)
 * @param fp cost of a detection outside every window (A_FP, positive)
 * @param fn cost of a window without detection (A_FN, positive)
 */
public record NabProfile(String name, double tp, double fp, double fn) {

  public NabProfile {
    if (!(tp > 0 && fp >= 0 && fn >= 0)) {
      throw new IllegalArgumentException("profile " + name + " needs tp > 0, fp >= 0, fn >= 0");
    }
  }
}
