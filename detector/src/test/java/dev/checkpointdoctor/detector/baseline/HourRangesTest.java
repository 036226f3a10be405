package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class HourRangesTest {

  @Test
  void everyRangeComesBackAsWideOrWiderByAtMostAGridStepAndEveryHourInPlace() {
    Random r = new Random(7);
    for (int run = 0; run < 300; run++) {
      int newest = 400_000 + r.nextInt(1000);
      int n = r.nextInt(HourRangesTestLimits.MAX + 1);
      int[] hours = new int[n];
      float[] lows = new float[n];
      float[] highs = new float[n];
      // distinct hours within 191 before the newest, in order
      int h = newest - SeasonalEnvelope.SLOTS + 1 + r.nextInt(5);
      int k = 0;
      while (k < n && h < newest) {
        hours[k] = h;
        lows[k] = value(r, k == 0 ? 0 : lows[k - 1]);
        highs[k] = value(r, k == 0 ? 0 : highs[k - 1]);
        k++;
        h += r.nextInt(8) == 0 ? 1 + r.nextInt(40) : 1;
      }
      n = k;
      HourRanges.Unpacked u = HourRanges.unpack(HourRanges.EMPTY, newest);
      for (int i = 0; i < n; i++) {
        u.add(hours[i], lows[i], highs[i]);
      }
      byte[] packed = HourRanges.pack(u, newest);
      HourRanges.Unpacked back = HourRanges.unpack(packed, newest);
      assertThat(back.size).isEqualTo(n);
      for (int i = 0; i < n; i++) {
        assertThat(back.hours[i]).isEqualTo(hours[i]);
        if (lows[i] > -Float.MAX_VALUE * (1 - 0x1p-12f)) {
          assertThat(back.lows[i]).isLessThanOrEqualTo(lows[i]);
          assertThat((double) lows[i] - back.lows[i]).isLessThanOrEqualTo(step(lows[i]));
        }
        if (highs[i] < Float.MAX_VALUE * (1 - 0x1p-12f)) {
          assertThat(back.highs[i]).isGreaterThanOrEqualTo(highs[i]);
          assertThat((double) back.highs[i] - highs[i]).isLessThanOrEqualTo(step(highs[i]));
        }
      }
      // what came back is on the grid: packed again, it is the same bytes
      assertThat(HourRanges.pack(back, newest)).isEqualTo(packed);
    }
  }

  @Test
  void aRepeatedRangeTakesAFewBitsAnHourANoisyOneAThirdOfItsFloats() {
    int newest = 500_000;
    HourRanges.Unpacked u = HourRanges.unpack(HourRanges.EMPTY, newest);
    for (int i = 0; i < 191; i++) {
      u.add(newest - 191 + i, 100, 142);
    }
    // 3 bits an hour (consecutive, min and max as before): ~80 bytes, not 191 x 8 as floats
    assertThat(HourRanges.pack(u, newest).length).isLessThan(100);

    Random r = new Random(3);
    u = HourRanges.unpack(HourRanges.EMPTY, newest);
    for (int i = 0; i < 191; i++) {
      u.add(newest - 191 + i, 90 + r.nextFloat(), 130 + r.nextFloat());
    }
    // the noise below the grid is not kept: about 20 bits an hour instead of 64
    assertThat(HourRanges.pack(u, newest).length).isLessThan(191 * 3);
  }

  @Test
  void integersUpTo8192AndTheirNegativesComeBackExactly() {
    int newest = 300_000;
    HourRanges.Unpacked u = HourRanges.unpack(HourRanges.EMPTY, newest);
    for (int i = 0; i < 180; i++) {
      u.add(newest - 180 + i, -8192 + 91 * i, 8192 - 45 * i);
    }
    HourRanges.Unpacked back = HourRanges.unpack(HourRanges.pack(u, newest), newest);
    for (int i = 0; i < 180; i++) {
      assertThat(back.lows[i]).isEqualTo(-8192 + 91 * i);
      assertThat(back.highs[i]).isEqualTo(8192 - 45 * i);
    }
  }

  /** The grid's step at {@code v}: 2^-12 of its binade (0 within the smallest ones). */
  private static double step(float v) {
    return Math.max((double) Math.ulp(v) * (1 << HourRanges.DROPPED), Float.MIN_NORMAL);
  }

  /** Bits of all kinds: repeats, near neighbours, other exponents, signs, zeros, extremes. */
  private static float value(Random r, float previous) {
    switch (r.nextInt(8)) {
      case 0:
        return previous;
      case 1:
        return previous == Float.MAX_VALUE ? previous : Math.nextUp(previous); // finite, as kept
      case 2:
        return r.nextBoolean() ? 0.0f : -0.0f;
      case 3:
        return r.nextBoolean() ? Float.MAX_VALUE : -Float.MIN_VALUE;
      case 4:
        return Float.intBitsToFloat(r.nextInt() & 0x7f7fffff | (r.nextBoolean() ? 0x80000000 : 0));
      case 5:
        return r.nextInt(1000);
      default:
        return (float) (r.nextGaussian() * 1e3);
    }
  }

  private static final class HourRangesTestLimits {
    static final int MAX = SeasonalEnvelope.SLOTS - 1;
  }
}
