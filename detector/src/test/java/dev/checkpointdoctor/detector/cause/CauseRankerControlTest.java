package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import org.junit.jupiter.api.Test;

/** Healthy controls and weak evidence: no cause is named where none is shown. */
class CauseRankerControlTest {

  /**
   * Checkpoints three times slower for three times the bytes, in one step (no trend), nothing
   * else shown: an anomaly, no cause. (Three times slower for the same bytes, with barriers on
   * time and nothing local, is a slow store's own sign: {@link CheckpointStorageSlowSignsTest}.)
   */
  @Test
  void aPureDurationShiftWithNothingElseIsUnknownButListsTheAnomaly() {
    FlinkJobSim s = new FlinkJobSim(31, 3, 2, 15, true);
    s.intervalMs = 120_000; // 3x slower checkpoints still fit in the interval
    s.run(100, 20, (x, f) -> {
      x.durationMs = x.baseDurationMs * 3 * x.jitter();
      x.fullSize = x.baseSize * 3 * (1 + 0.02 * x.rnd.nextGaussian());
    });
    Diagnosis d = s.detector.diagnosis(s.job).orElseThrow();
    assertThat(d.cause()).as(CauseRankerScenarioTest.describe(d)).isEqualTo("unknown");
    assertThat(d.confidence()).isZero();
    assertThat(d.signal()).isIn("checkpoint_duration", "checkpoint_full_size");
    assertThat(d.top().evidence()).extracting(CauseHypothesis.Evidence::signal)
        .contains(d.signal());
    assertThat(d.top().docsUrl()).isEqualTo("docs/causes/unknown.md");
    assertThat(d.ranked()).allSatisfy(h -> assertThat(h.confidence())
        .isLessThan(CauseRanker.MIN_CONFIDENCE));
    assertThat(s.detector.anomalies(s.job, true, Long.MIN_VALUE))
        .allSatisfy(a -> assertThat(a.causes().get(0).cause()).isEqualTo("unknown"));
  }

  @Test
  void aJobRestartUnderANewJobIdIsNeitherAnAnomalyNorACause() {
    FlinkJobSim s = new FlinkJobSim(32, 2, 1, 15, true);
    s.run(100, 0, (x, f) -> { });
    s.restart("00000000000000000000000000000b02");
    s.run(0, 60, (x, f) -> { });
    assertThat(s.detector.anomalies(s.job, null, Long.MIN_VALUE)).isEmpty();
    assertThat(s.detector.diagnosis(s.job)).isEmpty();
  }

  @Test
  void anIsolatedSlowCheckpointOpensNothing() {
    FlinkJobSim s = new FlinkJobSim(33, 2, 1, 15, false);
    s.run(100, 1.5, (x, f) -> x.durationMs = x.baseDurationMs * 6);
    s.run(0, 40, (x, f) -> { });
    assertThat(s.detector.anomalies(s.job, null, Long.MIN_VALUE)).isEmpty();
    assertThat(s.detector.diagnosis(s.job)).isEmpty();
  }

  @Test
  void aDailyLoadPatternIsHealthy() {
    FlinkJobSim s = new FlinkJobSim(34, 2, 1, 30, true);
    s.run(0, 26 * 60, (x, f) -> {
      double load = 1 + 0.5 * Math.sin(2 * Math.PI * f / 86_400_000.0);
      x.durationMs *= 0.6 + 0.4 * load;
      x.fullSize *= 0.9 + 0.1 * load;
      for (int t = 0; t < FlinkJobSim.TASKS.length; t++) {
        for (int i = 0; i < x.parallelism; i++) {
          x.busy[t][i] *= load;
          x.recordsIn[t][i] *= load;
        }
      }
      for (int m = 0; m < x.tms; m++) {
        x.writeIops[m] *= load;
        x.readIops[m] *= load;
        x.util[m] *= load;
      }
    });
    assertThat(s.detector.anomalies(s.job, null, Long.MIN_VALUE)).extracting(Anomaly::signal)
        .isEmpty();
    assertThat(s.detector.diagnosis(s.job)).isEmpty();
  }
}
