package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The baseline keeps its window ordered and its weight sums updated incrementally; these streams
 * check every band against the definition computed from scratch (copy the window, sort it,
 * accumulate the weights), through growth of the arrays, wrap-around of the ring, ties,
 * out-of-order timestamps, level shifts, long gaps and snapshots. The window holds the floats
 * nearest the learned values, so the definition is computed from those.
 */
class RobustBaselineIncrementalTest {
  static final long T0 = 1_700_000_000_000L;

  @Test
  void everyBandEqualsTheDefinitionComputedFromScratch() throws IOException {
    // 256 is the largest window whose order fits unsigned bytes, 257 and 300 take shorts
    for (int window : new int[] {3, 5, 8, 17, 120, 256, 257}) {
      for (long seed = 1; seed <= (window > 120 ? 1 : 6); seed++) {
        check(window, seed);
      }
    }
  }

  private static void check(int window, long seed) throws IOException {
    DetectorSettings s = RobustBaselineTest.settings(3, window, Duration.ofMinutes(20));
    RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
    Deque<long[]> reference = new ArrayDeque<>(); // {ts, doubleBits, arrival}, oldest first
    Random r = new Random(seed * 31 + window);
    long ts = T0;
    long last = Long.MIN_VALUE;
    for (int i = 0; i < 3 * window + 40; i++) {
      // mostly advancing, sometimes repeated or older timestamps; values with many ties, or one
      // value with rare others (long runs of ties on both sides of the median)
      int step = r.nextInt(10);
      ts += step < 6 ? 15_000 + r.nextInt(50) : step < 8 ? 0 : -r.nextInt(200_000);
      double v = seed % 3 == 0 ? (r.nextInt(12) == 0 ? r.nextInt(3) * 50.0 : 50.0)
          : seed % 2 == 0 ? r.nextInt(6) * 2.5 : 300 + 40 * r.nextGaussian();
      b.learn(ts, v);
      last = Math.max(last, ts);
      reference.addLast(new long[] {ts, Double.doubleToLongBits(v), i});
      if (reference.size() > window) {
        reference.removeFirst();
      }
      Band expected = fromScratch(reference, last, s, Signal.CHECKPOINT_DURATION.absoluteFloor());
      assertThat(b.band()).as("window %d seed %d step %d", window, seed, i).isEqualTo(expected);
      if (i % 7 == 3) {
        b = roundTrip(b, s);
        assertThat(b.band()).isEqualTo(expected);
      }
    }
  }

  @Test
  void longStreamsWithShiftsAndGapsKeepEveryBandExact() {
    // Prefix sums are updated in place between exact rebuilds and weights are relative to an
    // epoch that moves: thousands of steps, level shifts (the MAD search must move far from the
    // previous MAD, both ways) and gaps of hundreds of half-lives (the epoch must move first).
    DetectorSettings s = RobustBaselineTest.settings(3, 120, Duration.ofMinutes(5));
    RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
    Deque<long[]> reference = new ArrayDeque<>();
    Random r = new Random(11);
    long ts = T0;
    long last = Long.MIN_VALUE;
    for (int i = 0; i < 4000; i++) {
      int phase = i / 300 % 4;
      // gaps of up to 1,440 half-lives: a weight relative to an unmoved epoch would overflow
      ts += i % 997 == 500 ? 3 * 3_600_000L * (1 + r.nextInt(40)) : 15_000 + r.nextInt(20);
      double v = switch (phase) {
        case 0 -> 200 + 5 * r.nextGaussian();
        case 1 -> 20_000 + 4_000 * r.nextGaussian();
        case 2 -> r.nextInt(4);
        default -> r.nextBoolean() ? 1e6 : -1e6 + r.nextInt(3);
      };
      b.learn(ts, v);
      last = Math.max(last, ts);
      reference.addLast(new long[] {ts, Double.doubleToLongBits(v), i});
      if (reference.size() > 120) {
        reference.removeFirst();
      }
      assertThat(b.band()).as("step %d", i).isEqualTo(
          fromScratch(reference, last, s, Signal.CHECKPOINT_DURATION.absoluteFloor()));
    }
  }

  @Test
  void windowsSpanningMoreThanAnIntOfMillisecondsKeepExactTimes() throws IOException {
    // Times are kept as deltas of deltas: windows spanning days and more than an int of
    // milliseconds, far from T0, where the deltas wrap around as longs.
    long[] starts = {T0, -T0, Long.MAX_VALUE / 2, Long.MIN_VALUE / 2};
    for (long start : starts) {
      DetectorSettings s = RobustBaselineTest.settings(3, 8, Duration.ofDays(30));
      RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
      Deque<long[]> reference = new ArrayDeque<>();
      Random r = new Random(start);
      long ts = start;
      long last = Long.MIN_VALUE;
      for (int i = 0; i < 200; i++) {
        // days apart at first (the base moves), then one 40-day gap (longs), then minutes
        ts += i < 60 ? 86_400_000L * (1 + r.nextInt(9)) : i == 60 ? 40 * 86_400_000L
            : 60_000L * (1 + r.nextInt(5));
        double v = 100 + r.nextInt(50);
        b.learn(ts, v);
        last = Math.max(last, ts);
        reference.addLast(new long[] {ts, Double.doubleToLongBits(v), i});
        if (reference.size() > 8) {
          reference.removeFirst();
        }
        assertThat(b.band()).as("start %d step %d", start, i).isEqualTo(
            fromScratch(reference, last, s, Signal.CHECKPOINT_DURATION.absoluteFloor()));
        assertThat(b.lastTimestamp()).isEqualTo(last);
        if (i % 13 == 5) {
          b = roundTrip(b, s); // writes the times back as longs
          assertThat(b.band()).isEqualTo(
              fromScratch(reference, last, s, Signal.CHECKPOINT_DURATION.absoluteFloor()));
        }
      }
    }
  }

  @Test
  void valuesNoFloatHoldsAreKeptAsTheNearestFloat() throws IOException {
    // integral values (floats hold them exactly) through growth and wrap-around of the ring,
    // then values only a double holds: the bands are those of the nearest floats, also after a
    // snapshot
    for (int window : new int[] {5, 17, 120}) {
      DetectorSettings s = RobustBaselineTest.settings(3, window, Duration.ofMinutes(20));
      RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
      Deque<long[]> reference = new ArrayDeque<>();
      Random r = new Random(window);
      long ts = T0;
      int fractionalFrom = 2 * window + 3;
      for (int i = 0; i < 3 * window + 20; i++) {
        ts += 15_000;
        double v = i < fractionalFrom ? (i % 3 == 0 ? -0.0 : 16_777_216 - r.nextInt(5))
            : r.nextInt(4) + 0.1 + r.nextGaussian() * 1e-3;
        b.learn(ts, v);
        reference.addLast(new long[] {ts, Double.doubleToLongBits(v), i});
        if (reference.size() > window) {
          reference.removeFirst();
        }
        Band expected = fromScratch(reference, ts, s, Signal.CHECKPOINT_DURATION.absoluteFloor());
        assertThat(b.band()).as("window %d step %d", window, i).isEqualTo(expected);
        if (i >= fractionalFrom) {
          assertThat((double) (float) b.band().expected()).isEqualTo(b.band().expected());
        }
        if (i % 11 == 4) {
          b = roundTrip(b, s);
          assertThat(b.band()).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void aValueBeyondAFloatsRangeIsKeptAsTheLargestFloatNotAsAnInfinity() {
    DetectorSettings s = RobustBaselineTest.settings(3, 8, Duration.ofMinutes(20));
    RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
    b.learn(T0, 1e39);
    b.learn(T0 + 1, -1e300);
    b.learn(T0 + 2, 2e39);
    Band band = b.band();
    assertThat(band.expected()).isEqualTo(Float.MAX_VALUE);
    assertThat(band.spread()).isFinite();
    assertThat(b.windowCount()).isEqualTo(3);
  }

  @Test
  void aLongRunningBaselineKeepsItsRegularTimesInAByteEach() {
    DetectorSettings s = RobustBaselineTest.settings(3, 8, Duration.ofDays(3));
    RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
    Deque<long[]> reference = new ArrayDeque<>();
    long ts = T0;
    for (int i = 0; i < 60 * 24 * 60; i++) { // 60 days, once a minute
      ts += 60_000;
      double v = 100 + i % 7;
      b.learn(ts, v);
      reference.addLast(new long[] {ts, Double.doubleToLongBits(v), i});
      if (reference.size() > 8) {
        reference.removeFirst();
      }
    }
    // once a minute exactly: each time differs from the previous distance by 0
    assertThat(b.timeBytes()).isEqualTo(7);
    assertThat(b.band()).isEqualTo(
        fromScratch(reference, ts, s, Signal.CHECKPOINT_DURATION.absoluteFloor()));
  }

  @Test
  @org.junit.jupiter.api.Timeout(value = 10, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void aWindowWhoseWeightsAllUnderflowTakesItsSmallestValue() throws IOException {
    // One observation far in the future, then a window of observations thousands of half-lives
    // older than it: every weight is 0, W/2 = 0, and the definition takes the first value and
    // the first deviation; the search for the MAD must stop with an empty run too.
    DetectorSettings s = RobustBaselineTest.settings(3, 5, Duration.ofMinutes(1));
    RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
    Deque<long[]> reference = new ArrayDeque<>();
    long future = T0 + 100 * 24 * 3_600_000L;
    long[] times = {future, T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5, T0 + 6};
    double[] values = {7, 3, 9, 3, 5, 1, 8, 2};
    for (int i = 0; i < times.length; i++) {
      b.learn(times[i], values[i]);
      reference.addLast(new long[] {times[i], Double.doubleToLongBits(values[i]), i});
      if (reference.size() > 5) {
        reference.removeFirst();
      }
      assertThat(b.band()).as("step %d", i).isEqualTo(
          fromScratch(reference, future, s, Signal.CHECKPOINT_DURATION.absoluteFloor()));
    }
  }

  @Test
  void baselinesSharingTimestampsEachGetTheirOwnBand() {
    // Baselines share one thread's memo of weights by age: interleave baselines whose windows
    // are equal, differ in one timestamp, in length, or only in half-life.
    DetectorSettings fast = RobustBaselineTest.settings(3, 17, Duration.ofMinutes(20));
    DetectorSettings slow = RobustBaselineTest.settings(3, 17, Duration.ofMinutes(45));
    DetectorSettings[] settings = {fast, fast, fast, slow, fast};
    RobustBaseline[] b = new RobustBaseline[settings.length];
    @SuppressWarnings("unchecked")
    Deque<long[]>[] reference = new Deque[settings.length];
    long[] last = new long[settings.length];
    for (int k = 0; k < b.length; k++) {
      b[k] = new RobustBaseline(Signal.CHECKPOINT_DURATION, settings[k]);
      reference[k] = new ArrayDeque<>();
      last[k] = Long.MIN_VALUE;
    }
    Random r = new Random(5);
    long ts = T0;
    int[] arrivals = new int[b.length];
    for (int i = 0; i < 80; i++) {
      ts += 15_000;
      for (int k = 0; k < b.length; k++) {
        if (k == 4 && i % 9 == 4) {
          continue; // misses a scrape now and then: a shorter, then a shifted window
        }
        // one timestamp far off now and then; two clusters, so the weights decide the median
        long t = k == 2 && i % 3 == 0 ? ts - 900_000 : ts;
        double v = (r.nextBoolean() ? 300 : 500) + 10 * r.nextGaussian();
        b[k].learn(t, v);
        last[k] = Math.max(last[k], t);
        reference[k].addLast(new long[] {t, Double.doubleToLongBits(v), arrivals[k]++});
        if (reference[k].size() > 17) {
          reference[k].removeFirst();
        }
      }
      for (int k = 0; k < b.length; k++) {
        assertThat(b[k].band()).as("baseline %d step %d", k, i).isEqualTo(
            fromScratch(reference[k], last[k], settings[k], Signal.CHECKPOINT_DURATION
                .absoluteFloor()));
      }
    }
  }

  @Test
  void aWindowOfOneValueGetsTheBandTheWeightsGive() {
    double[] levels = {0.0, -0.0, 5.0, -3.25, 1e-310, Double.MAX_VALUE, -Double.MAX_VALUE};
    for (int window : new int[] {3, 4, 120}) {
      for (double level : levels) {
        DetectorSettings s = RobustBaselineTest.settings(3, window, Duration.ofMinutes(20));
        RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
        // other values first, so the window holds one value only once they are evicted
        for (int i = 0; i < 3 * window + 3; i++) {
          double v = i < window ? 100 + i : level;
          b.learn(T0 + i * 15_000L, v);
          assertThat(b.band()).as("window %d level %s step %d", window, level, i)
              .isEqualTo(b.weightedBand());
        }
        assertThat(Double.doubleToRawLongBits(b.band().expected()))
            .isEqualTo(Double.doubleToRawLongBits(kept(level)));
        assertThat(b.band().spread()).isEqualTo(0.0);
      }
    }
  }

  @Test
  void zerosOfBothSignsTakeTheWeightedMedian() {
    // 0.0 == -0.0, yet the median is one of the two doubles: which one the weights decide
    DetectorSettings s = RobustBaselineTest.settings(3, 5, Duration.ofMinutes(20));
    for (int pattern = 0; pattern < 32; pattern++) {
      RobustBaseline b = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
      for (int i = 0; i < 5; i++) {
        b.learn(T0 + i * 60_000L, (pattern >> i & 1) == 0 ? 0.0 : -0.0);
        Band band = b.band();
        assertThat(band).as("pattern %d step %d", pattern, i).isEqualTo(b.weightedBand());
      }
    }
  }

  private static RobustBaseline roundTrip(RobustBaseline b, DetectorSettings s)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    b.writeTo(new DataOutputStream(bytes));
    return RobustBaseline.readFrom(new DataInputStream(new ByteArrayInputStream(
        bytes.toByteArray())), Signal.CHECKPOINT_DURATION, s);
  }

  /** The class comment's definition, step by step, with a full sort. */
  private static Band fromScratch(Deque<long[]> window, long last, DetectorSettings s,
      double floor) {
    int n = window.size();
    double halfLifeMs = s.halfLife().toMillis();
    double[][] pairs = new double[n][];
    long[][] slots = ringSlots(window, s.windowSize());
    double total = 0;
    for (int i = 0; i < n; i++) {
      double age = Math.max(0.0, (double) last - (double) slots[i][0]);
      double w = Math.pow(2.0, -age / halfLifeMs);
      total += w;
      pairs[i] = new double[] {kept(Double.longBitsToDouble(slots[i][1])), w};
    }
    double median = weightedMedian(pairs, total);
    double[][] dev = new double[n][];
    for (int i = 0; i < n; i++) {
      dev[i] = new double[] {Math.abs(pairs[i][0] - median), pairs[i][1]};
    }
    double spread = RobustBaseline.MAD_TO_SIGMA * weightedMedian(dev, total);
    double h = Math.max(s.bandWidth() * spread, Math.max(s.relativeFloor() * Math.abs(median),
        floor));
    return new Band(median, median - h, median + h, spread);
  }

  /** The float nearest a learned value, the largest float of its sign beyond their range. */
  static double kept(double learned) {
    if (Math.abs(learned) > Float.MAX_VALUE) {
      return Math.copySign(Float.MAX_VALUE, learned);
    }
    return (float) learned;
  }

  private static long[][] ringSlots(Deque<long[]> window, int windowSize) {
    // W is a floating-point sum, so it must be summed in the same order: by ring slot
    long[][] bySlot = window.toArray(new long[0][]);
    Arrays.sort(bySlot, Comparator.comparingLong(e -> e[2] % windowSize));
    return bySlot;
  }

  private static double weightedMedian(double[][] pairs, double total) {
    double[][] sorted = pairs.clone();
    Arrays.sort(sorted, Comparator.comparingDouble(p -> p[0]));
    double cumulative = 0;
    for (double[] p : sorted) {
      cumulative += p[1];
      if (cumulative >= total / 2) {
        return p[0];
      }
    }
    return sorted[sorted.length - 1][0];
  }
}
