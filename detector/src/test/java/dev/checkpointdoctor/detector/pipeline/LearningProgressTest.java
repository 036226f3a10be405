package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a new user sees while a job learns: progress and an estimate instead of an early "ok",
 * and bands that never reach below zero for quantities that cannot be negative.
 */
class LearningProgressTest {
  static final long T0 = DetectorTest.T0;
  static final long MINUTE = 60_000L;

  /** Scrapes once a minute; a checkpoint completes every second scrape. */
  static void scrapes(Detector d, String job, int from, int to, double durationMs) {
    for (int i = from; i < to; i++) {
      DetectorTest.scrape(d, job, T0 + i * MINUTE, 1 + i / 2, durationMs + (i % 3) * 10);
    }
  }

  @Test
  void aJobLearnsUntilItsCheckpointBaselinesAreReadyAndSaysWhenThatWillBe() {
    Detector d = new Detector(SignalCatalog.defaults(), DetectorTest.SETTINGS);
    scrapes(d, "j", 0, 8, 1000);
    JobSummary young = d.job("j").orElseThrow();
    // Per-scrape signals (failures, in-progress) are ready; checkpoint duration has 3 of 5.
    assertThat(young.baselinesReady()).isPositive();
    assertThat(young.baselinesReady()).isLessThan(young.baselinesTotal());
    BaselineSummary duration = DetectorTest.duration(d, "j");
    assertThat(duration.state()).isEqualTo("learning");
    assertThat(young.status()).isEqualTo("learning");
    int toGo = DetectorTest.SETTINGS.minObservations() - duration.observations();
    assertThat(young.checkpointsUntilReady()).isEqualTo(toGo);
    // One checkpoint every 2 minutes of event time, counted from the last one seen.
    assertThat(young.readyAtMs()).isEqualTo(duration.lastTimestampMs() + toGo * 2 * MINUTE);

    scrapes(d, "j", 8, 16, 1000);
    JobSummary learned = d.job("j").orElseThrow();
    assertThat(learned.status()).isEqualTo("ok");
    assertThat(learned.checkpointsUntilReady()).isZero();
    assertThat(learned.readyAtMs()).isEqualTo(Long.MIN_VALUE);
    // the busy share, read from the fifth completion on, is still learning; it does not hold
    // the job's status
    assertThat(learned.baselinesReady()).isEqualTo(learned.baselinesTotal() - 1);
    scrapes(d, "j", 16, 24, 1000);
    JobSummary all = d.job("j").orElseThrow();
    assertThat(all.baselinesReady()).isEqualTo(all.baselinesTotal());
  }

  @Test
  void bandsOfSignalsThatCannotBeNegativeStopAtZeroWhereverTheyAreShown() {
    Detector d = new Detector(SignalCatalog.defaults(), DetectorTest.SETTINGS);
    List<Evaluation> evaluations = new ArrayList<>();
    List<Anomaly> opened = new ArrayList<>();
    d.addListener(new DetectorListener() {
      @Override
      public void evaluated(Evaluation e) {
        evaluations.add(e);
      }

      @Override
      public void anomalyOpened(Anomaly a) {
        opened.add(a);
      }
    });
    // 100 ms checkpoints: the band's half-width is at least the 250 ms floor, so it would
    // reach down to about -150 ms.
    scrapes(d, "j", 0, 20, 100);
    BaselineSummary duration = DetectorTest.duration(d, "j");
    assertThat(duration.state()).isEqualTo("ready");
    assertThat(duration.upper() - duration.expected()).isGreaterThanOrEqualTo(250);
    assertThat(duration.lower()).isEqualTo(0.0);
    assertThat(evaluations).filteredOn(e -> e.signal() == Signal.CHECKPOINT_DURATION
        && e.ready()).isNotEmpty().allSatisfy(e -> assertThat(e.lower()).isEqualTo(0.0));

    scrapes(d, "j", 20, 30, 5000);
    assertThat(opened).filteredOn(a -> a.signal() == Signal.CHECKPOINT_DURATION).singleElement()
        .satisfies(a -> assertThat(a.lower()).isEqualTo(0.0));
    assertThat(d.anomalies("j", true, Long.MIN_VALUE)).allSatisfy(
        a -> assertThat(a.lower()).isGreaterThanOrEqualTo(0.0));
  }
}
