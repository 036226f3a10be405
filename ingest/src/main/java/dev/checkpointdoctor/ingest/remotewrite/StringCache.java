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

  String get(byte[] b, int off, int len) {
    if (len > MAX_CACHED_LENGTH) {
      return new String(b, off, len, StandardCharsets.UTF_8);
    }
    int h = len;
    for (int i = off, end = off + len; i < end; i++) {
      h = 31 * h + b[i];
    }
    h ^= h >>> 16;
    int slot = h & (SLOTS - 1);
    byte[] key = keys[slot];
    if (key != null && Arrays.equals(key, 0, key.length, b, off, off + len)) {
      return values[slot];
    }
    String s = new String(b, off, len, StandardCharsets.UTF_8);
    keys[slot] = Arrays.copyOfRange(b, off, off + len);
    values[slot] = s;
    return s;
  }
}
