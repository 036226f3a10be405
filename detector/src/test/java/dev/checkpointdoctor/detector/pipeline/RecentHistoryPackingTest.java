package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Signal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The packed history holds exactly what the plain layout held (values rounded to float): the same
 * points at the same positions with the same layout versions, whatever the times and values.
 */
class RecentHistoryPackingTest {

  /** A value of one of the shapes observations have, drawn from {@code rnd}. */
  static double value(Random rnd, int kind, int i) {
    return switch (kind) {
      case 0 -> 1234.5678 * (1 + 0.1 * rnd.nextGaussian()); // noisy
      case 1 -> 100 + rnd.nextInt(5); // a small integral gauge
      case 2 -> 0; // an idle gauge
      case 3 -> (1L << 40) + 4096L * rnd.nextInt(1000); // bytes
      case 4 -> i; // a counter
      default -> switch (rnd.nextInt(6)) { // anything at all
        case 0 -> Double.NaN;
        case 1 -> Double.POSITIVE_INFINITY;
        case 2 -> -rnd.nextDouble() * 1e-30;
        case 3 -> -0.0;
        case 4 -> rnd.nextLong();
        default -> Double.longBitsToDouble(rnd.nextLong());
      };
    };
  }

  @Test
  void packedHistoryMatchesThePlainLayoutPointForPoint() {
    Random rnd = new Random(20261203);
    for (int run = 0; run < 60; run++) {
      int kind = run % 6;
      RecentHistory packed = new RecentHistory(Signal.BUSY, "task:a/0");
      ReferenceHistory plain = new ReferenceHistory(Signal.BUSY, "task:a/0");
      long t = 1_796_000_000_000L + rnd.nextInt(1_000_000);
      int jitter = run % 3 == 0 ? 0 : 1 + rnd.nextInt(run % 3 == 1 ? 20 : 5_000);
      for (int i = 0; i < 3_000; i++) {
        int dice = rnd.nextInt(1000);
        long at;
        if (dice == 0) {
          at = t - 30L * 24 * 3_600_000; // too far out of order for an int offset: a rebase
        } else if (dice < 4) {
          at = t - rnd.nextInt(60_000); // a little out of order
        } else {
          t += dice < 8 ? RecentHistory.SPAN_MS / 3 : 15_000 + rnd.nextInt(jitter + 1);
          at = t;
        }
        double v = value(rnd, kind, i);
        packed.add(at, v);
        plain.add(at, v);
        assertThat(packed.size()).isEqualTo(plain.size());
        assertThat(packed.firstPosition()).isEqualTo(plain.firstPosition());
        assertThat(packed.layoutVersion()).isEqualTo(plain.layoutVersion());
        boolean all = i % 97 == 0;
        for (int k = 0; k < (all ? plain.size() : 3); k++) {
          int j = all ? k : rnd.nextInt(plain.size());
          assertThat(packed.timeMs(j)).as("time %d after %d adds", j, i)
              .isEqualTo(plain.timeMs(j));
          assertThat(Double.doubleToLongBits(packed.value(j))).as("value %d after %d adds", j, i)
              .isEqualTo(Double.doubleToLongBits(plain.value(j)));
        }
      }
    }
  }

  @Test
  void aSparseSeriesWhosePointsExpireFromItsPartBlocksMatchesThePlainLayout() {
    // every 3 to 7 minutes: 17 to 40 points within the span, so points expire from part blocks
    // and from the open block while there is no whole block, or only one
    Random rnd = new Random(11);
    for (int kind = 0; kind < 6; kind++) {
      RecentHistory packed = new RecentHistory(Signal.BUSY, "task:a/0");
      ReferenceHistory plain = new ReferenceHistory(Signal.BUSY, "task:a/0");
      long t = 1_796_000_000_000L;
      for (int i = 0; i < 2_000; i++) {
        t += 180_000 + rnd.nextInt(i % 400 < 200 ? 1 : 240_000);
        double v = value(rnd, kind, i);
        packed.add(t, v);
        plain.add(t, v);
        assertThat(packed.size()).isEqualTo(plain.size());
        assertThat(packed.firstPosition()).isEqualTo(plain.firstPosition());
        for (int j = 0; j < plain.size(); j++) {
          assertThat(packed.timeMs(j)).as("time %d after %d adds", j, i)
              .isEqualTo(plain.timeMs(j));
          assertThat(Double.doubleToLongBits(packed.value(j))).as("value %d after %d adds", j, i)
              .isEqualTo(Double.doubleToLongBits(plain.value(j)));
        }
      }
    }
  }

  @Test
  void aFullHistoryOfRegularScrapesTakesAFractionOfThePlainLayout() {
    // the plain layout held 12 bytes a point: 3 KiB when full
    Random rnd = new Random(5);
    int[] kinds = {0, 1, 2};
    // 224 points: 7 whole blocks; the open block's arrays hold 8 points (32 before part blocks:
    // 190 bytes more)
    // noisy values keep 16 significant bits (~14 differing from a block's first value, ~22 before)
    int[] limits = {1_000, 700, 600};
    for (int k = 0; k < kinds.length; k++) {
      RecentHistory h = new RecentHistory(Signal.BUSY, "task:a/0");
      long t = 1_796_000_000_000L;
      for (int i = 0; i < 2_000; i++) {
        t += 15_000 + rnd.nextInt(7); // Prometheus' scrape timestamps jitter by milliseconds
        h.add(t, value(rnd, kinds[k], i));
      }
      assertThat(h.size()).isGreaterThan(RecentHistory.CAPACITY / 2);
      System.out.printf("kind %d: %d points, %d bytes%n", kinds[k], h.size(), h.arrayBytes());
      assertThat(h.arrayBytes()).as("bytes of kind %d", kinds[k]).isLessThan(limits[k]);
    }
  }
}
