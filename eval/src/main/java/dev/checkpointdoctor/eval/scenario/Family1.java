package dev.checkpointdoctor.eval.scenario;

import java.util.List;

/**
 * The project's own simulator at production time scale ({@link ProductionCatalog}): the family
 * the detector and the cause rules are tuned on (train seeds) and first judged on (held-out
 * seeds); see {@link EvaluationSeeds}.
 */
public final class Family1 implements ScenarioFamily {
  public static final String NAME = "family1";
  private final FaultStress stress;
  private final HealthStress health;

  public Family1() {
    this(FaultStress.NONE);
  }

  /** Family 1 with its fault jobs made milder or slower (train sensitivity studies). */
  public Family1(FaultStress stress) {
    this(stress, HealthStress.NONE);
  }

  /** Family 1 with its healthy controls scraped, checkpointed or disturbed otherwise too. */
  public Family1(FaultStress stress, HealthStress health) {
    this.stress = stress;
    this.health = health;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<GeneratedScenario> scenarios(long seed) {
    return ProductionCatalog.all(seed, stress, health).stream()
        .<GeneratedScenario>map(d -> new SimulatedScenario(d, seed)).toList();
  }
}
