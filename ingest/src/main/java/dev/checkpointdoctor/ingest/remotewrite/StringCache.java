package dev.checkpointdoctor.ingest.remotewrite;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A small direct-mapped cache from UTF-8 bytes to Strings, so the label names and the frequent
 * values (job, instance, metric names) of consecutive requests are not re-allocated. Bounded: a
 * colliding entry simply replaces the old one. Not thread-safe; owned by one decoder. Callers
 * must pass valid UTF-8.
 */
final class StringCache {
  private static final int SLOTS = 4096; // power of two
  private static final int MAX_CACHED_LENGTH = 128;

  private final byte[][] keys = new byte[SLOTS][];
  private final String[] values = new String[SLOTS];

  /**
   * A constant-time hash from the length and up to 24 sampled bytes (start, middle, end); a
   * collision only costs a cache miss, as entries are compared in full.
   */
  private static int hash(byte[] b, int off, int len) {
    long x;
    if (len >= 8) {
      x = ByteAccess.getLongLE(b, off) * 0x9E3779B97F4A7C15L;
      x ^= ByteAccess.getLongLE(b, off + len - 8) * 0xC2B2AE3D27D4EB4FL;
      if (len > 16) {
        x ^= ByteAccess.getLongLE(b, off + (len >>> 1) - 4) * 0x165667B19E3779F9L;
      }
    } else {
      x = 0;
      for (int i = off, end = off + len; i < end; i++) {
        x = (x << 8) | (b[i] & 0xff);
      }
      x *= 0x9E3779B97F4A7C15L;
    }
    x ^= len;
    x ^= x >>> 29;
    x *= 0xBF58476D1CE4E5B9L;
    return (int) (x ^ (x >>> 32));
  }

  String get(byte[] b, int off, int len) {
    if (len > MAX_CACHED_LENGTH) {
      return new String(b, off, len, StandardCharsets.UTF_8);
    }
    int h = hash(b, off, len);
    int slot = h & (SLOTS - 1);
    byte[] key = keys[slot];
    if (key != null && ByteAccess.equals(key, b, off, len)) {
      return values[slot];
    }
    // Interned: the detector keeps the label sets it tracks with interned strings, so a label
    // set built from these compares to its copy there by reference instead of by content.
    String s = new String(b, off, len, StandardCharsets.UTF_8).intern();
    keys[slot] = Arrays.copyOfRange(b, off, off + len);
    values[slot] = s;
    return s;
  }
}
