package dev.checkpointdoctor.ingest.remotewrite;

/** Byte-level checks of label names, metric names and UTF-8; allocation-free. */
final class LabelSyntax {
  private LabelSyntax() {}

  private static boolean isLetterOrUnderscore(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  /** {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
  static boolean isValidLabelName(byte[] b, int off, int len) {
    if (len == 0 || !isLetterOrUnderscore(b[off])) {
      return false;
    }
    for (int i = off + 1, end = off + len; i < end; i++) {
      int c = b[i];
      if (!isLetterOrUnderscore(c) && !isDigit(c)) {
        return false;
      }
    }
    return true;
  }

  /** {@code [a-zA-Z_:][a-zA-Z0-9_:]*}. */
  static boolean isValidMetricName(byte[] b, int off, int len) {
    if (len == 0 || !(isLetterOrUnderscore(b[off]) || b[off] == ':')) {
      return false;
    }
    for (int i = off + 1, end = off + len; i < end; i++) {
      int c = b[i];
      if (!isLetterOrUnderscore(c) && !isDigit(c) && c != ':') {
        return false;
      }
    }
    return true;
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
        i++;
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
