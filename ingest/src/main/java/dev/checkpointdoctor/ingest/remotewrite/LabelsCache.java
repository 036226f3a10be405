package dev.checkpointdoctor.ingest.remotewrite;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.Arrays;

/**
 * A direct-mapped cache from the raw protobuf bytes spanning a series' label fields (first Label
 * field to the end of the last, whatever is interleaved) to the validated {@link Labels} built
 * from them. Prometheus sends the same series every scrape interval, so in
 * steady state a series costs one hash and one comparison instead of validation and string
 * building. Sound because validation is a pure function of those bytes and the decoder's fixed
 * limits. Bounded: {@value #SLOTS} entries of at most {@value #MAX_KEY_LENGTH} bytes. Two-way
 * set-associative (a key lives in its slot or the other slot of the pair): direct-mapped, a
 * 2,000-series Flink body rebuilt about one series in nine on every request from collisions
 * alone. Not thread-safe; owned by one decoder.
 */
final class LabelsCache {
  static final int SLOTS = 1 << 14;
  static final int MAX_KEY_LENGTH = 1024;

  private final byte[][] keys = new byte[SLOTS][];
  private final Labels[] values = new Labels[SLOTS];

  static int hash(byte[] b, int off, int len) {
    long h = len * 0x9E3779B97F4A7C15L;
    int i = off;
    final int end = off + len;
    for (; end - i >= 8; i += 8) {
      h = Long.rotateLeft((h ^ ByteAccess.getLongLE(b, i)) * 0xBF58476D1CE4E5B9L, 29);
    }
    long tail = 0;
    for (; i < end; i++) {
      tail = (tail << 8) | (b[i] & 0xff);
    }
    h = (h ^ tail) * 0x94D049BB133111EBL;
    h ^= h >>> 31;
    return (int) (h ^ (h >>> 32));
  }

  /** The cached Labels for these bytes, or null. */
  Labels get(byte[] b, int off, int len, int hash) {
    int slot = hash & (SLOTS - 1);
    byte[] key = keys[slot];
    if (key != null && ByteAccess.equals(key, b, off, len)) {
      return values[slot];
    }
    slot ^= 1;
    key = keys[slot];
    return key != null && ByteAccess.equals(key, b, off, len) ? values[slot] : null;
  }

  void put(byte[] b, int off, int len, int hash, Labels labels) {
    if (len > MAX_KEY_LENGTH) {
      return;
    }
    int slot = hash & (SLOTS - 1);
    if (keys[slot] != null) {
      // Home slot taken: use the other way of the pair (evicting it if it is taken too), so the
      // home slot keeps the older, longer-lived series.
      slot ^= 1;
    }
    keys[slot] = Arrays.copyOfRange(b, off, off + len);
    values[slot] = labels;
  }
}
