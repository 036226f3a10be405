package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.Feed.J;
import static dev.checkpointdoctor.detector.extract.Feed.S;
import static dev.checkpointdoctor.detector.extract.Feed.T0;
import static dev.checkpointdoctor.detector.extract.Feed.job;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.extract.Feed.In;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link JobFrames}: a job's JobManager gauges, one frame per scrape timestamp. */
class JobFramesTest {
  Feed f = new Feed();

  /** Stale markers for {@code series} at {@code ts}: every frame before it is then complete. */
  void endAll(long ts, In... series) {
    for (In in : series) {
      f.end(in.at(ts, 0));
    }
    f.flush();
  }

  @Test
  void failedCheckpointCounterResetIsNotNegative() {
    double[] failed = {5, 7, 1, 2};
    double[] restarts = {0, 1, 0, 2};
    for (int i = 0; i < failed.length; i++) {
      f.batch(job("a1", "numberOfFailedCheckpoints", T0 + i * 10 * S, failed[i]),
          job("a1", "numRestarts", T0 + i * 10 * S, restarts[i]));
    }
    endAll(T0 + 40 * S, job("a1", "numberOfFailedCheckpoints", 0, 0),
        job("a1", "numRestarts", 0, 0));
    // increments: baseline, 7-5=2, reset (nothing), 2-1=1; the window sums them: 0, 2, 2, 3
    assertThat(f.values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 2.0, 2.0, 3.0);
    // numRestarts 0 -> 1 (+1), 1 -> 0 reset, 0 -> 2 (+2); only increments > 0 are emitted
    assertThat(f.take(Signal.RESTARTS)).containsExactly(
        job(Signal.RESTARTS, T0 + 10 * S, 1), job(Signal.RESTARTS, T0 + 30 * S, 2));
    assertThat(f.out).isEmpty(); // no marker series: no age, no per-checkpoint values
  }

  @Test
  void aFrameIsCompleteOnceEverySeriesOfTheJobHasReportedIt() {
    f.batch(job("a1", "numberOfFailedCheckpoints", T0, 1), job("a1", "numRestarts", T0, 0));
    // the first scrape waits for each series' next one: more of it may be in another request
    assertThat(f.out).isEmpty();
    assertThat(f.x.pendingSamples()).isEqualTo(2);
    f.batch(job("a1", "numberOfFailedCheckpoints", T0 + 10 * S, 1));
    assertThat(f.out).isEmpty(); // numRestarts has not moved past T0 yet
    f.batch(job("a1", "numRestarts", T0 + 10 * S, 0));
    // from then on a frame is complete as soon as the job's series have all reported it
    assertThat(f.take(Signal.CHECKPOINT_FAILURES)).extracting(Observation::timestampMs)
        .containsExactly(T0, T0 + 10 * S);
    assertThat(f.x.pendingSamples()).isZero();
    f.batch(job("a1", "numRestarts", T0 + 20 * S, 0));
    assertThat(f.out).isEmpty(); // the scrape's other half is in a later request
    f.batch(job("a1", "numberOfFailedCheckpoints", T0 + 20 * S, 1));
    assertThat(f.take(Signal.CHECKPOINT_FAILURES)).extracting(Observation::timestampMs)
        .containsExactly(T0 + 20 * S);
  }

  @Test
  void staleMarkerOnAJobCounterStartsANewBaseline() {
    In failed = job("a1", "numberOfFailedCheckpoints", 0, 0);
    f.batch(failed.at(T0, 4), failed.at(T0 + 10 * S, 6)); // +2
    f.end(failed.at(T0 + 15 * S, 0));
    f.batch(failed.at(T0 + 60 * S, 9)); // after the gap: baseline only
    f.batch(failed.at(T0 + 70 * S, 10)); // +1
    endAll(T0 + 80 * S, failed);
    // window sums: 0, 2, 2 (9 is a new baseline, not +3), 3
    assertThat(f.values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 2.0, 2.0, 3.0);
  }

  @Test
  void failuresLeaveTheTrailingWindow() {
    f = new Feed(new DetectorSettings(20, 120, Duration.ofDays(3), 4.0, 0.1,
        3, 3, Duration.ofHours(6), Duration.ofMinutes(1), Duration.ofMinutes(10), Map.of()));
    long[] at = {0, 10, 30, 70, 95};
    double[] failed = {0, 1, 3, 3, 3};
    In series = job("a1", "numberOfFailedCheckpoints", 0, 0);
    for (int i = 0; i < at.length; i++) {
      f.batch(series.at(T0 + at[i] * S, failed[i]));
    }
    endAll(T0 + 100 * S, series);
    // events: +1 at 10 s, +2 at 30 s. Window (t-60 s, t]:
    // t=0: 0; t=10: 1; t=30: 1+2=3; t=70: (10,70] drops the +1 at 10 s -> 2; t=95: (35,95] -> 0
    assertThat(f.values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 1.0, 3.0, 2.0, 0.0);
  }

  @Test
  void restartWithNewJobIdStartsFreshTrackersUnderTheSameJobName() {
    In[] a1 = {job("a1", "lastCompletedCheckpointId", T0, 10),
        job("a1", "lastCheckpointDuration", T0, 100), job("a1", "numberOfFailedCheckpoints", T0, 5),
        job("a1", "numRestarts", T0, 3)};
    f.batch(a1);
    long t1 = T0 + 10 * S;
    endAll(t1, a1); // the old job_id's series go stale when it restarts
    assertThat(f.take(Signal.CHECKPOINT_DURATION)).containsExactly(
        job(Signal.CHECKPOINT_DURATION, T0, 100));
    f.out.clear();
    f.batch(job("b2", "lastCompletedCheckpointId", t1, -1),
        job("b2", "lastCheckpointDuration", t1, -1), job("b2", "numberOfFailedCheckpoints", t1, 0),
        job("b2", "numRestarts", t1, 0));
    long t2 = t1 + 10 * S;
    f.batch(job("b2", "lastCompletedCheckpointId", t2, 0),
        job("b2", "lastCheckpointDuration", t2, 80), job("b2", "numberOfFailedCheckpoints", t2, 1),
        job("b2", "numRestarts", t2, 0));
    // t1: the new job_id is a start (RESTARTS 1), -1 sentinels, no completed checkpoint yet;
    // counters of the new run start from 0; t2: checkpoint 0 completed, one more failure
    assertThat(f.out).containsExactly(
        new Observation(J, Signal.RESTARTS, Signal.START_SCOPE, t1, 1),
        job(Signal.CHECKPOINT_AGE, t1, 0),
        job(Signal.CHECKPOINT_FAILURES, t1, 0), job(Signal.CHECKPOINT_DURATION, t2, 80),
        job(Signal.CHECKPOINT_AGE, t2, 0), job(Signal.CHECKPOINT_FAILURES, t2, 1));
    assertThat(f.x.currentJobId(J)).contains("b2");
    assertThat(f.x.restarts(J)).containsExactly("a1", "b2");
    assertThat(f.x.jobs()).containsExactly(J);
  }

  @Test
  void aFailedScrapeDoesNotReportTheLastCheckpointAgain() {
    // Prometheus marks every series of a failed JobManager scrape stale; the next scrape brings
    // the same job_id back with the same last checkpoint: no completion, the age goes on
    In[] a1 = {job("a1", "lastCompletedCheckpointId", T0, 10),
        job("a1", "lastCheckpointDuration", T0, 100)};
    f.batch(a1);
    f.batch(job("a1", "lastCompletedCheckpointId", T0 + 10 * S, 10),
        job("a1", "lastCheckpointDuration", T0 + 10 * S, 100));
    endAll(T0 + 20 * S, a1); // the scrape at T0 + 20 s failed
    f.batch(job("a1", "lastCompletedCheckpointId", T0 + 30 * S, 10),
        job("a1", "lastCheckpointDuration", T0 + 30 * S, 100));
    f.batch(job("a1", "lastCompletedCheckpointId", T0 + 40 * S, 11),
        job("a1", "lastCheckpointDuration", T0 + 40 * S, 120));
    f.batch(job("a1", "lastCompletedCheckpointId", T0 + 50 * S, 11),
        job("a1", "lastCheckpointDuration", T0 + 50 * S, 120));
    assertThat(f.take(Signal.CHECKPOINT_DURATION)).containsExactly(
        job(Signal.CHECKPOINT_DURATION, T0, 100), job(Signal.CHECKPOINT_DURATION, T0 + 40 * S, 120));
    assertThat(f.values(Signal.CHECKPOINT_AGE)).as("the age is not restarted by the gap")
        .containsExactly(0.0, 10.0, 30.0, 0.0, 10.0);
  }

  @Test
  void aStartIsDatedAtTheRunsFirstScrapeWhenItsMarkerArrivesAfterThatFrameFinished() {
    // the completion marker's shard lags: the run's first frame finishes without it
    f.batch(job("a1", "numberOfInProgressCheckpoints", T0, 1));
    long t1 = T0 + 10 * S;
    f.batch(job("a1", "numberOfInProgressCheckpoints", t1, 1));
    f.batch(job("a1", "lastCompletedCheckpointId", t1, -1));
    f.batch(job("a1", "numberOfInProgressCheckpoints", t1 + 10 * S, 1),
        job("a1", "lastCompletedCheckpointId", t1 + 10 * S, -1));
    // no checkpoint completed when the marker is first seen: the run started at its first scrape
    assertThat(f.take(Signal.RESTARTS)).containsExactly(
        new Observation(J, Signal.RESTARTS, Signal.START_SCOPE, T0, 1));
  }

  @Test
  void firstLookAtARestartedJobCountsItsFailuresFromZero() {
    In a1 = job("a1", "numberOfFailedCheckpoints", T0, 5);
    f.batch(a1);
    endAll(T0 + 5 * S, a1);
    In b2 = job("b2", "numberOfFailedCheckpoints", T0 + 10 * S, 2);
    f.batch(b2);
    endAll(T0 + 20 * S, b2);
    // a1: baseline 5 -> 0; b2 restarted from 0: 2 - 0 = 2 (never 2 - 5 = -3)
    assertThat(f.values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 2.0);
  }

  @Test
  void sentinelsAndCompletionCountMarkerOfFlink115() {
    // 1.15/1.16 have no lastCompletedCheckpointId: numberOfCompletedCheckpoints is the marker
    long[] t = {T0, T0 + 10 * S, T0 + 20 * S, T0 + 45 * S, T0 + 55 * S};
    double[] count = {0, 1, 1, 1, 1};
    double[] duration = {-1, 500, 500, 500, 500};
    double[] inProgress = {1, 0, 1, 1, 1};
    for (int i = 0; i < t.length; i++) {
      f.batch(job("a1", "numberOfCompletedCheckpoints", t[i], count[i]),
          job("a1", "lastCheckpointDuration", t[i], duration[i]),
          job("a1", "lastCheckpointSize", t[i], -1),
          job("a1", "numberOfInProgressCheckpoints", t[i], inProgress[i]));
    }
    // no checkpoint completed at first sight: the job is starting (RESTARTS 1); no duration
    // while -1; one at the completion; age since it: 10 s, then 35 s
    assertThat(f.out).containsExactly(
        new Observation(J, Signal.RESTARTS, Signal.START_SCOPE, t[0], 1),
        job(Signal.CHECKPOINT_AGE, t[0], 0),
        job(Signal.CHECKPOINT_IN_PROGRESS, t[0], 1),
        job(Signal.CHECKPOINT_DURATION, t[1], 500),
        job(Signal.CHECKPOINT_AGE, t[1], 0), job(Signal.CHECKPOINT_IN_PROGRESS, t[1], 0),
        job(Signal.CHECKPOINT_AGE, t[2], 10), job(Signal.CHECKPOINT_IN_PROGRESS, t[2], 1),
        job(Signal.CHECKPOINT_AGE, t[3], 35), job(Signal.CHECKPOINT_IN_PROGRESS, t[3], 1),
        job(Signal.CHECKPOINT_AGE, t[4], 45), job(Signal.CHECKPOINT_IN_PROGRESS, t[4], 1));
  }

  /** Twelve scrapes of every JobManager gauge, a checkpoint completing every second scrape. */
  static List<List<In>> frames() {
    List<List<In>> frames = new ArrayList<>();
    for (int k = 0; k < 12; k++) {
      long t = T0 + k * 10 * S;
      frames.add(new ArrayList<>(List.of(
          job("a1", "lastCompletedCheckpointId", t, 7 + k / 2),
          job("a1", "numberOfCompletedCheckpoints", t, 7 + k / 2),
          job("a1", "lastCheckpointDuration", t, 100 + 10 * (k / 2)),
          job("a1", "lastCheckpointSize", t, 2000 + k / 2),
          job("a1", "lastCheckpointFullSize", t, 9000 + k / 2),
          job("a1", "lastCheckpointPersistedData", t, 0),
          job("a1", "lastCheckpointCompletedTimestamp", t, T0 - 5 * S + (k / 2) * 20 * S),
          job("a1", "numberOfFailedCheckpoints", t, k),
          job("a1", "numberOfInProgressCheckpoints", t, k % 2),
          job("a1", "numRestarts", t, 0))));
    }
    return frames;
  }

  List<Observation> inOrder(List<List<In>> frames) {
    Feed ref = new Feed();
    for (List<In> frame : frames) {
      ref.batch(frame.toArray(new In[0]));
    }
    return ref.out;
  }

  @Test
  void shardedDeliveryWithLagGivesTheSameObservationsInTheSameOrder() {
    List<List<In>> frames = frames();
    List<Observation> expected = inOrder(frames);
    // one checkpoint every second scrape, first look included: ids 7..12
    assertThat(expected.stream().filter(o -> o.signal() == Signal.CHECKPOINT_DURATION))
        .hasSize(6);
    for (long seed = 1; seed <= 20; seed++) {
      Random rnd = new Random(seed);
      // each series goes through one of three shards; a shard sends its samples in order but
      // up to four scrapes (40 s) behind the others, and requests end anywhere
      int series = frames.get(0).size();
      int[] shardOf = new int[series];
      int[] lagOf = {0, 1 + rnd.nextInt(4), rnd.nextInt(5)};
      for (int i = 0; i < series; i++) {
        shardOf[i] = rnd.nextInt(3);
      }
      // shards start in step (a new job's first scrape is gathered from the series seen when
      // its next one arrives), then fall behind: frame k of series i arrives at step k + lag
      List<List<In>> steps = new ArrayList<>();
      for (int k = 0; k < frames.size(); k++) {
        for (int i = 0; i < series; i++) {
          int step = k < 2 ? k : k + lagOf[shardOf[i]];
          while (steps.size() <= step) {
            steps.add(new ArrayList<>());
          }
          steps.get(step).add(frames.get(k).get(i));
        }
      }
      List<In> arrival = new ArrayList<>();
      for (List<In> now : steps) {
        Collections.shuffle(now, rnd); // one step's requests of all shards in any order
        arrival.addAll(now);
      }
      f = new Feed();
      for (In in : arrival) {
        f.put(in);
        if (rnd.nextInt(4) == 0) {
          f.flush(); // a request ends
        }
      }
      f.flush();
      assertThat(f.out).as("seed " + seed).isEqualTo(expected);
      assertThat(f.x.lateSamples()).isZero();
    }
  }

  @Test
  void aSilentSeriesStopsHoldingFramesAfterTheDeliveryLag() {
    f = new Feed(DetectorSettings.defaults(),
        DeliverySettings.defaults().withMaxDeliveryLag(Duration.ofSeconds(30)));
    In failed = job("a1", "numberOfFailedCheckpoints", 0, 0);
    In inProgress = job("a1", "numberOfInProgressCheckpoints", 0, 0);
    f.batch(failed.at(T0, 0), inProgress.at(T0, 1));
    // in-progress falls silent (no stale marker); failures go on
    for (int k = 1; k <= 3; k++) {
      f.batch(failed.at(T0 + k * 10 * S, 0));
    }
    assertThat(f.out).isEmpty(); // T0 waits for the silent series up to 30 s
    f.batch(failed.at(T0 + 40 * S, 0));
    // 40 s > 30 s past T0: the silent series no longer holds frames; all up to 40 s complete
    assertThat(f.take(Signal.CHECKPOINT_IN_PROGRESS)).containsExactly(
        job(Signal.CHECKPOINT_IN_PROGRESS, T0, 1));
    assertThat(f.take(Signal.CHECKPOINT_FAILURES)).extracting(Observation::timestampMs)
        .containsExactly(T0, T0 + 10 * S, T0 + 20 * S, T0 + 30 * S, T0 + 40 * S);
    f.batch(failed.at(T0 + 50 * S, 0));
    assertThat(f.take(Signal.CHECKPOINT_FAILURES)).extracting(Observation::timestampMs)
        .containsExactly(T0 + 50 * S);
    // it comes back with an old sample (late, counted) and a new one (it holds frames again)
    f.batch(inProgress.at(T0 + 20 * S, 0), inProgress.at(T0 + 60 * S, 0));
    assertThat(f.x.lateSamples()).isEqualTo(1);
    f.batch(failed.at(T0 + 60 * S, 0), failed.at(T0 + 70 * S, 0));
    assertThat(f.take(Signal.CHECKPOINT_FAILURES)).extracting(Observation::timestampMs)
        .containsExactly(T0 + 60 * S); // 70 s waits for in-progress again
    assertThat(f.values(Signal.CHECKPOINT_IN_PROGRESS)).containsExactly(0.0);
  }

  @Test
  void aCheckpointsValuesMissingFromAGivenUpFrameComeFromTheNextFrameOfIt() {
    f = new Feed(DetectorSettings.defaults(),
        DeliverySettings.defaults().withMaxDeliveryLag(Duration.ofSeconds(30)));
    In id = job("a1", "lastCompletedCheckpointId", 0, 0);
    In duration = job("a1", "lastCheckpointDuration", 0, 0);
    f.batch(id.at(T0, 7), duration.at(T0, 100));
    // checkpoint 8 completes at T0 + 10 s; the duration series' shard falls 40 s behind: the
    // frames are finished without it (the marker's shard is more than 30 s ahead)
    for (int k = 1; k <= 5; k++) {
      f.batch(id.at(T0 + k * 10 * S, 8));
    }
    assertThat(f.values(Signal.CHECKPOINT_DURATION)).containsExactly(100.0); // 7, first look
    // its samples arrive: too late for the given-up frames (counted); then a new scrape
    for (int k = 1; k <= 5; k++) {
      f.batch(duration.at(T0 + k * 10 * S, 250));
    }
    assertThat(f.x.lateSamples()).isEqualTo(5);
    f.batch(id.at(T0 + 60 * S, 8), duration.at(T0 + 60 * S, 250));
    // checkpoint 8 is observed once, from the first frame after the given-up ones that has it
    assertThat(f.take(Signal.CHECKPOINT_DURATION)).containsExactly(
        job(Signal.CHECKPOINT_DURATION, T0 + 60 * S, 250));
    f.batch(id.at(T0 + 70 * S, 8), duration.at(T0 + 70 * S, 250));
    assertThat(f.take(Signal.CHECKPOINT_DURATION)).isEmpty(); // still checkpoint 8
  }

  @Test
  void aJobsFramesDoNotWaitForOtherSourcesOrJobs() {
    // another job and a node are a month ahead; this job's frames finish on its own series
    long ahead = T0 + 30L * 24 * 3600 * S;
    f.batch(Feed.disk("io_time_seconds_total", ahead, 1, "instance", "n:9100", "device", "sda"),
        new In(Feed.JP + "numRestarts", ahead, 0, Feed.labels(Feed.JP + "numRestarts",
            "job_id", "z9", "job_name", "other", "host", "jm_2")));
    for (int k = 0; k < 3; k++) {
      f.batch(job("a1", "numberOfFailedCheckpoints", T0 + k * 10 * S, k));
    }
    assertThat(f.values(Signal.CHECKPOINT_FAILURES)).containsExactly(0.0, 1.0, 2.0);
    assertThat(f.x.lateSamples()).isZero();
  }
}
