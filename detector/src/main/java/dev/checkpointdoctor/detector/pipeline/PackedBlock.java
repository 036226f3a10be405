package dev.checkpointdoctor.detector.pipeline;

/**
 * {@link #POINTS} (or fewer) (time, value) points packed into longs, each readable on its own.
 * Two header words: the first time and the step of a straight line through the first and last
 * time; the first value's float bits and the field widths. Then per point, at a fixed width: its
 * time's distance from the line (zig-zag, so small either side) and the bits its value has that
 * the first value has not (trailing bits all points share dropped). Regular scrapes take a few bits of time
 * per point, a repeated value none, an integral gauge a handful; a noisy value about 20.
 */
final class PackedBlock {
  static final int POINTS = 32;
  private static final int HEADER = 2;

  private PackedBlock() {}

  /** Words {@link #write} needs for points {@code [from, from + n)}. */
  static int words(int[] times, float[] values, int from, int n) {
    long layout = layout(times, values, from, n);
    return HEADER + (int) ((n * (long) (timeWidth(layout) + valueWidth(layout)) + 63) >>> 6);
  }

  /** Packs points {@code [from, from + n)} at {@code out[at]}; returns the words written. */
  static int write(int[] times, float[] values, int from, int n, long[] out, int at) {
    long layout = layout(times, values, from, n);
    int tw = timeWidth(layout);
    int vw = valueWidth(layout);
    int shift = valueShift(layout);
    int step = step(times, from, n);
    int used = HEADER + (int) ((n * (long) (tw + vw) + 63) >>> 6);
    java.util.Arrays.fill(out, at, at + used, 0L);
    int t0 = times[from];
    int v0 = Float.floatToRawIntBits(values[from]);
    out[at] = (long) t0 << 32 | (step & 0xffffffffL);
    out[at + 1] = (long) v0 << 32 | layout;
    long bit = 0;
    for (int j = 0; j < n; j++) {
      long residual = times[from + j] - (t0 + (long) j * step);
      put(out, at + HEADER, bit, tw, residual << 1 ^ residual >> 63);
      bit += tw;
      long diff = (Float.floatToRawIntBits(values[from + j]) ^ v0) & 0xffffffffL;
      put(out, at + HEADER, bit, vw, diff >>> shift);
      bit += vw;
    }
    return used;
  }

  /** The time (offset) of point {@code j} of the block at {@code w[at]}. */
  static int time(long[] w, int at, int j) {
    long header = w[at];
    long layout = w[at + 1] & 0xffffffffL;
    int tw = timeWidth(layout);
    long zz = get(w, at + HEADER, (long) j * (tw + valueWidth(layout)), tw);
    long residual = zz >>> 1 ^ -(zz & 1);
    return (int) ((int) (header >> 32) + (long) j * (int) header + residual);
  }

  /** The value of point {@code j} of the block at {@code w[at]}. */
  static float value(long[] w, int at, int j) {
    long second = w[at + 1];
    long layout = second & 0xffffffffL;
    int tw = timeWidth(layout);
    int vw = valueWidth(layout);
    long diff = get(w, at + HEADER, (long) j * (tw + vw) + tw, vw) << valueShift(layout);
    return Float.intBitsToFloat((int) (second >>> 32) ^ (int) diff);
  }

  /** Unpacks the {@link #POINTS} points of the block at {@code w[at]} from index {@code to} on. */
  static void decode(long[] w, int at, int[] times, float[] values, int to) {
    decode(w, at, POINTS, times, values, to);
  }

  /** Unpacks the {@code n} points of the block at {@code w[at]} from index {@code to} on. */
  static void decode(long[] w, int at, int n, int[] times, float[] values, int to) {
    long header = w[at];
    long second = w[at + 1];
    long layout = second & 0xffffffffL;
    int tw = timeWidth(layout);
    int vw = valueWidth(layout);
    int shift = valueShift(layout);
    int t0 = (int) (header >> 32);
    int step = (int) header;
    int v0 = (int) (second >>> 32);
    long bit = 0;
    for (int j = 0; j < n; j++) {
      long zz = get(w, at + HEADER, bit, tw);
      bit += tw;
      long diff = get(w, at + HEADER, bit, vw) << shift;
      bit += vw;
      times[to + j] = (int) (t0 + (long) j * step + (zz >>> 1 ^ -(zz & 1)));
      values[to + j] = Float.intBitsToFloat(v0 ^ (int) diff);
    }
  }

  private static int step(int[] times, int from, int n) {
    return n < 2 ? 0 : (int) (((long) times[from + n - 1] - times[from]) / (n - 1));
  }

  /** Time width, value width and value shift, 6 bits each. */
  private static long layout(int[] times, float[] values, int from, int n) {
    int step = step(times, from, n);
    long t0 = times[from];
    int v0 = Float.floatToRawIntBits(values[from]);
    long zzOr = 0;
    int diffOr = 0;
    for (int j = 0; j < n; j++) {
      long residual = times[from + j] - (t0 + (long) j * step);
      zzOr |= residual << 1 ^ residual >> 63;
      diffOr |= Float.floatToRawIntBits(values[from + j]) ^ v0;
    }
    int tw = 64 - Long.numberOfLeadingZeros(zzOr);
    int shift = diffOr == 0 ? 0 : Integer.numberOfTrailingZeros(diffOr);
    int vw = diffOr == 0 ? 0 : 32 - Integer.numberOfLeadingZeros(diffOr) - shift;
    return tw | (long) vw << 6 | (long) shift << 12;
  }

  private static int timeWidth(long layout) {
    return (int) (layout & 63);
  }

  private static int valueWidth(long layout) {
    return (int) (layout >>> 6 & 63);
  }

  private static int valueShift(long layout) {
    return (int) (layout >>> 12 & 63);
  }

  private static void put(long[] w, int at, long bit, int width, long value) {
    if (width == 0) {
      return;
    }
    int i = at + (int) (bit >>> 6);
    int off = (int) (bit & 63);
    w[i] |= value << off;
    if (off + width > 64) {
      w[i + 1] |= value >>> (64 - off);
    }
  }

  private static long get(long[] w, int at, long bit, int width) {
    if (width == 0) {
      return 0;
    }
    int i = at + (int) (bit >>> 6);
    int off = (int) (bit & 63);
    long v = w[i] >>> off;
    if (off + width > 64) {
      v |= w[i + 1] << (64 - off);
    }
    return width == 64 ? v : v & ((1L << width) - 1);
  }
}
