package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Signal;
import org.junit.jupiter.api.Test;

class RecentHistoryTest {
  @Test
  void keepsTheSpanInBoundedPointsWithRecentOnesAtFullResolution() {
    RecentHistory h = new RecentHistory(Signal.DISK_WRITE_IOPS, "node:a/sda");
    long step = 5_000;
    int n = 4000; // 5.5 h of 5 s points
    for (int i = 0; i < n; i++) {
      h.add(i * step, i);
    }
    long last = (n - 1) * step;
    assertThat(h.size()).isBetween(RecentHistory.CAPACITY / 2, RecentHistory.CAPACITY);
    assertThat(h.timeMs(h.size() - 1)).isEqualTo(last);
    assertThat(h.timeMs(0)).isGreaterThanOrEqualTo(last - RecentHistory.SPAN_MS);
    // most of the span is still covered, though older points are sparser
    assertThat(h.timeMs(0)).isLessThan(last - RecentHistory.SPAN_MS * 3 / 4);
    for (int i = h.size() - 20; i < h.size(); i++) {
      assertThat(h.timeMs(i) - h.timeMs(i - 1)).isEqualTo(step);
      assertThat(h.value(i)).isEqualTo(h.timeMs(i) / step);
    }
    for (int i = 1; i < h.size(); i++) {
      assertThat(h.timeMs(i)).isGreaterThan(h.timeMs(i - 1));
    }
  }

  @Test
  void dropsPointsOlderThanTheSpan() {
    RecentHistory h = new RecentHistory(Signal.CHECKPOINT_DURATION, "job");
    h.add(0, 1);
    h.add(60_000, 2);
    h.add(RecentHistory.SPAN_MS + 30_000, 3);
    assertThat(h.size()).isEqualTo(2);
    assertThat(h.value(0)).isEqualTo(2);
  }
}
