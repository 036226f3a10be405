package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How long a run of out-of-band observations must be, by how a scope leaves its band. */
class OpeningRuleTest {
  private static final int OPEN_AFTER = 3;
  private static final long STEP_MS = 60_000;

  /**
   * Feeds {@code cycles} cycles of {@code period} observations of which the first {@code outs}
   * are above the band (just out: never far out).
   */
  private static OpeningRule fed(int cycles, int period, int outs) {
    OpeningRule r = new OpeningRule();
    long t = 0;
    for (int c = 0; c < cycles; c++) {
      for (int i = 0; i < period; i++) {
        boolean out = i < outs;
        assertThat(r.observe(t += STEP_MS, out ? 1 : 0, out ? 1.2 : 0.3, OPEN_AFTER)).isFalse();
      }
    }
    return r;
  }

  @Test
  void independentExcursionsNeedWhatTheirRateAlonePredicts() {
    // one out of band in 25, never two in a row: the count follows from the rate (0.04: 5)
    OpeningRule r = fed(200, 25, 1);
    assertThat(r.persistence()).isLessThan(r.rate());
    assertThat(r.needed(OPEN_AFTER))
        .isEqualTo(OPEN_AFTER + OpeningRule.runLength(r.rate()) - 3).isEqualTo(5);
  }

  /**
   * Noise that wanders (an AR(1) gauge, a scrape faster than the gauge changes) leaves the band
   * in runs: two in a row every 25 observations. By the rate alone (0.08) a run of 6 is as rare
   * as the rule wants; but half of this scope's excursions go on, so a run of 6 is common. Fails
   * without the persistence: the count stays at 6 and such a scope opens on its own noise.
   */
  @Test
  void excursionsThatComeInRunsNeedALongerRun() {
    OpeningRule r = fed(200, 25, 2);
    assertThat(r.persistence()).isBetween(0.45, 0.55);
    assertThat(OpeningRule.runLength(r.rate())).isEqualTo(6);
    assertThat(r.needed(OPEN_AFTER)).isGreaterThanOrEqualTo(15);
    // and a run of three, five or six such excursions opens nothing
    OpeningRule again = fed(200, 25, 2);
    long t = 1L << 40;
    for (int i = 0; i < 6; i++) {
      assertThat(again.observe(t += STEP_MS, 1, 1.2, OPEN_AFTER)).isFalse();
    }
  }

  @Test
  void theDefaultScopeStillOpensOnThree() {
    OpeningRule r = new OpeningRule();
    assertThat(r.needed(OPEN_AFTER)).isEqualTo(OPEN_AFTER);
    long t = 0;
    assertThat(r.observe(t += STEP_MS, 1, 1.2, OPEN_AFTER)).isFalse();
    assertThat(r.observe(t += STEP_MS, 1, 1.2, OPEN_AFTER)).isFalse();
    assertThat(r.observe(t += STEP_MS, 1, 1.2, OPEN_AFTER)).isTrue();
  }
}
