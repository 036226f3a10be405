package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Labels;

/**
 * A detector's cursors by label set: an open-addressing table of the cursors themselves (each
 * holds its label set), so a series costs one slot instead of a hash map's node of 32 bytes and
 * its slot. The detector only finds and adds cursors and never removes or walks them, so linear
 * probing needs no tombstones and no order. Not thread-safe.
 */
final class CursorTable {
  private static final int INITIAL = 16; // a power of two

  private SeriesCursor[] slots = new SeriesCursor[INITIAL];
  private int size;

  /** The cursor of an equal label set, or null. */
  SeriesCursor get(Labels labels) {
    SeriesCursor[] s = slots;
    int mask = s.length - 1;
    for (int i = slot(labels.hashCode(), mask); ; i = (i + 1) & mask) {
      SeriesCursor c = s[i];
      if (c == null || c.labels.equals(labels)) {
        return c;
      }
    }
  }

  /** Adds a cursor whose label set has none yet. */
  void add(SeriesCursor cursor) {
    // grown at three quarters full, as a hash map is: probes stay short
    if (4 * (size + 1) > 3 * slots.length) {
      grow();
    }
    insert(slots, cursor);
    size++;
  }

  int size() {
    return size;
  }

  private void grow() {
    SeriesCursor[] bigger = new SeriesCursor[2 * slots.length];
    for (SeriesCursor c : slots) {
      if (c != null) {
        insert(bigger, c);
      }
    }
    slots = bigger;
  }

  private static void insert(SeriesCursor[] s, SeriesCursor cursor) {
    int mask = s.length - 1;
    int i = slot(cursor.labels.hashCode(), mask);
    while (s[i] != null) {
      i = (i + 1) & mask;
    }
    s[i] = cursor;
  }

  private static int slot(int hash, int mask) {
    // spread the high bits down: label hashes differ mostly in their values' last characters
    return (hash * 0x9E3779B9 >>> 16 ^ hash * 0x9E3779B9) & mask;
  }
}
