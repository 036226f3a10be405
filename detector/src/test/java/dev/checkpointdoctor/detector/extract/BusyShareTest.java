package dev.checkpointdoctor.detector.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class BusyShareTest {

  @Test
  void nothingUntilFourSpansAreKnown() {
    BusyShare b = new BusyShare();
    for (int i = 0; i < BusyShare.SPANS; i++) {
      assertThat(b.completed(i * 60_000L, i + 1, 15_000)).isNaN();
    }
    assertThat(b.completed(4 * 60_000L, 5, 15_000)).isCloseTo(0.25, within(1e-9));
  }

  @Test
  void twoCheckpointsBetweenScrapesCountAsTwo() {
    // 60 s scrapes, each sees the id move by 2: checkpoints complete every 30 s and take 27 s
    BusyShare b = new BusyShare();
    double share = Double.NaN;
    for (int i = 0; i <= BusyShare.SPANS; i++) {
      share = b.completed(i * 60_000L, 2 * i + 1, 27_000);
    }
    assertThat(share).isCloseTo(0.9, within(1e-9));
  }

  @Test
  void backToBackIsAtMostTheWholeTime() {
    BusyShare b = new BusyShare();
    double share = Double.NaN;
    for (int i = 0; i <= 2 * BusyShare.SPANS; i++) {
      // scrape quantisation: 70 s checkpoints seen at 75 s and 60 s gaps
      share = b.completed(i * 67_500L, i, 80_000);
    }
    assertThat(share).isEqualTo(1.0);
  }

  @Test
  void readsTheNewestCompletionsOnly() {
    BusyShare b = new BusyShare();
    for (int i = 0; i < 10; i++) {
      b.completed(i * 120_000L, i, 12_000); // 10 % of a 2 min interval
    }
    double share = Double.NaN;
    for (int i = 10; i < 15; i++) {
      share = b.completed(1_200_000L + (i - 10) * 30_000L, i, 24_000);
    }
    assertThat(share).isCloseTo(0.8, within(1e-9));
  }
}
