package dev.checkpointdoctor.detector.baseline;

import static dev.checkpointdoctor.detector.baseline.RobustBaselineTest.MINUTE;
import static dev.checkpointdoctor.detector.baseline.RobustBaselineTest.T0;
import static dev.checkpointdoctor.detector.baseline.SignalTrackerTest.DEFAULTS;
import static dev.checkpointdoctor.detector.baseline.SignalTrackerTest.normal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.baseline.SignalTracker.Step;
import dev.checkpointdoctor.detector.model.Signal;
import org.junit.jupiter.api.Test;

/** A baseline younger than a day judges with a wider band; the score stays the plain distance. */
class YouthTest {
  private static final long HOUR = 60 * MINUTE;

  /** The first observation at {@code firstTs}, 39 more a minute apart: median 1000, h 250. */
  private static SignalTracker learned(long firstTs) {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    t.observe(firstTs, normal(0));
    for (int i = 1; i < 40; i++) {
      t.observe(T0 + i * MINUTE, normal(i));
    }
    return t;
  }

  @Test
  void aBaselineOfMinutesDoesNotCallOneAndAHalfBandsOutside() {
    SignalTracker young = learned(T0);
    Band own = young.band();
    assertThat(own.upper()).isEqualTo(1250.0);
    Step s = young.observe(T0 + 40 * MINUTE, 1400); // 1.6 half-widths above
    assertThat(s.outside()).isFalse();
    assertThat(s.upper()).isGreaterThan(1400.0); // the band it was judged against, ~2x as wide
    assertThat(s.score()).isEqualTo((1400 - 1000) / 62.5); // distance from the own band
  }

  @Test
  void aBaselineThatHasSeenADayJudgesByItsOwnBand() {
    SignalTracker old = learned(T0 - 25 * HOUR); // its first observation is over a day old
    Step s = old.observe(T0 + 40 * MINUTE, 1400);
    assertThat(s.outside()).isTrue();
    assertThat(s.upper()).isEqualTo(old.band().upper());
  }

  @Test
  void aSteadyRiseIsJudgedByTheOwnBandNotTheWidenedOne() {
    SignalTracker young = learned(T0);
    young.observe(T0 + 39 * MINUTE + 30_000, 980); // a step down: no rise under way
    for (int i = 0; i < SignalTracker.TREND_STEPS - 1; i++) {
      Step s = young.observe(T0 + (40 + i) * MINUTE, 1050 + 40 * i);
      assertThat(s.upper()).isGreaterThan(1400.0); // not a trend yet: the young band
    }
    double own = young.band().upper(); // about 1250; widened about 1500
    Step trend = young.observe(T0 + 45 * MINUTE, 1300); // the fifth step up: a trend
    assertThat(trend.upper()).isEqualTo(own);
    assertThat(trend.outside()).isTrue();
    // one value back down ends the trend: the young band judges again
    Step down = young.observe(T0 + 46 * MINUTE, 1290);
    assertThat(down.upper()).isGreaterThan(1400.0);
    assertThat(down.outside()).isFalse();
  }

  @Test
  void aSlowDailyRampIsNoTrendAndKeepsTheYoungBand() {
    SignalTracker young = learned(T0);
    // the evening ramp of a load cycle: every value above the one before, for hours, but
    // climbing far less than a band half-width (250) per hour
    Step s = null;
    for (int i = 0; i <= SignalTracker.TREND_STEPS; i++) {
      double value = i < SignalTracker.TREND_STEPS ? 1190 + 10 * i : 1300;
      s = young.observe(T0 + 39 * MINUTE + (i + 1) * 20 * MINUTE, value);
    }
    assertThat(s.observed()).isEqualTo(1300.0);
    assertThat(s.upper()).isGreaterThan(1400.0); // judged by the young band
    assertThat(s.outside()).isFalse();
  }

  @Test
  void halfADayHalvesTheWidening() {
    SignalTracker half = learned(T0 + 40 * MINUTE - 12 * HOUR);
    Band own = half.band();
    Step s = half.observe(T0 + 40 * MINUTE, 1000);
    assertThat(s.upper() - s.expected()).isEqualTo(1.5 * own.halfWidth());
  }

  @Test
  void theWideningStopsAtALimitTheJobCannotSustainButNeverNarrowsTheOwnBand() {
    SignalTracker young = learned(T0);
    // checkpoints are taken every 1300 ms: a young band (up to ~1500) must not forgive 1400
    Step s = young.observe(T0 + 40 * MINUTE, 1400, 1300);
    assertThat(s.upper()).isEqualTo(1300.0);
    assertThat(s.outside()).isTrue();
    // a limit inside the own band changes nothing: the own band is the least it judges by
    double ownUpper = young.band().upper();
    Step t = young.observe(T0 + 41 * MINUTE, 1200, 900);
    assertThat(t.upper()).isEqualTo(ownUpper);
    assertThat(t.outside()).isFalse();
  }
}
