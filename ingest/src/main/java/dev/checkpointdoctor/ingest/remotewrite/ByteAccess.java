package dev.checkpointdoctor.ingest.remotewrite;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian multi-byte reads from byte arrays (bounds-checked by the VarHandle). */
final class ByteAccess {
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ByteAccess() {}

  static long getLongLE(byte[] b, int off) {
    return (long) LONG_LE.get(b, off);
  }

  /** Whether {@code a[0..len)} equals {@code b[off..off+len)}; {@code a.length} must be len. */
  static boolean equals(byte[] a, byte[] b, int off, int len) {
    if (a.length != len) {
      return false;
    }
    int i = 0;
    for (; i + 8 <= len; i += 8) {
      if (getLongLE(a, i) != getLongLE(b, off + i)) {
        return false;
      }
    }
    for (; i < len; i++) {
      if (a[i] != b[off + i]) {
        return false;
      }
    }
    return true;
  }
}
