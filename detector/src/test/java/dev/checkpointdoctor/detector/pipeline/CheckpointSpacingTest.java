package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Signal;
import org.junit.jupiter.api.Test;

class CheckpointSpacingTest {
  private static final long T0 = 1_772_409_600_000L;

  @Test
  void readsTheIntervalWhileCheckpointsRunBackToBackForLessThanThreeQuartersOfTheGaps() {
    RecentHistory h = new RecentHistory(Signal.CHECKPOINT_DURATION, "job");
    long t = T0;
    for (int i = 0; i < 40; i++) { // every 30 s, scraped every 15 s: 30 s apart
      t += 30_000;
      h.add(t, 18_000);
    }
    for (int i = 0; i < 20; i++) { // back to back at 40 s: completions 30 s and 45 s apart
      t += i % 2 == 0 ? 45_000 : 30_000;
      h.add(t, 40_000);
    }
    assertThat(CheckpointSpacing.of(h)).isEqualTo(30_000.0);
  }

  @Test
  void saysNothingBeforeEightGaps() {
    RecentHistory h = new RecentHistory(Signal.CHECKPOINT_DURATION, "job");
    for (int i = 0; i < 8; i++) {
      h.add(T0 + i * 30_000L, 18_000);
    }
    assertThat(CheckpointSpacing.of(h)).isInfinite();
    h.add(T0 + 8 * 30_000L, 18_000);
    assertThat(CheckpointSpacing.of(h)).isEqualTo(30_000.0);
  }
}
