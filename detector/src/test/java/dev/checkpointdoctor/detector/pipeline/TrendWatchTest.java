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
      if (w.observe(h, null, now, true, () -> InputHistories.NONE, deployedAtMs, season)
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
        opened |= w.observe(raw, hourly, t, true, () -> InputHistories.NONE, REDEPLOY, season)
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
}
