package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PackedTimesTest {

  @Test
  void givesBackEveryTimeInOrderThroughEvictionsAndExtremeJumps() {
    long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, Long.MIN_VALUE, 1, Long.MAX_VALUE};
    Random r = new Random(7);
    PackedTimes packed = new PackedTimes();
    Deque<Long> reference = new ArrayDeque<>();
    long t = 1_700_000_000_000L;
    for (int i = 0; i < 20_000; i++) {
      int kind = r.nextInt(20);
      t = kind == 0 ? extremes[r.nextInt(extremes.length)]
          : kind == 1 ? t - r.nextInt(1_000_000) : t + 15_000 + r.nextInt(40) - 20;
      packed.add(t);
      reference.addLast(t);
      int window = 1 + i / 1000 % 130;
      while (reference.size() > window) {
        assertThat(packed.removeFirst()).isEqualTo(reference.removeFirst());
      }
      assertThat(packed.size()).isEqualTo(reference.size());
      if (i % 17 == 0) {
        long[] out = new long[packed.size()];
        packed.copyTo(out);
        assertThat(out).containsExactly(reference.stream().mapToLong(Long::longValue).toArray());
      }
      if (i % 4999 == 4998) {
        packed.clear();
        reference.clear();
      }
    }
  }

  @Test
  void regularScrapesTakeAByteEach() {
    PackedTimes packed = new PackedTimes();
    long t = 1_700_000_000_000L;
    Random r = new Random(3);
    for (int i = 0; i < 1000; i++) {
      t += 15_000 + r.nextInt(41) - 20; // jitter of +-20 ms
      packed.add(t);
      if (packed.size() > 120) {
        packed.removeFirst();
      }
    }
    assertThat(packed.usedBytes()).isEqualTo(119);
  }

  @Test
  void aCopyMatchesEqualTimesOnly() {
    PackedTimes a = new PackedTimes();
    PackedTimes b = new PackedTimes();
    PackedTimes.Copy copy = new PackedTimes.Copy();
    for (long t : new long[] {1000, 16_000, 31_000, 46_001}) {
      a.add(t);
      b.add(t);
    }
    a.saveTo(copy);
    assertThat(b.matches(copy)).isTrue();
    // the same entries after the first time, but another first time and distance
    b.removeFirst();
    a.removeFirst();
    a.saveTo(copy);
    PackedTimes c = new PackedTimes();
    for (long t : new long[] {16_000, 31_000, 46_001}) {
      c.add(t);
    }
    assertThat(b.matches(copy)).isTrue();
    assertThat(c.matches(copy)).isFalse(); // equal times, but c's first distance is 0: no match
    b.add(61_000);
    assertThat(b.matches(copy)).isFalse();
    a.add(61_001);
    a.saveTo(copy);
    assertThat(b.matches(copy)).isFalse();
  }
}
