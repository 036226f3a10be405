package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The fault jobs' scrape, exporter scrape, interval, parallelism and noise knobs change those
 * fault jobs only.
 */
class FaultStressTest {
  private static final long SEED = 3;

  @Test
  void noneDrawsTheDefaultCorpus() {
    assertThat(ProductionCatalog.all(SEED, new FaultStress(1, 0, 0, 0, 0, 0)))
        .isEqualTo(ProductionCatalog.all(SEED));
  }

  /**
   * Draws the seed as is and under {@code stress}: every job but the fault jobs stays as drawn,
   * and each fault job is handed to {@code check} with its default draw; returns their number.
   */
  private static int eachFaultJob(FaultStress stress,
      BiConsumer<ScenarioSpec, ScenarioSpec> check) {
    List<ProductionCatalog.Drawn> base = ProductionCatalog.all(SEED);
    List<ProductionCatalog.Drawn> stressed = ProductionCatalog.all(SEED, stress);
    assertThat(stressed).hasSameSizeAs(base);
    int faults = 0;
    for (int i = 0; i < base.size(); i++) {
      ScenarioSpec b = base.get(i).spec();
      ScenarioSpec s = stressed.get(i).spec();
      if (base.get(i).kind() != ScenarioKind.FAULT) {
        assertThat(s).isEqualTo(b);
        continue;
      }
      faults++;
      check.accept(b, s);
    }
    return faults;
  }

  @Test
  void faultJobsTakeTheScrapeIntervalAndParallelismOthersStayPut() {
    int faults = eachFaultJob(new FaultStress(1, 0, 15, 240, 3, 60), (b, s) -> {
      assertThat(s.scrapeSeconds()).isEqualTo(15);
      assertThat(s.traits().exporterEvery()).isEqualTo(4);
      assertThat(s.parallelism()).isEqualTo(3);
      assertThat(s.taskManagers()).isLessThanOrEqualTo(3);
      assertThat(s.severity()).isEqualTo(b.severity());
      assertThat(s.noise()).isEqualTo(b.noise());
      if (b.fault() == ScenarioSpec.Fault.UNALIGNED_CHECKPOINT_INFLATION) {
        assertThat(s.checkpointIntervalSeconds()).isEqualTo(240);
      }
    });
    assertThat(faults).isEqualTo(2 * ScenarioSpec.Fault.values().length);
  }

  @Test
  void faultJobsTakeTheNoiseModelOthersStayPut() {
    eachFaultJob(new FaultStress(1, 0, 0, 0, 0, 0, HealthStress.Noise.AR), (b, s) -> {
      assertThat(b.traits().noise()).isEqualTo(HealthStress.Noise.GAUSSIAN);
      assertThat(s.traits().noise()).isEqualTo(HealthStress.Noise.AR);
      assertThat(s.traits().cycleShape()).isEqualTo(b.traits().cycleShape());
      assertThat(s.severity()).isEqualTo(b.severity());
      assertThat(s.scrapeSeconds()).isEqualTo(b.scrapeSeconds());
    });
  }
}
