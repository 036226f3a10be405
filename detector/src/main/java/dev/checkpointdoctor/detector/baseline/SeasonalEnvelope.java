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
 * <p>A ring of 192 hourly slots: slot {@code h mod 192} holds absolute hour {@code h} (hours since
 * the epoch) when {@code newestHour - 192 < h <= newestHour}; a slot whose hour fell out of that
 * range is empty. Floats (a float's 24-bit precision is plenty for "did it go this far"): 1.5 KB
 * per tracker, created only once its baseline is ready.
 */
final class SeasonalEnvelope {
  static final long HOUR_MS = 3_600_000L;
  static final int SLOTS = 8 * 24;
  /** How many days back an hour may be explained from. */
  static final int DAYS = 7;

  private final float[] min = new float[SLOTS];
  private final float[] max = new float[SLOTS];
  private int newestHour = Integer.MIN_VALUE;
  private int levelSinceHour = Integer.MIN_VALUE; // hours before it do not accuse

  SeasonalEnvelope() {
    Arrays.fill(min, Float.NaN);
    Arrays.fill(max, Float.NaN);
  }

  /** Remembers a value seen while it was normal; values older than the ring holds are ignored. */
  void record(long tsMs, double value) {
    int h = (int) Math.floorDiv(tsMs, HOUR_MS);
    if (newestHour == Integer.MIN_VALUE) {
      newestHour = h;
    } else if (h > newestHour) {
      // hours skipped since the newest one are empty now: their slots held hours 8 days ago
      long gap = Math.min((long) h - newestHour, SLOTS);
      for (long k = 1; k <= gap; k++) {
        int slot = Math.floorMod(newestHour + (int) k, SLOTS);
        min[slot] = Float.NaN;
        max[slot] = Float.NaN;
      }
      newestHour = h;
    } else if (h <= newestHour - SLOTS) {
      return;
    }
    int slot = Math.floorMod(h, SLOTS);
    float v = (float) value;
    if (Float.isNaN(min[slot])) {
      min[slot] = v;
      max[slot] = v;
    } else {
      min[slot] = Math.min(min[slot], v);
      max[slot] = Math.max(max[slot], v);
    }
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
        if (h > newestHour || h <= newestHour - SLOTS) {
          continue;
        }
        int slot = Math.floorMod(h, SLOTS);
        if (Float.isNaN(min[slot])) {
          continue;
        }
        if (side > 0 ? value <= max[slot] + slack : value >= min[slot] - slack) {
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
        if (h > newestHour || h <= newestHour - SLOTS || h < levelSinceHour) {
          continue;
        }
        int slot = Math.floorMod(h, SLOTS);
        if (Float.isNaN(min[slot])) {
          continue;
        }
        seen = true;
        hi = Math.max(hi, max[slot]);
        lo = Math.min(lo, min[slot]);
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
    if (e != null) {
      for (float m : e.min) {
        used += Float.isNaN(m) ? 0 : 1;
      }
    }
    out.writeShort(used);
    if (used == 0) {
      return;
    }
    out.writeInt(e.newestHour);
    out.writeInt(e.levelSinceHour);
    for (int i = 0; i < SLOTS; i++) {
      if (!Float.isNaN(e.min[i])) {
        // the hour this slot holds: the one within the ring's range with this residue
        int h = e.newestHour - Math.floorMod(e.newestHour - i, SLOTS);
        out.writeInt(h);
        out.writeFloat(e.min[i]);
        out.writeFloat(e.max[i]);
      }
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
      int slot = Math.floorMod(h, SLOTS);
      e.min[slot] = lo;
      e.max[slot] = hi;
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
        int slot = Math.floorMod(hours[i], SLOTS);
        e.min[slot] = lows[i];
        e.max[slot] = highs[i];
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
