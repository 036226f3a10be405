package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Signal;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecentHistoryTest {
  @Test
  void fractionalValuesKeepSixteenSignificantBitsAndIntegralOnesStayExact() {
    RecentHistory h = new RecentHistory(Signal.BUSY, "task:a/0");
    Random rnd = new Random(3);
    long t = 1_796_000_000_000L;
    int rounded = 0;
    for (int i = 0; i < 200; i++) {
      double v = 1234.5678 * (1 + 0.1 * rnd.nextGaussian());
      h.add(t += 15_000, v);
      double kept = h.value(h.size() - 1);
      assertThat(Math.abs(kept - v)).isLessThanOrEqualTo(Math.abs(v) * 0x1.01p-16);
      // on the grid of 16 significant bits
      double scaled = Math.scalb(kept, 15 - Math.getExponent(kept));
      assertThat(scaled).isEqualTo(Math.rint(scaled));
      rounded += kept != (float) v ? 1 : 0;
    }
    assertThat(rounded).isGreaterThan(150);
    double[] integral = {0, -0.0, 100, -7, 65_537, 16_777_217, (1L << 40) + 4096, 1e30};
    for (double v : integral) {
      h.add(t += 15_000, v);
      assertThat(Double.doubleToRawLongBits(h.value(h.size() - 1)))
          .as("%s", v).isEqualTo(Double.doubleToRawLongBits((float) v));
    }
  }

  @Test
  void aJobScopedSeriesKeepsItsFractionalValuesAtAFloatsPrecision() {
    // the checkpoint age: seconds from two millisecond timestamps, past the 64 s below which
    // 16 bits would still hold the millisecond
    RecentHistory h = new RecentHistory(Signal.CHECKPOINT_AGE, "job");
    long t = 1_796_000_000_000L;
    for (int i = 0; i < 100; i++) {
      double age = (60_000 + 1_001L * i) / 1000.0;
      h.add(t += 1_000, age);
      assertThat(h.value(h.size() - 1)).isEqualTo((float) age);
    }
  }

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

  @Test
  void keepsEpochTimesExactOverMonthsOfSparsePoints() {
    // times are stored as int offsets from a moving base: weeks of epoch-millisecond times,
    // gaps longer than an int of milliseconds, must still come back to the millisecond
    RecentHistory h = new RecentHistory(Signal.CHECKPOINT_SIZE, "job");
    long t = 1_796_000_000_123L;
    for (int i = 0; i < 40; i++) {
      t += i % 5 == 0 ? 30L * 24 * 3_600_000 + 7 : 1_000_003;
      h.add(t, i + 0.25);
      assertThat(h.timeMs(h.size() - 1)).isEqualTo(t);
      assertThat(h.value(h.size() - 1)).isEqualTo(i + 0.25);
    }
    assertThat(h.size()).isEqualTo(5); // the last gap of 30 days expired everything before it
    for (int i = 1; i < h.size(); i++) {
      assertThat(h.timeMs(i) - h.timeMs(i - 1)).isEqualTo(1_000_003);
    }
  }

  @Test
  void aPositionNamesTheSamePointUntilTheLayoutChanges() {
    // Readers keep results over runs of positions across diagnoses: a point must keep its
    // position while it stays, and anything else (thinning, a rebase dropping points) must
    // change the layout version.
    java.util.Random rnd = new java.util.Random(11);
    for (int round = 0; round < 4; round++) {
      RecentHistory h = new RecentHistory(Signal.BUSY, "task:a/0");
      java.util.Map<Long, double[]> seen = new java.util.HashMap<>();
      long seenLayout = h.layoutVersion();
      long lastFirst = h.firstPosition();
      long t = 1_796_000_000_000L;
      int layoutChanges = 0;
      for (int i = 0; i < 2500; i++) {
        int dice = rnd.nextInt(1000);
        long at;
        if (dice == 0) {
          at = t - 30L * 24 * 3_600_000; // too far out of order for an int offset: a rebase
        } else {
          t += dice < 5 ? RecentHistory.SPAN_MS / 2 : 1_000 + rnd.nextInt(30_000);
          at = t;
        }
        h.add(at, rnd.nextInt(5) == 0 ? Double.NaN : rnd.nextGaussian());
        assertThat(h.firstPosition()).isGreaterThanOrEqualTo(lastFirst);
        lastFirst = h.firstPosition();
        if (h.layoutVersion() != seenLayout) {
          seen.clear();
          seenLayout = h.layoutVersion();
          layoutChanges++;
        }
        for (int k = 0; k < h.size(); k++) {
          double[] point = {h.timeMs(k), h.value(k)};
          double[] before = seen.putIfAbsent(h.firstPosition() + k, point);
          if (before != null) {
            assertThat(point).containsExactly(before);
          }
        }
        seen.keySet().removeIf(p -> p < h.firstPosition());
      }
      assertThat(layoutChanges).isPositive();
    }
  }
}
