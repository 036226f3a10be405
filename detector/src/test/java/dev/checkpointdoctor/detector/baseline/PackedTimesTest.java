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
      packed.addTime(t);
      reference.addLast(t);
      int window = 1 + i / 1000 % 130;
      while (reference.size() > window) {
        assertThat(packed.removeFirstTime()).isEqualTo(reference.removeFirst());
      }
      assertThat(packed.timeCount()).isEqualTo(reference.size());
      if (i % 17 == 0) {
        long[] out = new long[packed.timeCount()];
        packed.copyTimesTo(out);
        assertThat(out).containsExactly(reference.stream().mapToLong(Long::longValue).toArray());
      }
      if (i % 4999 == 4998) {
        packed.clearTimes();
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
      packed.addTime(t);
      if (packed.timeCount() > 120) {
        packed.removeFirstTime();
      }
    }
    assertThat(packed.timeBytesUsed()).isEqualTo(119);
    // a window that stays full keeps little slack beyond its bytes
    assertThat(packed.timeCapacity()).isLessThanOrEqualTo(119 + 1 + 8);
  }

  @Test
  void aCopyMatchesEqualTimesOnly() {
    PackedTimes a = new PackedTimes();
    PackedTimes b = new PackedTimes();
    PackedTimes.Copy copy = new PackedTimes.Copy();
    for (long t : new long[] {1000, 16_000, 31_000, 46_001}) {
      a.addTime(t);
      b.addTime(t);
    }
    a.saveTimesTo(copy);
    assertThat(b.timesMatch(copy)).isTrue();
    // the same entries after the first time, but another first time and distance
    b.removeFirstTime();
    a.removeFirstTime();
    a.saveTimesTo(copy);
    PackedTimes c = new PackedTimes();
    for (long t : new long[] {16_000, 31_000, 46_001}) {
      c.addTime(t);
    }
    assertThat(b.timesMatch(copy)).isTrue();
    assertThat(c.timesMatch(copy)).isFalse(); // equal times, but c's first distance is 0: no match
    b.addTime(61_000);
    assertThat(b.timesMatch(copy)).isFalse();
    a.addTime(61_001);
    a.saveTimesTo(copy);
    assertThat(b.timesMatch(copy)).isFalse();
  }
}
