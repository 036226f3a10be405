package dev.checkpointdoctor.ingest.remotewrite;

/** Byte-level checks of label names, metric names and UTF-8; allocation-free. */
final class LabelSyntax {
  private LabelSyntax() {}

  private static final byte LABEL_START = 1;
  private static final byte LABEL_PART = 2;
  private static final byte METRIC_START = 4;
  private static final byte METRIC_PART = 8;
  private static final byte[] CLASSES = new byte[256];

  static {
    for (int c = 0; c < 256; c++) {
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      boolean digit = c >= '0' && c <= '9';
      int k = 0;
      if (letter) {
        k |= LABEL_START | LABEL_PART | METRIC_START | METRIC_PART;
      }
      if (digit) {
        k |= LABEL_PART | METRIC_PART;
      }
      if (c == ':') {
        k |= METRIC_START | METRIC_PART;
      }
      CLASSES[c] = (byte) k;
    }
  }

  /** {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
  static boolean isValidLabelName(byte[] b, int off, int len) {
    return matches(b, off, len, LABEL_START, LABEL_PART);
  }

  /** {@code [a-zA-Z_:][a-zA-Z0-9_:]*}. */
  static boolean isValidMetricName(byte[] b, int off, int len) {
    return matches(b, off, len, METRIC_START, METRIC_PART);
  }

  private static boolean matches(byte[] b, int off, int len, byte start, byte part) {
    if (len == 0 || (CLASSES[b[off] & 0xff] & start) == 0) {
      return false;
    }
    int all = part;
    for (int i = off + 1, end = off + len; i < end; i++) {
      all &= CLASSES[b[i] & 0xff];
    }
    return all != 0;
  }

  /**
   * The index of the first label whose name an earlier label of the same series already has, or
   * -1. Names are compared by length first, so distinct names cost an int compare each; a series
   * has a few dozen labels at most (the label limit).
   */
  static int repeatedName(byte[] b, int[] offs, int[] lens, int count) {
    for (int i = 1; i < count; i++) {
      for (int j = 0; j < i; j++) {
        if (lens[j] == lens[i]
            && java.util.Arrays.equals(b, offs[j], offs[j] + lens[j], b, offs[i],
                offs[i] + lens[i])) {
          return i;
        }
      }
    }
    return -1;
  }

  /**
   * Strict UTF-8 (RFC 3629): rejects overlong forms, surrogates (U+D800..U+DFFF), code points
   * above U+10FFFF, stray continuation bytes and truncated sequences.
   */
  static boolean isValidUtf8(byte[] b, int off, int len) {
    int i = off;
    final int end = off + len;
    while (i < end) {
      int c = b[i];
      if (c >= 0) {
        // ASCII fast path: skip 8 bytes at a time while none has the high bit set.
        while (end - i >= 8 && (ByteAccess.getLongLE(b, i) & 0x8080808080808080L) == 0) {
          i += 8;
        }
        while (i < end && b[i] >= 0) {
          i++;
        }
        continue;
      }
      c &= 0xff;
      if (c < 0xc2) {
        return false; // continuation byte or overlong 2-byte lead (C0, C1)
      }
      if (c < 0xe0) {
        if (end - i < 2 || !isCont(b[i + 1])) {
          return false;
        }
        i += 2;
      } else if (c < 0xf0) {
        if (end - i < 3) {
          return false;
        }
        int c1 = b[i + 1] & 0xff;
        if (c == 0xe0 && c1 < 0xa0) {
          return false; // overlong
        }
        if (c == 0xed && c1 > 0x9f) {
          return false; // surrogate
        }
        if (!isCont(b[i + 1]) || !isCont(b[i + 2])) {
          return false;
        }
        i += 3;
      } else if (c < 0xf5) {
        if (end - i < 4) {
          return false;
        }
        int c1 = b[i + 1] & 0xff;
        if (c == 0xf0 && c1 < 0x90) {
          return false; // overlong
        }
        if (c == 0xf4 && c1 > 0x8f) {
          return false; // above U+10FFFF
        }
        if (!isCont(b[i + 1]) || !isCont(b[i + 2]) || !isCont(b[i + 3])) {
          return false;
        }
        i += 4;
      } else {
        return false;
      }
    }
    return true;
  }

  private static boolean isCont(byte b) {
    return (b & 0xc0) == 0x80;
  }
}
