package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The fault jobs' scrape, exporter scrape, interval, parallelism, noise, load-rise and
 * aligned-timeout knobs change those fault jobs only.
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

  @Test
  void faultJobsTakeTheLoadRiseOthersStayPut() {
    eachFaultJob(new FaultStress(1, 0, 0, 0, 0, 0, HealthStress.Noise.GAUSSIAN, 1.5), (b, s) -> {
      assertThat(b.traits().loadRise()).isEqualTo(1);
      assertThat(s.traits().loadRise()).isEqualTo(1.5);
      assertThat(s.traits().withLoadRise(1)).isEqualTo(b.traits());
      assertThat(s.severity()).isEqualTo(b.severity());
      assertThat(s.scrapeSeconds()).isEqualTo(b.scrapeSeconds());
    });
  }

  /**
   * The rise reaches the job's input: the keyed task's records in per second are the default
   * draw's until an hour before the onset, and 1.5 times them once the rise is complete (a slow
   * store, which leaves the job's throughput alone).
   */
  @Test
  void theInputClimbsAroundTheOnsetAndStays() {
    String job = "checkpoint_storage_slow_a";
    GeneratedScenario base = faultJob(FaultStress.NONE, job);
    GeneratedScenario risen = faultJob(
        new FaultStress(1, 0, 0, 0, 0, 0, HealthStress.Noise.GAUSSIAN, 1.5), job);
    long onset = base.truth().faultStartMs();
    List<double[]> a = recordsIn(base);
    List<double[]> b = recordsIn(risen);
    assertThat(b).hasSameSizeAs(a);
    List<Double> early = new ArrayList<>();
    List<Double> late = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      long t = (long) a.get(i)[0];
      if (a.get(i)[1] < 50) {
        continue; // rounded to 0.1: ratios of small values are all rounding
      }
      double ratio = b.get(i)[1] / a.get(i)[1];
      if (t < onset - ProductionTraits.RISE_BEFORE_MS) {
        early.add(ratio);
      } else if (t > onset + ProductionTraits.RISE_AFTER_MS) {
        late.add(ratio);
      }
    }
    assertThat(early).isNotEmpty().allSatisfy(r -> assertThat(r).isEqualTo(1.0));
    assertThat(late).hasSizeGreaterThan(100);
    assertThat(median(late)).isBetween(1.45, 1.55);
  }

  private static final FaultStress ALIGNED_TIMEOUT = new FaultStress(1, 0, 0, 0, 0, 0,
      HealthStress.Noise.GAUSSIAN, 1, true);

  @Test
  void unalignedFaultJobsTakeTheAlignedTimeoutOthersStayPut() {
    eachFaultJob(ALIGNED_TIMEOUT, (b, s) -> {
      assertThat(b.traits().alignedTimeout()).isFalse();
      boolean unaligned = b.fault() == ScenarioSpec.Fault.UNALIGNED_CHECKPOINT_INFLATION;
      assertThat(s.traits().alignedTimeout()).isEqualTo(unaligned);
      assertThat(s.severity()).isEqualTo(b.severity());
      assertThat(s.scrapeSeconds()).isEqualTo(b.scrapeSeconds());
    });
  }

  /**
   * Started aligned, the checkpoints persist no in-flight data until the back-pressure the fault
   * brings holds the barriers up, and then persist it as the default draw does.
   */
  @Test
  void anAlignedTimeoutPersistsNothingUntilTheBackPressure() {
    String job = "unaligned_checkpoint_inflation_a";
    GeneratedScenario base = faultJob(FaultStress.NONE, job);
    GeneratedScenario timed = faultJob(ALIGNED_TIMEOUT, job);
    long onset = base.truth().faultStartMs();
    List<double[]> a = persisted(base);
    List<double[]> b = persisted(timed);
    assertThat(b).hasSameSizeAs(a);
    int before = 0;
    int late = 0;
    for (int i = 0; i < a.size(); i++) {
      long t = (long) a.get(i)[0];
      if (a.get(i)[1] < 0) {
        continue; // no checkpoint completed yet since the start
      }
      if (t < onset) {
        before++;
        assertThat(a.get(i)[1]).isGreaterThan(0);
        assertThat(b.get(i)[1]).isZero();
      } else if (t > onset + 30 * 60_000L) {
        late++;
        assertThat(b.get(i)[1]).isGreaterThan(0);
      }
    }
    assertThat(before).isGreaterThan(100);
    assertThat(late).isGreaterThan(10);
  }

  /**
   * With the in-flight data wandering with the buffers' fill, one checkpoint's amount before the
   * fault predicts the next (lag-1 autocorrelation of the logs of the distinct values well
   * above what the independent draw gives).
   */
  @Test
  void wanderingInFlightDataIsCorrelatedFromOneCheckpointToTheNext() {
    String job = "unaligned_checkpoint_inflation_a";
    FaultStress wandering = new FaultStress(1, 0, 0, 0, 0, 0, HealthStress.Noise.GAUSSIAN, 1,
        false, true);
    assertThat(lag1OfCheckpointsBeforeTheFault(faultJob(FaultStress.NONE, job))).isLessThan(0.5);
    assertThat(lag1OfCheckpointsBeforeTheFault(faultJob(wandering, job))).isGreaterThan(0.7);
  }

  private static double lag1OfCheckpointsBeforeTheFault(GeneratedScenario s) {
    long onset = s.truth().faultStartMs();
    List<Double> logs = new ArrayList<>();
    double last = Double.NaN;
    for (double[] p : persisted(s)) {
      // the gauge repeats the last completed checkpoint's value on every scrape
      if (p[0] < onset && p[1] > 0 && p[1] != last) {
        logs.add(Math.log(p[1]));
        last = p[1];
      }
    }
    assertThat(logs).hasSizeGreaterThan(30);
    double mean = logs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double num = 0;
    double den = 0;
    for (int i = 0; i < logs.size(); i++) {
      double d = logs.get(i) - mean;
      den += d * d;
      if (i > 0) {
        num += d * (logs.get(i - 1) - mean);
      }
    }
    return num / den;
  }

  /** (event time, value) of every lastCheckpointPersistedData sample, in play order. */
  private static List<double[]> persisted(GeneratedScenario s) {
    return samples(s, labels -> labels.get("__name__").endsWith("lastCheckpointPersistedData"));
  }

  private static GeneratedScenario faultJob(FaultStress stress, String name) {
    return new Family1(stress).scenarios(SEED).stream()
        .filter(s -> s.truth().name().equals(name)).findFirst().orElseThrow();
  }

  /** (event time, value) of every keyed-task numRecordsInPerSecond sample, in play order. */
  private static List<double[]> recordsIn(GeneratedScenario s) {
    return samples(s, labels -> labels.get("__name__").endsWith("task_numRecordsInPerSecond")
        && ClusterTopology.TASKS[ClusterTopology.KEYED].equals(labels.get("task_name")));
  }

  /** (event time, value) of every sample whose labels {@code pick} accepts, in play order. */
  private static List<double[]> samples(GeneratedScenario s,
      Predicate<Labels> pick) {
    List<double[]> out = new ArrayList<>();
    s.play((labels, ts, value) -> {
      if (pick.test(labels)) {
        out.add(new double[] {ts, value});
      }
    });
    return out;
  }

  private static double median(List<Double> v) {
    List<Double> sorted = new ArrayList<>(v);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
