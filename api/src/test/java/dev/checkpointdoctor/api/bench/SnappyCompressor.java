package dev.checkpointdoctor.api.bench;

import java.io.ByteArrayOutputStream;

/**
 * A snappy block compressor (greedy, one hash table of 4-byte matches per 64 KiB fragment, as the
 * reference implementation works), so generated bodies have the size and the copy/literal mix of
 * what Prometheus sends; a literal-only body would overstate bytes on the wire about sixfold.
 */
final class SnappyCompressor {
  private static final int FRAGMENT = 1 << 16;
  private static final int TABLE_BITS = 14;

  private final int[] table = new int[1 << TABLE_BITS];

  byte[] compress(byte[] src, int srcLen) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(srcLen / 4 + 16);
    long n = srcLen;
    while ((n & ~0x7fL) != 0) {
      out.write((int) ((n & 0x7f) | 0x80));
      n >>>= 7;
    }
    out.write((int) n);
    for (int start = 0; start < srcLen; start += FRAGMENT) {
      fragment(src, start, Math.min(srcLen, start + FRAGMENT), out);
    }
    return out.toByteArray();
  }

  private void fragment(byte[] s, int start, int end, ByteArrayOutputStream out) {
    java.util.Arrays.fill(table, -1);
    int lit = start;
    int i = start;
    while (i + 4 <= end) {
      int h = hash(s, i);
      int cand = table[h];
      table[h] = i;
      if (cand >= start && i - cand < FRAGMENT && read4(s, cand) == read4(s, i)) {
        int len = 4;
        while (i + len < end && s[cand + len] == s[i + len]) {
          len++;
        }
        if (lit < i) {
          literal(s, lit, i - lit, out);
        }
        copy(i - cand, len, out);
        i += len;
        lit = i;
      } else {
        i++;
      }
    }
    if (lit < end) {
      literal(s, lit, end - lit, out);
    }
  }

  private static int read4(byte[] s, int i) {
    return (s[i] & 0xff) | (s[i + 1] & 0xff) << 8 | (s[i + 2] & 0xff) << 16 | (s[i + 3] & 0xff) << 24;
  }

  private static int hash(byte[] s, int i) {
    return (read4(s, i) * 0x1e35a7bd) >>> (32 - TABLE_BITS);
  }

  private static void literal(byte[] s, int off, int n, ByteArrayOutputStream out) {
    int m = n - 1;
    if (m < 60) {
      out.write(m << 2);
    } else if (m < 1 << 8) {
      out.write(60 << 2);
      out.write(m);
    } else {
      out.write(61 << 2);
      out.write(m);
      out.write(m >>> 8);
    }
    out.write(s, off, n);
  }

  /** Copies with 2-byte offsets, split into pieces of at most 64 bytes (offsets are < 64 KiB). */
  private static void copy(int offset, int len, ByteArrayOutputStream out) {
    while (len > 0) {
      int piece = len > 64 ? (len - 64 < 4 ? 60 : 64) : len;
      out.write(((piece - 1) << 2) | 2);
      out.write(offset);
      out.write(offset >>> 8);
      len -= piece;
    }
  }
}
