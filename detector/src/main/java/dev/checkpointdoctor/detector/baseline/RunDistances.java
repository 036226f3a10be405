package dev.checkpointdoctor.detector.baseline;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * How far out ({@code |value - expected| / halfWidth}) the newest observations of a pending run
 * went, up to a capacity: the longest run the opening rule ever asks for, so nothing older is
 * needed. Floats: a hundredth of a half-width is more than the rule tells apart.
 *
 * <p>Every tracker has one, and most trackers have no pending run most of the time: the ring
 * holds no array while the run is empty, and grows with the run up to the capacity (a run is
 * usually a few observations long), instead of the capacity's 216 bytes per tracker for good.
 * Not thread-safe.
 */
class RunDistances {
  private static final float[] NONE = new float[0];
  private static final int INITIAL = 4;

  private final int capacity;
  // in arrival order from slot 0 while shorter than the capacity; a ring once that long
  private float[] ring = NONE;
  private int head; // slot of the next write
  private int size;

  RunDistances(int capacity) {
    this.capacity = capacity;
  }

  void add(double distance) {
    if (size == ring.length && size < capacity) {
      // not wrapped yet (it grows before it is full): the distances stay in order
      ring = Arrays.copyOf(ring, Math.min(capacity, Math.max(INITIAL, 2 * size)));
      head = size;
    }
    ring[head] = (float) distance;
    head = (head + 1) % ring.length;
    size = Math.min(size + 1, ring.length);
  }

  /** The {@code j}-th newest distance, 1 the newest, for {@code j} in {@code [1, size()]}. */
  double newest(int j) {
    if (j < 1 || j > size) {
      throw new IndexOutOfBoundsException("newest " + j + " of " + size);
    }
    return ring[Math.floorMod(head - j, ring.length)];
  }

  /** Distances held: the run's length up to the capacity. */
  int size() {
    return size;
  }

  void clear() {
    head = 0;
    size = 0;
    ring = NONE;
  }

  /** Floats the ring holds now, for tests. */
  int heldFloats() {
    return ring.length;
  }

  /** Writes the count, then the distances oldest first. */
  void writeTo(DataOutput out) throws IOException {
    out.writeInt(size);
    for (int j = size; j >= 1; j--) {
      out.writeFloat((float) newest(j));
    }
  }

  /** Reads what {@link #writeTo} wrote into an empty holder. */
  void readFrom(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > capacity) {
      throw new IOException("run distances snapshot holds " + n + " of at most " + capacity);
    }
    for (int i = 0; i < n; i++) {
      float d = in.readFloat();
      if (!(d >= 0) || !Float.isFinite(d)) {
        throw new IOException("run distances snapshot has an invalid distance " + d);
      }
      add(d);
    }
  }
}
