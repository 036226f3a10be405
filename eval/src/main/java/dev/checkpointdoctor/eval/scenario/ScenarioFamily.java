package dev.checkpointdoctor.eval.scenario;

import java.util.List;

/**
 * A simulator family: one way of modelling Flink jobs, their hosts and their faults, from which
 * any number of corpora can be drawn by seed. Rules are tuned on some families and seeds and
 * judged on others (docs/ACCURACY.md says which).
 */
public interface ScenarioFamily {
  /** Short name used on the command line and in reports, e.g. {@code family2}. */
  String name();

  /** The corpus of one seed: every scenario of the family, drawn from {@code seed}. */
  List<GeneratedScenario> scenarios(long seed);

  /**
   * Whether the family is for validation only: nothing may be tuned on any of its seeds, so its
   * reports hide per-job lines (unless asked), call every seed "validation" and refuse to pick
   * jobs by name.
   */
  default boolean validationOnly() {
    return false;
  }
}
