package dev.checkpointdoctor.detector.baseline;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The range a signal covered in each UTC hour of the last eight days. Jobs follow their load:
 * checkpoints grow every evening and shrink every weekend. A value that the same hour of one of
 * the last seven days (give or take an hour) already reached is that cycle, not a fault, even
 * when the rolling baseline has drifted lower since. Seven days rather than yesterday alone, so
 * Monday morning is explained by Friday's, and the weekend by last weekend's.
 *
 * <p>A ring of hourly cells covering at most 192 hours: hour {@code h} (hours since the epoch) is
 * remembered when {@code newestHour - 192 < h <= newestHour}; an hour that fell out of that range
 * is empty. Floats (a float's 24-bit precision is plenty for "did it go this far"). The ring holds
 * only as many hours as the oldest remembered one needs ({@code capacity}; cell {@code h mod
 * capacity} holds hour {@code h} when {@code newestHour - capacity < h <= newestHour}, and every
 * hour in range but older than that is empty): every tracked series has one, and a young one
 * needs a few hours, not eight days (1.5 KB).
 */
final class SeasonalEnvelope {
  static final long HOUR_MS = 3_600_000L;
  static final int SLOTS = 8 * 24;
  /** How many days back an hour may be explained from. */
  static final int DAYS = 7;

  private static final int INITIAL_CAPACITY = 4;

  // cell i's min at [2i], max at [2i + 1]; NaN when empty; capacity = cells.length / 2 <= SLOTS
  private float[] cells = empty(INITIAL_CAPACITY);
  private int newestHour = Integer.MIN_VALUE;
  private int levelSinceHour = Integer.MIN_VALUE; // hours before it do not accuse

  SeasonalEnvelope() {}

  private static float[] empty(int capacity) {
    float[] c = new float[2 * capacity];
    Arrays.fill(c, Float.NaN);
    return c;
  }

  private int capacity() {
    return cells.length >> 1;
  }

  /** The cell holding hour {@code h}, or -1 when that hour is empty (or out of range). */
  private int cellOf(int h) {
    int cap = capacity();
    if (h > newestHour || h <= newestHour - cap) {
      return -1;
    }
    int cell = Math.floorMod(h, cap);
    return Float.isNaN(cells[2 * cell]) ? -1 : cell;
  }

  /**
   * Grows the ring so that it holds {@code hours} hours ending at the newest one, moving every
   * remembered hour after {@code keepAfter} to its cell in the larger ring.
   */
  private void growTo(int hours, int keepAfter) {
    int cap = capacity();
    int grown = Math.min(SLOTS, Math.max(2 * cap, hours));
    float[] old = cells;
    cells = empty(grown);
    for (int h = newestHour - cap + 1; h <= newestHour; h++) {
      int from = Math.floorMod(h, cap);
      if (h > keepAfter && !Float.isNaN(old[2 * from])) {
        int to = Math.floorMod(h, grown);
        cells[2 * to] = old[2 * from];
        cells[2 * to + 1] = old[2 * from + 1];
      }
    }
  }

  /**
   * Makes {@code h}, newer than the newest hour, the newest: the cells it reuses held hours that
   * are empty now, unless a remembered hour is still within range, which the ring grows for.
   */
  private void advanceTo(int h) {
    int cap = capacity();
    int oldest = Integer.MAX_VALUE; // oldest remembered hour that stays in range
    for (int k = newestHour - cap + 1; k <= newestHour; k++) {
      if (k > h - SLOTS && !Float.isNaN(cells[2 * Math.floorMod(k, cap)])) {
        oldest = k;
        break;
      }
    }
    if (oldest != Integer.MAX_VALUE && h - oldest + 1 > cap) {
      growTo(h - oldest + 1, h - SLOTS);
      cap = capacity();
    }
    long gap = Math.min((long) h - newestHour, cap);
    for (long k = 1; k <= gap; k++) {
      int cell = Math.floorMod(newestHour + (int) k, cap);
      cells[2 * cell] = Float.NaN;
      cells[2 * cell + 1] = Float.NaN;
    }
    newestHour = h;
  }

  /** Widens hour {@code h}'s cell (within range) to {@code lo} and {@code hi}. */
  private void put(int h, float lo, float hi) {
    if (h <= newestHour - capacity()) {
      growTo(newestHour - h + 1, newestHour - SLOTS);
    }
    int cell = Math.floorMod(h, capacity());
    if (Float.isNaN(cells[2 * cell])) {
      cells[2 * cell] = lo;
      cells[2 * cell + 1] = hi;
    } else {
      cells[2 * cell] = Math.min(cells[2 * cell], lo);
      cells[2 * cell + 1] = Math.max(cells[2 * cell + 1], hi);
    }
  }

  /** Remembers a value seen while it was normal; values older than the ring holds are ignored. */
  void record(long tsMs, double value) {
    int h = (int) Math.floorDiv(tsMs, HOUR_MS);
    if (newestHour == Integer.MIN_VALUE) {
      newestHour = h;
    } else if (h > newestHour) {
      advanceTo(h);
    } else if (h <= newestHour - SLOTS) {
      return;
    }
    float v = (float) value;
    put(h, v, v);
  }

  /**
   * Whether on one of the last seven days, within an hour of this time of day, the signal already
   * went at least as far as {@code value} on {@code side} (+1 above the band, -1 below), allowing
   * {@code slack}.
   */
  boolean explains(long tsMs, double value, int side, double slack) {
    if (newestHour == Integer.MIN_VALUE) {
      return false;
    }
    int now = (int) Math.floorDiv(tsMs, HOUR_MS);
    for (int day = 1; day <= DAYS; day++) {
      for (int h = now - 24 * day - 1; h <= now - 24 * day + 1; h++) {
        int cell = cellOf(h);
        if (cell < 0) {
          continue;
        }
        if (side > 0 ? value <= cells[2 * cell + 1] + slack : value >= cells[2 * cell] - slack) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether the value lies beyond everything the last seven days did within an hour of this time
   * of day, by more than {@code slack}: +1 above, -1 below, 0 otherwise. Only days after the last
   * level change count ({@link #levelChangedAt}), and at least {@code minDays} of them must have
   * been seen at this time of day: until then the week does not know what is usual here.
   */
  int accuses(long tsMs, double value, double slack, int minDays) {
    if (newestHour == Integer.MIN_VALUE) {
      return 0;
    }
    int now = (int) Math.floorDiv(tsMs, HOUR_MS);
    int days = 0;
    double hi = Double.NEGATIVE_INFINITY;
    double lo = Double.POSITIVE_INFINITY;
    for (int day = 1; day <= DAYS; day++) {
      boolean seen = false;
      for (int h = now - 24 * day - 1; h <= now - 24 * day + 1; h++) {
        int cell = h < levelSinceHour ? -1 : cellOf(h);
        if (cell < 0) {
          continue;
        }
        seen = true;
        hi = Math.max(hi, cells[2 * cell + 1]);
        lo = Math.min(lo, cells[2 * cell]);
      }
      days += seen ? 1 : 0;
    }
    if (days < minDays) {
      return 0;
    }
    return value > hi + slack ? 1 : value < lo - slack ? -1 : 0;
  }

  /**
   * The signal moved to a new level at {@code tsMs}: the hours before it still explain values
   * (a return to the old level is no surprise), but no longer accuse them.
   */
  void levelChangedAt(long tsMs) {
    levelSinceHour = (int) Math.floorDiv(tsMs, HOUR_MS);
  }

  // ---------------------------------------------------------------- snapshot

  /** Writes {@code e}; null (nothing recorded yet) is written as an empty envelope. */
  static void writeTo(SeasonalEnvelope e, DataOutput out) throws IOException {
    int used = 0;
    int cap = e == null ? 0 : e.capacity();
    for (int i = 0; i < cap; i++) {
      used += Float.isNaN(e.cells[2 * i]) ? 0 : 1;
    }
    out.writeShort(used);
    if (used == 0) {
      return;
    }
    out.writeInt(e.newestHour);
    out.writeInt(e.levelSinceHour);
    // oldest hour first, as the ring of 192 slots wrote them: by slot, which is hour mod 192
    int[] hours = new int[used];
    int k = 0;
    for (int h = e.newestHour - cap + 1; h <= e.newestHour; h++) {
      if (e.cellOf(h) >= 0) {
        hours[k++] = h;
      }
    }
    Integer[] bySlot = Arrays.stream(hours).boxed()
        .sorted(java.util.Comparator.comparingInt(h -> Math.floorMod(h, SLOTS)))
        .toArray(Integer[]::new);
    for (int h : bySlot) {
      int cell = e.cellOf(h);
      out.writeInt(h);
      out.writeFloat(e.cells[2 * cell]);
      out.writeFloat(e.cells[2 * cell + 1]);
    }
  }

  /** Reads an envelope written by {@link #writeTo}; null when it is empty. */
  static SeasonalEnvelope readFrom(DataInput in) throws IOException {
    int used = in.readUnsignedShort();
    if (used > SLOTS) {
      throw new IOException("seasonal envelope snapshot has " + used + " slots, at most " + SLOTS);
    }
    if (used == 0) {
      return null;
    }
    SeasonalEnvelope e = new SeasonalEnvelope();
    e.newestHour = in.readInt();
    e.levelSinceHour = in.readInt();
    for (int i = 0; i < used; i++) {
      int h = in.readInt();
      float lo = in.readFloat();
      float hi = in.readFloat();
      checkRange(lo, hi);
      if (h > e.newestHour || h <= e.newestHour - SLOTS) {
        throw new IOException("seasonal envelope snapshot hour " + h + " is outside its ring");
      }
      e.put(h, lo, hi);
    }
    return e;
  }

  /**
   * Reads the daily envelope of tracker snapshots before version 3 (48 slots, each with its
   * hour): its two days become the newest two of the ring.
   */
  static SeasonalEnvelope readDaily(DataInput in) throws IOException {
    int used = in.readUnsignedByte();
    if (used > 48) {
      throw new IOException("daily envelope snapshot has " + used + " slots, at most 48");
    }
    if (used == 0) {
      return null;
    }
    int[] hours = new int[used];
    float[] lows = new float[used];
    float[] highs = new float[used];
    for (int i = 0; i < used; i++) {
      hours[i] = in.readInt();
      lows[i] = in.readFloat();
      highs[i] = in.readFloat();
      checkRange(lows[i], highs[i]);
    }
    SeasonalEnvelope e = new SeasonalEnvelope();
    int newest = Arrays.stream(hours).max().getAsInt();
    e.newestHour = newest;
    for (int i = 0; i < used; i++) {
      if (hours[i] > newest - SLOTS) {
        e.put(hours[i], lows[i], highs[i]);
      }
    }
    return e;
  }

  private static void checkRange(float lo, float hi) throws IOException {
    if (!(lo <= hi) || !Float.isFinite(lo) || !Float.isFinite(hi)) {
      throw new IOException("seasonal envelope snapshot has an invalid range [" + lo + ", " + hi
          + "]");
    }
  }
}
