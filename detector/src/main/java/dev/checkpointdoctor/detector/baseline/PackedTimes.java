package dev.checkpointdoctor.detector.baseline;

/**
 * The event times of a baseline's window in arrival order, first in first out, each stored as
 * the zig-zag varint of its delta-of-delta (its distance from the previous time, minus the
 * previous distance), as time-series databases store scrape times. Regular scrapes differ from
 * the previous distance by a few milliseconds of jitter: one byte a time instead of the four of
 * an int offset. Exact to the millisecond over any span: the deltas wrap around like longs do,
 * and decoding wraps them back.
 *
 * <p>The baseline reads its times only in arrival order (to weigh the window, to evict the
 * oldest, to forget or to write them), so no time needs to be read on its own. Not thread-safe.
 *
 * <p>{@link RobustBaseline} extends it rather than holding one: every tracked series has a
 * baseline, and its times as an object of their own cost a header, a reference and padding (24
 * bytes a series). The methods are named for times so that they read as such on the baseline.
 */
class PackedTimes {
  private static final int MAX_VARINT = 10;
  private static final byte[] NONE = new byte[0];

  // entries of times 1 .. size - 1 at bytes[start, end); time 0 is headTime
  private byte[] bytes = NONE;
  private int start;
  private int end;
  private int size;
  private long headTime;
  private long headDelta; // distance of time 0 from its (evicted) predecessor; 0 when none
  private long tailTime;
  private long tailDelta;

  int timeCount() {
    return size;
  }

  /** Appends {@code t} as the newest time. */
  void addTime(long t) {
    if (size == 0) {
      headTime = t;
      headDelta = 0;
      tailTime = t;
      tailDelta = 0;
      size = 1;
      return;
    }
    long delta = t - tailTime;
    long dod = delta - tailDelta;
    long zz = dod << 1 ^ dod >> 63;
    ensureRoom(varintLength(zz));
    while ((zz & ~0x7fL) != 0) {
      bytes[end++] = (byte) (zz & 0x7f | 0x80);
      zz >>>= 7;
    }
    bytes[end++] = (byte) zz;
    tailTime = t;
    tailDelta = delta;
    size++;
  }

  /** Removes and returns the oldest time; the queue must not be empty. */
  long removeFirstTime() {
    long oldest = headTime;
    if (--size == 0) {
      clearTimes();
      return oldest;
    }
    long zz = 0;
    int shift = 0;
    byte b;
    do {
      b = bytes[start++];
      zz |= (long) (b & 0x7f) << shift;
      shift += 7;
    } while (b < 0);
    headDelta += zz >>> 1 ^ -(zz & 1);
    headTime += headDelta;
    return oldest;
  }

  /** Writes the times oldest first into {@code out[0, size)}. */
  void copyTimesTo(long[] out) {
    if (size == 0) {
      return;
    }
    long t = headTime;
    long delta = headDelta;
    out[0] = t;
    int at = start;
    byte[] in = bytes;
    for (int i = 1; i < size; i++) {
      long zz = 0;
      int shift = 0;
      byte b;
      do {
        b = in[at++];
        zz |= (long) (b & 0x7f) << shift;
        shift += 7;
      } while (b < 0);
      delta += zz >>> 1 ^ -(zz & 1);
      t += delta;
      out[i] = t;
    }
  }

  /** Forgets every time; keeps the bytes' capacity. */
  void clearTimes() {
    size = 0;
    start = 0;
    end = 0;
    headDelta = 0;
    tailDelta = 0;
  }

  /**
   * Whether these are the times {@code copy} was last {@link #saveTimesTo saved} from (or equal ones):
   * the same first time and distance, and the same bytes after them.
   */
  boolean timesMatch(Copy copy) {
    return copy.size == size && copy.headTime == headTime && copy.headDelta == headDelta
        && java.util.Arrays.equals(bytes, start, end, copy.bytes, 0, copy.length);
  }

  /** Makes {@code copy} remember these times, for {@link #timesMatch}. */
  void saveTimesTo(Copy copy) {
    int used = end - start;
    if (copy.bytes.length < used) {
      copy.bytes = new byte[Math.max(used, 2 * copy.bytes.length)];
    }
    System.arraycopy(bytes, start, copy.bytes, 0, used);
    copy.length = used;
    copy.size = size;
    copy.headTime = headTime;
    copy.headDelta = headDelta;
  }

  /** What {@link #saveTimesTo} remembers of a window's times. */
  static final class Copy {
    private byte[] bytes = NONE;
    private int length;
    private int size = -1;
    private long headTime;
    private long headDelta;
  }

  /** Bytes the entries take now: for tests. */
  int timeBytesUsed() {
    return end - start;
  }

  /**
   * Makes room for {@code n} more bytes at the end: slides the entries to the front when that
   * leaves a little slack, else grows the array by a sixteenth (at least 8 bytes). A full window
   * of regular scrapes thus holds about 8 bytes more than its entries (its array was ~30 bytes
   * longer when it grew by a quarter), and slides its ~120 bytes every few appends: a copy of
   * that size is a few nanoseconds, against the bytes every tracked series would keep.
   */
  private void ensureRoom(int n) {
    if (end + n <= bytes.length) {
      return;
    }
    int used = end - start;
    if (bytes.length - used >= n + Math.max(4, bytes.length >> 5)) {
      System.arraycopy(bytes, start, bytes, 0, used);
    } else {
      byte[] grown = new byte[used + n + Math.max(8, used >> 4)];
      System.arraycopy(bytes, start, grown, 0, used);
      bytes = grown;
    }
    start = 0;
    end = used;
  }

  /** The array's length: for tests. */
  int timeCapacity() {
    return bytes.length;
  }

  private static int varintLength(long zz) {
    int n = 1;
    while ((zz & ~0x7fL) != 0) {
      zz >>>= 7;
      n++;
    }
    return Math.min(n, MAX_VARINT);
  }
}
