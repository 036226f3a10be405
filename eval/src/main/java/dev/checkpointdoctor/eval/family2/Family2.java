package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.scenario.GeneratedScenario;
import dev.checkpointdoctor.eval.scenario.ScenarioFamily;
import java.util.List;

/**
 * Simulator family 2: an independent model of Flink jobs, their machines and their faults,
 * written from the outside (Flink's, RocksDB's, the kernel's and AWS's documented behaviour)
 * and never from the cause rules, so that it can validate rules tuned elsewhere. See
 * docs/FAMILY2.md.
 *
 * <p>Per seed: four faulty jobs for each of the ten causes, four jobs with two faults at once,
 * two jobs whose root cause lies in a source the service cannot join on their layout, and
 * eleven healthy controls.
 */
public final class Family2 implements ScenarioFamily {
  public static final String NAME = "family2";

  public Family2() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<GeneratedScenario> scenarios(long seed) {
    return List.copyOf(CorpusPlanner.corpus(seed));
  }
}
