package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint age of a job whose checkpoints run back to back (each 60-80 s at a 30 s
 * interval), scraped every 15 s: its age baseline learns a sawtooth up to about 80 s.
 */
class StuckCheckpointTest {
  private static final long T0 = 1_796_000_000_000L;

  private final List<Anomaly> opened = new ArrayList<>();
  private final List<Anomaly> resolved = new ArrayList<>();
  private final SignalBook book = new SignalBook(DetectorSettings.defaults(),
      new UnknownCauseDiagnoser(), List.of(new DetectorListener() {
        @Override
        public void anomalyOpened(Anomaly a) {
          opened.add(a);
        }

        @Override
        public void anomalyResolved(Anomaly a) {
          resolved.add(a);
        }
      }));
  private final Random rng = new Random(7);
  private long scrapeMs = 15_000;
  private long t = T0;
  private long lastCompletionMs = T0;
  private long runningSinceMs = T0;
  /** Spacing of checkpoint triggers; 0 for back to back. */
  private long intervalMs = 0;

  @Test
  void aCheckpointFiveTimesAsLongAsUsualNowAndThenIsNoAnomaly() {
    normalCheckpoints(3 * 3_600_000L);
    checkpoint(400_000); // an upload retried: over five times the usual 70 s, and it completes
    normalCheckpoints(30 * 60_000L);

    assertThat(opened).isEmpty();
  }

  @Test
  void aSlowCheckpointOfAJobAWeekOldIsNoAnomalyEither() {
    normalCheckpoints(8 * 24 * 3_600_000L); // its seasons now know every hour of a week
    checkpoint(400_000);
    normalCheckpoints(30 * 60_000L);

    assertThat(opened).isEmpty();
  }

  @Test
  void aStuckCheckpointStillOpensAnAgeAnomalyBeforeItTimesOut() {
    normalCheckpoints(3 * 3_600_000L);
    long stuckAt = t;
    scrapeAgesUntil(stuckAt + 15 * 60_000L);

    assertThat(opened).extracting(Anomaly::signal).containsExactly(Signal.CHECKPOINT_AGE);
    // six of the usual checkpoints (the duration band ends near 100 s), then three scrapes
    assertThat(opened.get(0).startedAtMs() - stuckAt).isLessThan(10 * 60_000L);
  }

  @Test
  void aJobThatCompletedAVerySlowCheckpointTakesTheNextOneInItsStride() {
    normalCheckpoints(3 * 3_600_000L);
    checkpoint(800_000); // eleven usual ones: the first in the job's life opens an anomaly
    normalCheckpoints(30 * 3_600_000L); // long enough for the age band to forget it
    int before = opened.size();

    checkpoint(900_000); // a day later, about as slow again
    normalCheckpoints(30 * 60_000L);

    assertThat(before).isEqualTo(1);
    assertThat(opened).hasSize(before);
  }

  @Test
  void aStuckCheckpointAfterAVerySlowOneStillOpens() {
    normalCheckpoints(3 * 3_600_000L);
    checkpoint(800_000);
    normalCheckpoints(30 * 3_600_000L);
    int before = opened.size();
    long stuckAt = t;
    scrapeAgesUntil(stuckAt + 40 * 60_000L);

    assertThat(opened).hasSize(before + 1);
    // one and a half times the slowest completed one (20 min), then a few scrapes
    assertThat(opened.get(before).startedAtMs() - stuckAt).isLessThan(25 * 60_000L);
  }

  /**
   * Family 1's train seed 10 healthy_redeploy: checkpoints of 17-21 s every 60 s, scraped every
   * 60 s. The age waits up to 40 s before each one starts; an upload retried makes one take
   * eight usual ones and it completes.
   */
  @Test
  void aSlowCheckpointOfAJobWithShortCheckpointsIsNoAnomalyOnTheFirstDay() {
    shortCheckpointsEveryMinute();
    shortCheckpoints(16 * 3_600_000L);
    checkpoint(185_000);
    shortCheckpoints(30 * 60_000L);

    assertThat(opened).isEmpty();
  }

  @Test
  void aStuckCheckpointOfAJobWithShortCheckpointsStillOpensBeforeItTimesOut() {
    shortCheckpointsEveryMinute();
    shortCheckpoints(16 * 3_600_000L);
    long stuckAt = runningSinceMs;
    scrapeAgesUntil(stuckAt + 15 * 60_000L);

    assertThat(opened).extracting(Anomaly::signal).containsExactly(Signal.CHECKPOINT_AGE);
    // the pause (40 s), six usual checkpoints (the band ends near 25 s), then two scrapes
    assertThat(opened.get(0).startedAtMs() - stuckAt).isLessThan(5 * 60_000L);
  }

  /**
   * The slowest completed checkpoint's allowance already covers a pause: a job that waits 100 s
   * before each checkpoint and once completed one of 300 s is stuck once its age passes 450 s,
   * not 550 (train seed 17 checkpoint_storage_slow_b: the ramp's own slow completion plus the
   * pause hid a stuck checkpoint, and another cause was named first).
   */
  @Test
  void aStuckCheckpointAfterAVerySlowOneOfAJobThatPausesOpensWithinItsAllowance() {
    scrapeMs = 30_000;
    intervalMs = 120_000;
    t = T0 + 100_000;
    shortCheckpoints(3 * 3_600_000L);
    checkpoint(300_000);
    shortCheckpoints(30 * 3_600_000L);
    int before = opened.size();
    long stuckAt = runningSinceMs;
    scrapeAgesUntil(stuckAt + 15 * 60_000L);

    assertThat(opened).hasSize(before + 1);
    // out once the age passes 450 s: some 350 s after the trigger
    assertThat(opened.get(before).startedAtMs() - stuckAt).isLessThan(7 * 60_000L);
  }

  /**
   * Family 1's train seed 22 healthy_redeploy: back-to-back checkpoints of 80-105 s; half an
   * hour after a redeploy the age baseline (one observation a scrape) judges again while the
   * duration baseline (one a completion) still learns. A checkpoint of five usual ones
   * completes.
   */
  @Test
  void aSlowCheckpointSoonAfterARedeployIsNoAnomaly() {
    scrapeMs = 60_000;
    t = T0 + 40_000;
    longCheckpoints(24 * 3_600_000L);
    book.observe(new Observation("job", Signal.RESTARTS, Signal.START_SCOPE, t, 1), null);
    longCheckpoints(25 * 60_000L); // 20 ages judged again, under 20 durations learned
    checkpoint(480_000);
    longCheckpoints(30 * 60_000L);

    assertThat(opened).isEmpty();
  }

  /** Scrapes the age of the running checkpoint, which never completes, until {@code untilMs}. */
  private void scrapeAgesUntil(long untilMs) {
    for (; t < untilMs; t += scrapeMs) {
      age();
    }
  }

  private void shortCheckpointsEveryMinute() {
    scrapeMs = 60_000;
    intervalMs = 60_000;
    t = T0 + 59_000; // each scrape 40 s after a completion, as in seed 10
  }

  /** Back-to-back checkpoints of 80-105 s for {@code spanMs}. */
  private void longCheckpoints(long spanMs) {
    checkpoints(spanMs, 80_000, 25_000);
  }

  /** Checkpoints of 17-21 s at the interval for {@code spanMs}. */
  private void shortCheckpoints(long spanMs) {
    checkpoints(spanMs, 17_000, 4_000);
  }

  /** Back-to-back checkpoints of 60-80 s for {@code spanMs}. */
  private void normalCheckpoints(long spanMs) {
    checkpoints(spanMs, 60_000, 20_000);
  }

  /** Checkpoints of {@code shortestMs} plus up to {@code spreadMs} for {@code spanMs}. */
  private void checkpoints(long spanMs, int shortestMs, int spreadMs) {
    long until = t + spanMs;
    while (t < until) {
      checkpoint(shortestMs + rng.nextInt(spreadMs));
    }
  }

  /** One checkpoint of {@code durationMs} that starts as the last one completed. */
  private void checkpoint(long durationMs) {
    long completesAt = runningSinceMs + durationMs;
    for (; t < completesAt; t += scrapeMs) {
      age();
    }
    lastCompletionMs = completesAt;
    runningSinceMs = Math.max(runningSinceMs + intervalMs, completesAt); // as Flink triggers
    book.observe(new Observation("job", Signal.CHECKPOINT_DURATION, "job", t, durationMs), null);
  }

  private void age() {
    book.observe(new Observation("job", Signal.CHECKPOINT_AGE, "job", t,
        (t - lastCompletionMs) / 1000.0), null);
  }
}
