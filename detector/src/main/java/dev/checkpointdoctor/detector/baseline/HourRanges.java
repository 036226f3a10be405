package dev.checkpointdoctor.detector.baseline;

/**
 * A list of hourly ranges (hour, min, max), oldest hour first, packed into bytes: the completed
 * hours of a {@link SeasonalEnvelope}. Hours are written as the gap from the previous one
 * (consecutive hours take a bit). A min is rounded down and a max up to 13 significant bits
 * ({@link #DROPPED}): a range only ever widens, by at most 1/4096 of its value, and the low bits
 * of a noisy value, which no encoding shrinks, are not kept. Each is then written as the
 * difference from the previous hour's min or max, counted in steps of that grid (the same value
 * again takes a bit, a near one a few). Values up to 8192 that are integers, and any value already on the grid,
 * come back unchanged; a max within 1/4096 of the largest float saturates at the grid's largest.
 *
 * <p>Read and written whole, through a per-thread {@link Unpacked} scratch: an envelope unpacks
 * its hours once per hour of event time (when an hour completes, and to answer the questions of
 * a new hour), not per observation.
 */
final class HourRanges {
  static final byte[] EMPTY = new byte[0];
  /**
   * Low mantissa bits dropped from each min (rounding it down) and max (rounding it up): 12 of a
   * float's 24 bits are kept, a range is widened by at most 1/4096 of its value. Far below the
   * slack the questions allow (at least a twentieth of the value: {@link SignalTracker}), and
   * noise in the low bits costs bits in every hour.
   */
  static final int DROPPED = 11;

  private HourRanges() {}

  /** The hours of a packed list, in a per-thread scratch (valid until the next unpack). */
  static final class Unpacked {
    int size;
    int[] hours = new int[SeasonalEnvelope.SLOTS + 1];
    float[] lows = new float[SeasonalEnvelope.SLOTS + 1];
    float[] highs = new float[SeasonalEnvelope.SLOTS + 1];
    // worst case per hour: a 32-bit gap flag and 8 bits, then twice 2 + 10 + 32 bits
    final long[] bits = new long[(SeasonalEnvelope.SLOTS + 1) * 97 / 64 + 4];

    void add(int hour, float lo, float hi) {
      hours[size] = hour;
      lows[size] = lo;
      highs[size] = hi;
      size++;
    }

    /** Inserts or widens {@code hour} (hours stay in order); false when nothing changed. */
    boolean widen(int hour, float lo, float hi) {
      int at = 0;
      while (at < size && hours[at] < hour) {
        at++;
      }
      if (at < size && hours[at] == hour) {
        float l = Math.min(lows[at], lo);
        float h = Math.max(highs[at], hi);
        if (Float.floatToRawIntBits(l) == Float.floatToRawIntBits(lows[at])
            && Float.floatToRawIntBits(h) == Float.floatToRawIntBits(highs[at])) {
          return false;
        }
        lows[at] = l;
        highs[at] = h;
        return true;
      }
      System.arraycopy(hours, at, hours, at + 1, size - at);
      System.arraycopy(lows, at, lows, at + 1, size - at);
      System.arraycopy(highs, at, highs, at + 1, size - at);
      hours[at] = hour;
      lows[at] = lo;
      highs[at] = hi;
      size++;
      return true;
    }

    /** Drops every hour up to {@code hour}. */
    void dropUpTo(int hour) {
      int k = 0;
      while (k < size && hours[k] <= hour) {
        k++;
      }
      if (k > 0) {
        System.arraycopy(hours, k, hours, 0, size - k);
        System.arraycopy(lows, k, lows, 0, size - k);
        System.arraycopy(highs, k, highs, 0, size - k);
        size -= k;
      }
    }
  }

  private static final ThreadLocal<Unpacked> SCRATCH = ThreadLocal.withInitial(Unpacked::new);

  /** The hours of {@code packed}, which ends at hour {@code newest} at the latest. */
  static Unpacked unpack(byte[] packed, int newest) {
    Unpacked u = SCRATCH.get();
    u.size = 0;
    if (packed.length == 0) {
      return u;
    }
    Reader r = new Reader(packed);
    int n = r.read(8) | r.read(8) << 8;
    int hour = newest - r.read(8); // the first hour, as hours before the newest
    int lo = 0;
    int hi = 0;
    int[] loWindow = new int[1];
    int[] hiWindow = new int[1];
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        hour += 1 + (r.read(1) == 0 ? 0 : r.read(8));
      }
      lo += readDelta(r, loWindow);
      hi += readDelta(r, hiWindow);
      u.add(hour, fromKey(lo), fromKey(hi));
    }
    return u;
  }

  /**
   * Packs the hours of {@code u} (in order, within 255 hours of {@code newest} and at most 255
   * hours apart, as an envelope's are).
   */
  static byte[] pack(Unpacked u, int newest) {
    if (u.size == 0) {
      return EMPTY;
    }
    Writer w = new Writer(u.bits);
    w.write(u.size & 0xff, 8);
    w.write(u.size >>> 8, 8);
    w.write(newest - u.hours[0], 8);
    int loKey = 0;
    int hiKey = 0;
    int[] loWindow = new int[1];
    int[] hiWindow = new int[1];
    for (int i = 0; i < u.size; i++) {
      if (i > 0) {
        int gap = u.hours[i] - u.hours[i - 1] - 1;
        if (gap == 0) {
          w.write(0, 1);
        } else {
          w.write(1, 1);
          w.write(gap, 8);
        }
      }
      int lo = lowKey(u.lows[i]);
      int hi = highKey(u.highs[i]);
      writeDelta(w, lo - loKey, loWindow);
      writeDelta(w, hi - hiKey, hiWindow);
      loKey = lo;
      hiKey = hi;
    }
    return w.toBytes();
  }

  /**
   * A float as an int that orders as the floats do: its bits, with the sign moved to the whole
   * int (so the grid is symmetric: -x on it when x is; -0.0 becomes 0.0, which compares equal).
   */
  private static int key(float f) {
    int bits = Float.floatToRawIntBits(f);
    return bits >= 0 ? bits : -(bits & 0x7fffffff);
  }

  /** The float of a key in units of the grid ({@link #DROPPED} bits dropped). */
  private static float fromKey(int q) {
    int k = q << DROPPED;
    return Float.intBitsToFloat(k >= 0 ? k : 0x80000000 | -k);
  }

  /** A minimum's key on the grid, rounded down: the float it stands for is at most it. */
  static int lowKey(float lo) {
    int q = key(lo) >> DROPPED;
    return Float.isFinite(fromKey(q)) ? q : q + 1;
  }

  /** A maximum's key on the grid, rounded up: the float it stands for is at least it. */
  static int highKey(float hi) {
    int k = key(hi);
    int q = (int) (((long) k + (1 << DROPPED) - 1) >> DROPPED);
    return Float.isFinite(fromKey(q)) ? q : q - 1;
  }

  /**
   * A difference of keys: 0 for none; 10 and the zigzagged difference in as many bits as the last
   * length written, when it fits in them; else 11, 5 bits of its length - 1 and the bits.
   * {@code window} holds that length, 0 for none yet.
   */
  private static void writeDelta(Writer w, int delta, int[] window) {
    if (delta == 0) {
      w.write(0, 1);
      return;
    }
    int zigzag = (delta << 1) ^ (delta >> 31);
    int length = 32 - Integer.numberOfLeadingZeros(zigzag);
    // the last length, unless the difference is shorter by more than the 5 bits a new one costs
    // (else one large difference, as the first is, would make every later one as long)
    if (window[0] > 0 && length <= window[0] && window[0] - length <= 5) {
      w.write(1, 2); // a 1 then a 0: the low bit is written (and read) first
      w.write(zigzag, window[0]);
      return;
    }
    w.write(3, 2);
    w.write(length - 1, 5);
    w.write(zigzag, length);
    window[0] = length;
  }

  private static int readDelta(Reader r, int[] window) {
    if (r.read(1) == 0) {
      return 0;
    }
    int zigzag;
    if (r.read(1) == 0) {
      zigzag = r.read(window[0]);
    } else {
      int length = r.read(5) + 1;
      window[0] = length;
      zigzag = r.read(length);
    }
    return (zigzag >>> 1) ^ -(zigzag & 1);
  }

  /** Bits, least significant first within each word. */
  private static final class Writer {
    private final long[] words;
    private long position;

    Writer(long[] words) {
      this.words = words;
      java.util.Arrays.fill(words, 0L);
    }

    /** The low {@code n} bits of {@code value}, 1 <= n <= 32. */
    void write(int value, int n) {
      long v = n == 32 ? value & 0xffffffffL : value & ((1L << n) - 1);
      int word = (int) (position >>> 6);
      int offset = (int) (position & 63);
      words[word] |= v << offset;
      if (offset + n > 64) {
        words[word + 1] |= v >>> (64 - offset);
      }
      position += n;
    }

    byte[] toBytes() {
      byte[] out = new byte[(int) ((position + 7) >>> 3)];
      for (int i = 0; i < out.length; i++) {
        out[i] = (byte) (words[i >>> 3] >>> ((i & 7) << 3));
      }
      return out;
    }
  }

  private static final class Reader {
    private final byte[] bytes;
    private long position;

    Reader(byte[] bytes) {
      this.bytes = bytes;
    }

    /** The next {@code n} bits, 0 <= n <= 32. */
    int read(int n) {
      long v = 0;
      int got = 0;
      while (got < n) {
        int at = (int) (position >>> 3);
        int offset = (int) (position & 7);
        int take = Math.min(8 - offset, n - got);
        long b = ((bytes[at] & 0xff) >>> offset) & ((1 << take) - 1);
        v |= b << got;
        got += take;
        position += take;
      }
      return (int) v;
    }
  }
}
