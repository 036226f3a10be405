package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;
import org.junit.jupiter.api.Test;

class DailyProfileTest {
  static final long H = HourlyHistory.HOUR_MS;
  static final long T0 = HourlyHistoryTest.T0;

  static double cycle(long t) {
    return 0.2 * Math.sin(2 * Math.PI * Math.floorMod(t, 24 * H) / (24.0 * H) - 1.3);
  }

  /**
   * A week of a healthy job whose state follows a daily cycle, redeployed six hours ago and
   * settled 40 % higher (a new normal). The shape of the day must stay the job's: fitted across
   * the step without a level of its own, the step bent the harmonics by several percent and the
   * flat night after the redeploy read as growth of 2 %/h (family 1 healthy_new_normal).
   */
  @Test
  void aRedeploysNewLevelDoesNotBendTheDailyShape() {
    HourlyHistoryTest.Raw raw = new HourlyHistoryTest.Raw();
    HourlyHistory hourly = new HourlyHistory();
    long deployedAt = T0 + 7 * 24 * H + 15 * H;
    long now = deployedAt + 6 * H;
    for (long t = T0; t <= now; t += 5 * 60_000L) {
      double v = 5e8 * Math.exp(cycle(t)) * (t >= deployedAt ? 1.4 : 1);
      hourly.observe(t, v, raw);
      raw.add(t, v);
    }

    DailyProfile profile = DailyProfile.fit(hourly, now, deployedAt);
    for (long t = now - 24 * H; t < now; t += H) {
      assertThat(profile.at(t)).as("shape at %d h", (t - T0) / H % 24)
          .isCloseTo(cycle(t), org.assertj.core.data.Offset.offset(0.01));
    }
    GrowthReading r = GrowthTest.evaluate(Signal.CHECKPOINT_FULL_SIZE, raw, hourly, now,
        InputHistories.NONE, deployedAt);
    assertThat(r.growing()).as("growing: %s", r).isFalse();
  }
}
