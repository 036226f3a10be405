package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.confidenceOf;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.evidenceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The first minutes of a burst-credit disk, as production scrapes see them: the disk is named
 * before the consequences it explains (back-to-back checkpoints, back-pressure), though its busy
 * share is still climbing and, at one-minute scrapes, one queueing point is all there is.
 */
class DiskThrottlingOnsetTest {

  /**
   * The rate sits at its ceiling from the first window while the queue behind it takes two
   * minutes to fill: a median over the whole young run reads the disk busy ~80 %, yet I/O
   * latency forty times its usual level says the requests queue. The ceiling is present, so
   * the back-to-back checkpoints it causes cannot outrank it.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void aCeilingWhoseBusyShareIsStillClimbingIsNamedBeforeBackToBackCheckpoints(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 15, seed % 2 == 0);
    s.intervalMs = 60_000;
    double ceiling = Math.max(100, Math.round(s.baseIops * 0.4));
    s.run(NORMAL_MIN, 2.75, (x, f) -> {
      FlinkJobSim.diskCeiling(ceiling).apply(x, f);
      double climbed = Math.min(1, f / 150_000.0);
      for (int m = 0; m < x.tms; m++) {
        x.util[m] = 0.5 + 0.48 * climbed + 0.01 * x.rnd.nextDouble();
      }
      x.durationMs = x.intervalMs * 0.95 * (1 + 0.01 * x.rnd.nextGaussian());
    });
    Diagnosis d = diagnosis(s);
    // present (so it ranks the consequences it explains below it), not weakened by the busy
    // share of the scrapes before the queue filled
    assertThat(confidenceOf(d, Cause.DISK_THROTTLING)).as(describe(d))
        .isGreaterThanOrEqualTo(CauseRanker.MIN_CONFIDENCE);
    assertThat(evidenceOf(d, Cause.DISK_THROTTLING)).as(describe(d))
        .noneMatch(t -> t.startsWith("But the disk is busy only"));
  }

  /**
   * Scrapes a minute apart: the task metrics show the stateful task saturated and its upstream
   * back-pressured a scrape before node_exporter's first queueing point. That one point holds
   * back-pressure back (the disk cannot be judged yet) instead of waiting for a median of three.
   */
  @ParameterizedTest
  @ValueSource(longs = {3, 4})
  void oneQueueingPointAtMinuteScrapesHoldsBackPressureBack(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 2, 2, 60, seed % 2 == 0);
    s.run(NORMAL_MIN * 2, 3, (x, f) -> {
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[1][i] = 960 + 40 * x.rnd.nextDouble();
        x.bp[1][i] = 2 * x.rnd.nextDouble();
        x.bp[0][i] = 850 + 100 * x.rnd.nextDouble();
      }
      if (f >= 120_000) {
        for (int m = 0; m < x.tms; m++) {
          x.util[m] = 0.96 + 0.03 * x.rnd.nextDouble();
          x.latencyMs[m] = 40 * x.jitter();
        }
      }
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isNotEqualTo("backpressure");
    assertThat(evidenceOf(d, Cause.BACKPRESSURE)).as(describe(d))
        .anyMatch(t -> t.startsWith("Held back while disk_throttling cannot be judged yet"));
  }
}
