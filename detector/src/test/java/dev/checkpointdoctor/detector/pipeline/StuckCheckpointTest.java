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
    for (; t < stuckAt + 15 * 60_000L; t += scrapeMs) {
      age();
    }

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
    for (; t < stuckAt + 40 * 60_000L; t += scrapeMs) {
      age();
    }

    assertThat(opened).hasSize(before + 1);
    // one and a half times the slowest completed one (20 min), then a few scrapes
    assertThat(opened.get(before).startedAtMs() - stuckAt).isLessThan(25 * 60_000L);
  }

  /** Back-to-back checkpoints of 60-80 s for {@code spanMs}. */
  private void normalCheckpoints(long spanMs) {
    long until = t + spanMs;
    while (t < until) {
      checkpoint(60_000 + rng.nextInt(20_000));
    }
  }

  /** One checkpoint of {@code durationMs} that starts as the last one completed. */
  private void checkpoint(long durationMs) {
    long completesAt = runningSinceMs + durationMs;
    for (; t < completesAt; t += scrapeMs) {
      age();
    }
    lastCompletionMs = completesAt;
    runningSinceMs = completesAt;
    book.observe(new Observation("job", Signal.CHECKPOINT_DURATION, "job", t, durationMs), null);
  }

  private void age() {
    book.observe(new Observation("job", Signal.CHECKPOINT_AGE, "job", t,
        (t - lastCompletionMs) / 1000.0), null);
  }
}
