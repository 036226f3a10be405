package dev.checkpointdoctor.detector.baseline;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The range a signal covered in each UTC hour of the last two days. Jobs with a daily load cycle
 * peak every evening; a value that the same hour of yesterday (give or take an hour) already
 * reached is the cycle, not a fault, even when the rolling baseline has drifted lower since.
 *
 * <p>Slots are keyed by absolute hour ({@code timestamp / 1 h}) modulo 48, each stamped with the
 * hour it holds, so a slot from three days ago is never mistaken for yesterday's.
 */
final class DailyEnvelope {
  private static final long HOUR_MS = 3_600_000L;
  private static final int SLOTS = 48;
  private static final int EMPTY = Integer.MIN_VALUE;

  // Floats and int hour stamps, 576 bytes per tracker; a float's 24-bit precision is plenty for
  // "did yesterday go this far". One array of (hour, min bits, max bits) per slot: recording a
  // value touches one place in memory rather than three arrays, on every observation.
  private final int[] slots = new int[3 * SLOTS];

  DailyEnvelope() {
    for (int i = 0; i < slots.length; i += 3) {
      slots[i] = EMPTY;
    }
  }

  private int hourAt(int slot) {
    return slots[3 * slot];
  }

  private float minAt(int slot) {
    return Float.intBitsToFloat(slots[3 * slot + 1]);
  }

  private float maxAt(int slot) {
    return Float.intBitsToFloat(slots[3 * slot + 2]);
  }

  private void set(int slot, int h, float lo, float hi) {
    int i = 3 * slot;
    slots[i] = h;
    slots[i + 1] = Float.floatToRawIntBits(lo);
    slots[i + 2] = Float.floatToRawIntBits(hi);
  }

  /** Remembers a value seen while no anomaly was open. */
  void record(long tsMs, double value) {
    int h = (int) Math.floorDiv(tsMs, HOUR_MS);
    int slot = Math.floorMod(h, SLOTS);
    float v = (float) value;
    if (hourAt(slot) != h) {
      set(slot, h, v, v);
    } else {
      set(slot, h, Math.min(minAt(slot), v), Math.max(maxAt(slot), v));
    }
  }

  /**
   * Whether yesterday, within an hour of this time of day, the signal already went at least as
   * far as {@code value} on {@code side} (+1 above the band, -1 below), allowing {@code slack}.
   */
  boolean explains(long tsMs, double value, int side, double slack) {
    int yesterday = (int) Math.floorDiv(tsMs, HOUR_MS) - 24;
    boolean seen = false;
    double reach = side > 0 ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    for (int h = yesterday - 1; h <= yesterday + 1; h++) {
      int slot = Math.floorMod(h, SLOTS);
      if (hourAt(slot) == h) {
        seen = true;
        reach = side > 0 ? Math.max(reach, maxAt(slot)) : Math.min(reach, minAt(slot));
      }
    }
    if (!seen) {
      return false;
    }
    return side > 0 ? value <= reach + slack : value >= reach - slack;
  }

  /** Writes {@code e}; null (nothing recorded yet) is written as an empty envelope. */
  static void writeTo(DailyEnvelope e, DataOutput out) throws IOException {
    int used = 0;
    if (e != null) {
      for (int i = 0; i < SLOTS; i++) {
        if (e.hourAt(i) != EMPTY) {
          used++;
        }
      }
    }
    out.writeByte(used);
    for (int i = 0; used > 0 && i < SLOTS; i++) {
      if (e.hourAt(i) != EMPTY) {
        out.writeInt(e.hourAt(i));
        out.writeFloat(e.minAt(i));
        out.writeFloat(e.maxAt(i));
      }
    }
  }

  /** Reads an envelope written by {@link #writeTo}; null when it is empty. */
  static DailyEnvelope readFrom(DataInput in) throws IOException {
    int used = in.readUnsignedByte();
    if (used > SLOTS) {
      throw new IOException("daily envelope snapshot has " + used + " slots, at most " + SLOTS);
    }
    if (used == 0) {
      return null;
    }
    DailyEnvelope e = new DailyEnvelope();
    for (int i = 0; i < used; i++) {
      int h = in.readInt();
      float lo = in.readFloat();
      float hi = in.readFloat();
      if (!(lo <= hi) || !Double.isFinite(lo) || !Double.isFinite(hi)) {
        throw new IOException("daily envelope snapshot has an invalid range [" + lo + ", " + hi
            + "]");
      }
      e.set(Math.floorMod(h, SLOTS), h, lo, hi);
    }
    return e;
  }
}
