package dev.checkpointdoctor.detector.baseline;

/**
 * A list of hourly ranges (hour, min, max), oldest hour first, packed losslessly into bytes: the
 * completed hours of a {@link SeasonalEnvelope}. Hours are written as the gap from the previous
 * one (consecutive hours take a bit); each min and each max as the bits of its float XORed with
 * the previous hour's min or max, as time-series databases store floats (the same value again
 * takes a bit, a value close to the previous one only the bits that differ, within the window of
 * meaningful bits the previous value used). Every float comes back with the very bits it had.
 *
 * <p>Read and written whole, through a per-thread {@link Unpacked} scratch: an envelope unpacks
 * its hours once per hour of event time (when an hour completes, and to answer the questions of
 * a new hour), not per observation.
 */
final class HourRanges {
  static final byte[] EMPTY = new byte[0];

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
    int loBits = 0;
    int hiBits = 0;
    int[] loWindow = new int[2];
    int[] hiWindow = new int[2];
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        hour += 1 + (r.read(1) == 0 ? 0 : r.read(8));
      }
      loBits ^= readXor(r, loWindow);
      hiBits ^= readXor(r, hiWindow);
      u.add(hour, Float.intBitsToFloat(loBits), Float.intBitsToFloat(hiBits));
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
    int loBits = 0;
    int hiBits = 0;
    int[] loWindow = new int[2];
    int[] hiWindow = new int[2];
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
      int lo = Float.floatToRawIntBits(u.lows[i]);
      int hi = Float.floatToRawIntBits(u.highs[i]);
      writeXor(w, lo ^ loBits, loWindow);
      writeXor(w, hi ^ hiBits, hiWindow);
      loBits = lo;
      hiBits = hi;
    }
    return w.toBytes();
  }

  /**
   * An XOR as Gorilla writes it: 0 for none; 10 and the bits within the previous window (leading
   * zeros, length) when they fit in it; else 11, 5 bits of leading zeros, 5 bits of length - 1,
   * and the meaningful bits. {@code window} is {leading zeros, length}, length 0 for none yet.
   */
  private static void writeXor(Writer w, int xor, int[] window) {
    if (xor == 0) {
      w.write(0, 1);
      return;
    }
    int lead = Integer.numberOfLeadingZeros(xor);
    int trail = Integer.numberOfTrailingZeros(xor);
    if (window[1] > 0 && lead >= window[0] && trail >= 32 - window[0] - window[1]) {
      w.write(1, 2); // a 1 then a 0: the low bit is written (and read) first
      w.write(xor >>> (32 - window[0] - window[1]), window[1]);
      return;
    }
    int length = 32 - lead - trail;
    w.write(3, 2);
    w.write(lead, 5); // at most 31: the xor is not 0
    w.write(length - 1, 5);
    w.write(xor >>> trail, length);
    window[0] = lead;
    window[1] = length;
  }

  private static int readXor(Reader r, int[] window) {
    if (r.read(1) == 0) {
      return 0;
    }
    if (r.read(1) == 0) {
      return r.read(window[1]) << (32 - window[0] - window[1]);
    }
    int lead = r.read(5);
    int length = r.read(5) + 1;
    window[0] = lead;
    window[1] = length;
    return r.read(length) << (32 - lead - length);
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
