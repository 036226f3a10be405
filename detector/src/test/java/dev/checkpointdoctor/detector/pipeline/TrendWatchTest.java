package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.InputHistories;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What keeps a steady rise from being read as growth: a redeploy inside it, a young job's warm-up,
 * the daily cycle.
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

  @Test
  void aSteadyRiseOpens() {
    assertThat(opens(Long.MIN_VALUE, (t, v) -> false)).isTrue();
  }

  @Test
  void aRiseReadAcrossARedeployIsNotGrowth() {
    assertThat(opens(T0 + 90 * MINUTE, (t, v) -> false)).isFalse();
  }

  @Test
  void aRiseInTheFirstHoursAfterADeploymentIsWarmUp() {
    // the windows read begin 30-90 minutes after the deployment
    assertThat(opens(T0 - 30 * MINUTE, (t, v) -> false)).isFalse();
  }

  @Test
  void theSameRiseOpensOnceTheJobWarmedUp() {
    assertThat(opens(T0 - TrendWatch.WARM_UP_MS, (t, v) -> false)).isTrue();
  }

  @Test
  void aRiseToALevelTheLastDaysReachedAtThisHourIsNotGrowth() {
    assertThat(opens(Long.MIN_VALUE, (t, v) -> true)).isFalse();
  }
}
