package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@link CauseRanker} keeps slices of a job's histories from one diagnosis to the next
 * ({@link SliceCache}); every diagnosis must equal, to the bit and the character, one computed
 * from scratch by a ranker that kept nothing. Faults come and go at random so anomalies open and
 * resolve (the onset and the recent slice move), and runs last long enough for histories to
 * expire points and thin their older half.
 */
class CauseRankerKeptSlicesTest {
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6})
  void everyDiagnosisEqualsOneFromScratch(long seed) {
    DetectorSettings settings = DetectorSettings.defaults();
    CauseRanker keeping = new CauseRanker(settings);
    int[] compared = {0};
    Diagnoser both = (view, since) -> {
      Diagnosis kept = keeping.diagnose(view, since);
      Diagnosis fresh = new CauseRanker(settings).diagnose(view, since);
      assertThat(String.valueOf(kept)).isEqualTo(String.valueOf(fresh));
      assertThat(kept).isEqualTo(fresh);
      compared[0] += kept == null ? 0 : 1;
      return kept;
    };
    int[] scrape = {15, 30, 10};
    FlinkJobSim s = new FlinkJobSim(seed, 2 + (int) (seed % 3), 1 + (int) (seed % 2),
        scrape[(int) (seed % 3)], seed % 2 == 0, settings, both);
    Random r = new Random(seed * 31);
    s.run(100, 0, (x, f) -> { });
    for (int episode = 0; episode < 6; episode++) {
      // one long fault (past the hour the recent slice is capped at) and short ones
      double minutes = episode == 1 ? 75 : 2 + r.nextInt(25);
      s.run(1 + r.nextInt(20), minutes, fault(r.nextInt(5)));
    }
    assertThat(compared[0]).isGreaterThan(100);
  }

  private static FlinkJobSim.Scenario fault(int kind) {
    return switch (kind) {
      case 0 -> FlinkJobSim.diskCeiling(400);
      case 1 -> CauseRankerScenarioTest.sinkBottleneck();
      case 2 -> (x, f) -> {
        for (int m = 0; m < x.tms; m++) {
          x.gcMsPerS[m] = 300 * x.jitter();
          x.heap[m] = 0.95;
        }
      };
      case 3 -> (x, f) -> {
        for (int i = 0; i < x.parallelism; i++) {
          x.l0[i] = 30 + x.rnd.nextInt(10);
          x.delayedRate[i] = x.rnd.nextBoolean() ? 8 << 20 : 0;
          x.stallUsPerS[i] = 50_000 * x.jitter();
        }
        x.durationMs = x.baseDurationMs * 4 * x.jitter();
      };
      default -> (x, f) -> x.durationMs = x.intervalMs * 1.3 * x.jitter();
    };
  }
}
