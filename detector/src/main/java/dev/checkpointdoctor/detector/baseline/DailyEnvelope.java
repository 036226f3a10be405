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

  // Floats and int hour stamps: 576 bytes per tracker; a float's 24-bit precision is plenty for
  // "did yesterday go this far".
  private final int[] hour = new int[SLOTS];
  private final float[] min = new float[SLOTS];
  private final float[] max = new float[SLOTS];

  DailyEnvelope() {
    java.util.Arrays.fill(hour, EMPTY);
  }

  /** Remembers a value seen while no anomaly was open. */
  void record(long tsMs, double value) {
    int h = (int) Math.floorDiv(tsMs, HOUR_MS);
    int slot = Math.floorMod(h, SLOTS);
    float v = (float) value;
    if (hour[slot] != h) {
      hour[slot] = h;
      min[slot] = v;
      max[slot] = v;
    } else {
      min[slot] = Math.min(min[slot], v);
      max[slot] = Math.max(max[slot], v);
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
      if (hour[slot] == h) {
        seen = true;
        reach = side > 0 ? Math.max(reach, max[slot]) : Math.min(reach, min[slot]);
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
      for (int h : e.hour) {
        if (h != EMPTY) {
          used++;
        }
      }
    }
    out.writeByte(used);
    for (int i = 0; used > 0 && i < SLOTS; i++) {
      if (e.hour[i] != EMPTY) {
        out.writeInt(e.hour[i]);
        out.writeFloat(e.min[i]);
        out.writeFloat(e.max[i]);
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
      int slot = Math.floorMod(h, SLOTS);
      e.hour[slot] = h;
      e.min[slot] = lo;
      e.max[slot] = hi;
    }
    return e;
  }
}
