package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.HourlyHistory;
import dev.checkpointdoctor.detector.trend.InputHistories;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What keeps a steady rise from being read as growth: a redeploy inside it, a young job's warm-up,
 * the daily cycle, the weekly cycle at a redeploy's new level.
 */
class TrendWatchTest {
  private static final long T0 = 1_772_409_600_000L;
  private static final long MINUTE = 60_000L;

  /** Three hours of checkpoints a minute apart growing 5 %/h, compounding, with 1 % noise. */
  private static RecentHistory growing() {
    RecentHistory h = new RecentHistory(Signal.CHECKPOINT_DURATION, "job");
    SplittableRandom rnd = new SplittableRandom(7);
    for (int i = 0; i <= 180; i++) {
      double v = 10_000 * Math.pow(1.05, i / 60.0) * (1 + 0.01 * (rnd.nextDouble() - 0.5));
      h.add(T0 + i * MINUTE, v);
    }
    return h;
  }

  private static boolean opens(long deployedAtMs, TrendWatch.SeasonCheck season) {
    RecentHistory h = growing();
    TrendWatch w = new TrendWatch(Signal.CHECKPOINT_DURATION);
    for (long now = T0 + 120 * MINUTE; now <= T0 + 180 * MINUTE; now += TrendWatch.EVERY_MS) {
      if (w.observe(h, null, now, r -> true, () -> InputHistories.NONE, deployedAtMs, season)
          == TrendWatch.Transition.OPENED) {
        return true;
      }
    }
    return false;
  }

  private static final long HOUR = 3_600_000L;
  /** The last deployment, on the Sunday afternoon before {@link #T0} (a Monday, 00:00). */
  private static final long REDEPLOY = T0 - 30 * HOUR;

  /**
   * Five flat days at 10,000, 40 % higher since {@link #REDEPLOY}, then from {@link #T0} the
   * Monday rise of 5 %/h for three hours: the hourly history the daily cycle's fit reads, and the
   * recent raw history.
   */
  private static boolean opensAtNewLevel(TrendWatch.SeasonCheck season) {
    RecentHistory raw = new RecentHistory(Signal.CHECKPOINT_DURATION, "job");
    HourlyHistory hourly = new HourlyHistory();
    SplittableRandom rnd = new SplittableRandom(11);
    TrendWatch w = new TrendWatch(Signal.CHECKPOINT_DURATION);
    boolean opened = false;
    for (long t = T0 - 5 * 24 * HOUR; t <= T0 + 180 * MINUTE; t += MINUTE) {
      double v = 10_000 * (t >= REDEPLOY ? 1.4 : 1) * (1 + 0.01 * (rnd.nextDouble() - 0.5))
          * (t > T0 ? Math.pow(1.05, (t - T0) / (double) HOUR) : 1);
      hourly.observe(t, v, raw);
      raw.add(t, v);
      if (t >= T0 + 120 * MINUTE && (t - T0) % TrendWatch.EVERY_MS == 0) {
        opened |= w.observe(raw, hourly, t, r -> true, () -> InputHistories.NONE, REDEPLOY, season)
            == TrendWatch.Transition.OPENED;
      }
    }
    return opened;
  }

  @Test
  void aMondayRiseTheOldWeekHadIsNotGrowthAtARedeploysNewLevel() {
    // the old level's Mondays rose as far (10,000 x 1.05^3), as the seasons' old days tell
    assertThat(opensAtNewLevel((t, v, s) -> v <= 10_000 * 1.16 * s)).isFalse();
  }

  @Test
  void aRiseBeyondWhatTheOldWeekHadAtTheNewLevelStillOpens() {
    // the old level's Mondays stayed flat
    assertThat(opensAtNewLevel((t, v, s) -> v <= 10_000 * 1.01 * s)).isTrue();
  }

  @Test
  void aSteadyRiseOpens() {
    assertThat(opens(Long.MIN_VALUE, (t, v, s) -> false)).isTrue();
  }

  @Test
  void aRiseReadAcrossARedeployIsNotGrowth() {
    assertThat(opens(T0 + 90 * MINUTE, (t, v, s) -> false)).isFalse();
  }

  @Test
  void aRiseInTheFirstHoursAfterADeploymentIsWarmUp() {
    // the windows read begin 30-90 minutes after the deployment
    assertThat(opens(T0 - 30 * MINUTE, (t, v, s) -> false)).isFalse();
  }

  @Test
  void theSameRiseOpensOnceTheJobWarmedUp() {
    assertThat(opens(T0 - TrendWatch.WARM_UP_MS, (t, v, s) -> false)).isTrue();
  }

  @Test
  void aRiseToALevelTheLastDaysReachedAtThisHourIsNotGrowth() {
    assertThat(opens(Long.MIN_VALUE, (t, v, s) -> true)).isFalse();
  }

  /**
   * A job deployed at {@link #T0} whose full size (a point a minute, 0.2 % noise) falls
   * {@code fallPerHour} for four hours, stays flat for one, then rises {@code risePerHour}, its
   * input flat: whether the trend opens during the rise. With {@code restartAfterFall}, the watch
   * is saved and restored between the fall and the rise.
   */
  private static boolean opensAfterFall(double fallPerHour, double risePerHour,
      boolean restartAfterFall) throws java.io.IOException {
    RecentHistory raw = new RecentHistory(Signal.CHECKPOINT_FULL_SIZE, "job");
    SplittableRandom rnd = new SplittableRandom(5);
    TrendWatch w = new TrendWatch(Signal.CHECKPOINT_FULL_SIZE);
    boolean opened = false;
    for (long t = T0; t <= T0 + 9 * HOUR; t += MINUTE) {
      double h = (t - T0) / (double) HOUR;
      double v = 5e9 * Math.pow(1 - fallPerHour, Math.min(h, 4))
          * Math.pow(1 + risePerHour, Math.max(0, h - 5)) * (1 + 0.002 * (rnd.nextDouble() - 0.5));
      raw.add(t, v);
      if (restartAfterFall && t == T0 + 5 * HOUR) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        w.writeTo(new java.io.DataOutputStream(b));
        w = TrendWatch.readFrom(new java.io.DataInputStream(
            new java.io.ByteArrayInputStream(b.toByteArray())), Signal.CHECKPOINT_FULL_SIZE);
      }
      if (t > T0 && (t - T0) % TrendWatch.EVERY_MS == 0) {
        opened |= w.observe(raw, null, t, r -> true, () -> InputHistories.NONE, T0,
            (x, y, z) -> false) == TrendWatch.Transition.OPENED;
      }
    }
    return opened;
  }

  @Test
  void aYoungJobsRiseNoFasterThanItsFallSinceTheDeploymentIsItsSwing() throws Exception {
    // family 1 seed 22 healthy_declined_start: -2.5 %/h through the evening, +1.5-2.2 %/h
    // through the night and morning, its input's hours scattered without a trend
    assertThat(opensAfterFall(0.025, 0.02, false)).isFalse();
    assertThat(opensAfterFall(0.025, 0.02, true)).as("after a restart").isFalse();
  }

  @Test
  void theSameRiseWithoutTheFallIsGrowth() throws Exception {
    assertThat(opensAfterFall(0, 0.02, false)).isTrue();
  }

  @Test
  void growthFasterThanTheFallOpens() throws Exception {
    assertThat(opensAfterFall(0.025, 0.035, false)).isTrue();
  }

  @Test
  void aWatchSavedBeforeTheFallWasKeptIsStillRead() throws Exception {
    TrendWatch w = new TrendWatch(Signal.CHECKPOINT_FULL_SIZE);
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    w.writeTo(new java.io.DataOutputStream(b));
    byte[] old = java.util.Arrays.copyOf(b.toByteArray(), b.size() - 16); // no fall in it
    assertThat(TrendWatch.readFrom(new java.io.DataInputStream(
        new java.io.ByteArrayInputStream(old)), Signal.CHECKPOINT_FULL_SIZE).fallSeen())
        .isZero();
  }
}
