package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.confidenceOf;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.evidenceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * The last credits trickle out over two and a half minutes: requests queue at once, the rate
   * falls to its ceiling while the busy share climbs, and the stateful task lags and
   * back-pressures its upstream from the first minute, RocksDB stalling soon after. The ceiling
   * can be judged only once the rate has reached it, so until then the back-pressure and the
   * stalls it explains are held back: the first cause named is the disk.
   */
  @ParameterizedTest
  @ValueSource(longs = {5, 6})
  void creditsThatTrickleOutHoldTheConsequencesBackUntilTheCeilingCanBeJudged(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 2, 2, 15, seed % 2 == 0);
    double ceiling = Math.max(100, Math.round(s.baseIops * 0.4));
    List<String> named = new ArrayList<>();
    s.detector.addListener(new DetectorListener() {
      @Override
      public void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long atMs) {
        if (after != null && !after.cause().equals("unknown")) {
          named.add(after.cause());
        }
      }
    });
    s.run(NORMAL_MIN * 2, 8, (x, f) -> {
      double drained = Math.min(1, f / 150_000.0);
      for (int m = 0; m < x.tms; m++) {
        double rate = x.baseIops + (ceiling - x.baseIops) * drained;
        x.writeIops[m] = rate * 0.8 * (1 + 0.004 * x.rnd.nextGaussian());
        x.readIops[m] = rate * 0.2 * (1 + 0.004 * x.rnd.nextGaussian());
        x.util[m] = Math.min(1, 0.6 + 0.38 * drained + 0.01 * x.rnd.nextDouble());
        x.latencyMs[m] = 40 * x.jitter();
      }
      if (f >= 30_000) {
        for (int i = 0; i < x.parallelism; i++) {
          x.busy[1][i] = 960 + 40 * x.rnd.nextDouble();
          x.bp[1][i] = 2 * x.rnd.nextDouble();
          x.bp[0][i] = 850 + 100 * x.rnd.nextDouble();
        }
      }
      if (f >= 60_000) {
        for (int i = 0; i < x.parallelism; i++) {
          x.delayedRate[i] = x.rnd.nextDouble() < 0.5 ? 8 << 20 : 0;
          x.stallUsPerS[i] = 80_000 * x.jitter();
        }
      }
    });
    Diagnosis d = diagnosis(s);
    assertThat(named).as(describe(d)).isNotEmpty();
    assertThat(named.get(0)).as(named + "\n" + describe(d)).isEqualTo("disk_throttling");
  }
}
