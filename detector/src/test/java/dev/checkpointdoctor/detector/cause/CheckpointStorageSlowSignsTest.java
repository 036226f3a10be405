package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A slow checkpoint store named from its own signs, not only once checkpoints are overdue or
 * expire; and failures that are not expiries (declined at a redeploy) are not its sign.
 */
class CheckpointStorageSlowSignsTest {

  /**
   * A store that still answers, slowly: every upload takes a few times as long for the same
   * bytes, yet well within the interval, so the last completed checkpoint never ages past its
   * normal, nothing expires and a checkpoint is in progress less than most of the time. The
   * barriers are on time, nothing is back-pressured, disk, GC and CPU are as before.
   */
  @ParameterizedTest
  @ValueSource(longs = {41, 42, 43})
  void aMildlySlowStoreIsNamedBeforeCheckpointsAreOverdue(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 30, seed % 2 == 0);
    s.intervalMs = 180_000;
    s.run(NORMAL_MIN, 30, (x, f) -> x.durationMs = 4 * x.baseDurationMs * x.jitter());
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_storage_slow");
    assertThat(d.checkpointsFailing()).isFalse();
  }

  /** As slow, but for as many more bytes: that is more state, not a slower store. */
  @ParameterizedTest
  @ValueSource(longs = {41, 42, 43})
  void slowerCheckpointsForAsManyMoreBytesAreNotTheStore(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 30, seed % 2 == 0);
    s.intervalMs = 180_000;
    s.run(NORMAL_MIN, 30, (x, f) -> {
      x.durationMs = 4 * x.baseDurationMs * x.jitter();
      x.fullSize = 4 * x.baseSize * (1 + 0.02 * x.rnd.nextGaussian());
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isNotEqualTo("checkpoint_storage_slow");
  }

  /**
   * A redeploy to an interval shorter than the checkpoints take, whose first checkpoints are
   * declined while the tasks start: the declines are failures, but nothing is overdue, so they
   * say nothing about the store; the interval is named, never the store.
   */
  @ParameterizedTest
  @ValueSource(longs = {24, 25, 26})
  void checkpointsDeclinedAtARedeployAreNotAStuckStore(long seed) {
    FlinkJobSim s = CauseRankerScenarioTest.sim(seed);
    s.intervalMs = Math.round(s.baseDurationMs * 4 / 1000) * 1000;
    s.run(NORMAL_MIN, 0, (x, f) -> { });
    s.intervalMs = Math.max(1000, Math.round(s.baseDurationMs / 2 / 1000) * 1000);
    s.restart("00000000000000000000000000000c04");
    // declined at the first triggers, once the new job's gauges have been scraped
    s.run(0, 1, (x, f) -> { });
    s.decline(2);
    List<String> named = UnalignedInflationWaitTest.named(s, 40, (x, f) -> { });
    Diagnosis d = diagnosis(s);
    assertThat(named).as(describe(d)).doesNotContain("checkpoint_storage_slow")
        .contains("checkpoint_interval_too_short");
  }

  /**
   * A job two minutes old, checkpointing every 2 s in well under a second, whose store stops
   * answering: the pending checkpoint expires after 30 s. The expiry is the store's sign although
   * the age's young baseline is still as wide as the signal's 30 s floor (the lab's real-Flink
   * recordings: 34 s overdue while "normal up to 31 s").
   */
  @ParameterizedTest
  @ValueSource(longs = {61, 62, 63})
  void anExpiryOfAYoungJobIsTheStoresSign(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 2, 1, 1, seed % 2 == 0, DetectorSettings.defaults()
        .withMinObservations(5).withCheckpointTimeout(Duration.ofSeconds(30)));
    s.intervalMs = 2_000;
    s.run(0, 1.4, (x, f) -> x.durationMs = 300 * x.jitter());
    s.run(0, 0.6, (x, f) -> x.durationMs = 600_000);
    Diagnosis d = diagnosis(s);
    assertThat(d.checkpointsFailing()).as(describe(d)).isTrue();
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_storage_slow");
  }
}
