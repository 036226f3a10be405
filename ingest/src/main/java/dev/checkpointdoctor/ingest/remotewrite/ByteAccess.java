package dev.checkpointdoctor.ingest.remotewrite;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Little-endian multi-byte reads from byte arrays (bounds-checked by the VarHandle). */
final class ByteAccess {
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ByteAccess() {}

  static long getLongLE(byte[] b, int off) {
    return (long) LONG_LE.get(b, off);
  }

  /**
   * Whether {@code a[0..len)} equals {@code b[off..off+len)}; {@code a.length} must be len.
   * {@link Arrays#equals(byte[], int, int, byte[], int, int)} is a vectorised intrinsic: on the
   * ~400-byte label sets of Flink series it is several times faster than a loop over longs.
   */
  static boolean equals(byte[] a, byte[] b, int off, int len) {
    return a.length == len && Arrays.equals(a, 0, len, b, off, off + len);
  }
}
