package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The healthy-control knob changes the healthy controls only, and only what it names. */
class HealthStressTest {
  private static final long SEED = 4;

  @Test
  void noneDrawsTheDefaultCorpus() {
    assertThat(ProductionCatalog.all(SEED, FaultStress.NONE, HealthStress.NONE))
        .isEqualTo(ProductionCatalog.all(SEED));
  }

  @Test
  void stressedControlsTakeTheScrapeIntervalNoiseAndCycleOthersStayPut() {
    HealthStress h = new HealthStress(30, 90, HealthStress.Noise.HEAVY, HealthStress.Cycle.STEEP);
    List<ProductionCatalog.Drawn> base = ProductionCatalog.all(SEED);
    List<ProductionCatalog.Drawn> stressed = ProductionCatalog.all(SEED, FaultStress.NONE, h);
    assertThat(stressed).hasSameSizeAs(base);
    int healthy = 0;
    for (int i = 0; i < base.size(); i++) {
      ScenarioSpec b = base.get(i).spec();
      ScenarioSpec s = stressed.get(i).spec();
      if (base.get(i).kind() != ScenarioKind.HEALTHY) {
        assertThat(s).isEqualTo(b);
        continue;
      }
      healthy++;
      assertThat(s.scrapeSeconds()).isEqualTo(30);
      assertThat(s.checkpointIntervalSeconds()).isEqualTo(90);
      assertThat(s.traits().noise()).isEqualTo(HealthStress.Noise.HEAVY);
      assertThat(s.traits().cycleShape()).isEqualTo(HealthStress.Cycle.STEEP);
      assertThat(s.parallelism()).isEqualTo(b.parallelism());
      assertThat(s.noise()).isEqualTo(b.noise());
      assertThat(s.traits().dailyAmplitude()).isEqualTo(b.traits().dailyAmplitude());
    }
    assertThat(healthy).isEqualTo(7);
  }
}
