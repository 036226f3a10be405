package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import org.junit.jupiter.api.Test;

/**
 * The detector's job view looks one baseline up without summarizing them all; what it finds
 * must be what the full list holds for that series, and nothing for a series the job lacks.
 */
class BaselineLookupTest {
  @Test
  void oneBaselineIsTheListedOne() {
    DetectorSettings settings = DetectorSettings.defaults();
    CauseRanker ranker = new CauseRanker(settings);
    int[] compared = {0};
    Diagnoser checking = (view, since) -> {
      for (BaselineSummary b : view.baselines()) {
        assertThat(view.baseline(b.signal(), b.scope())).isEqualTo(b);
        compared[0]++;
      }
      assertThat(view.baseline(Signal.BUSY, "no such scope")).isNull();
      return ranker.diagnose(view, since);
    };
    FlinkJobSim s = new FlinkJobSim(3, 2, 1, 15, false, settings, checking);
    s.run(100, 0, (x, f) -> { });
    s.run(10, 20, FlinkJobSim.diskCeiling(400));
    assertThat(compared[0]).isGreaterThan(1000);
  }
}
