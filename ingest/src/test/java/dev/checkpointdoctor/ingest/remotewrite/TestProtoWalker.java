package dev.checkpointdoctor.ingest.remotewrite;

/** A deliberately naive, independent protobuf walker used to cross-check the decoder. */
final class TestProtoWalker {
  private TestProtoWalker() {}

  /** Counts top-level fields numbered {@code field}; fails unless the message parses exactly. */
  static int countTopLevel(byte[] b, int field) {
    int[] p = {0};
    int count = 0;
    while (p[0] < b.length) {
      long tag = varint(b, p);
      int f = (int) (tag >>> 3);
      switch ((int) (tag & 7)) {
        case 0 -> varint(b, p);
        case 1 -> p[0] += 8;
        case 2 -> {
          long len = varint(b, p);
          p[0] += (int) len;
        }
        case 5 -> p[0] += 4;
        default -> throw new AssertionError("bad wire type at " + p[0]);
      }
      if (p[0] > b.length) {
        throw new AssertionError("field runs past end");
      }
      if (f == field) {
        count++;
      }
    }
    return count;
  }

  private static long varint(byte[] b, int[] p) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      int x = b[p[0]++];
      v |= (long) (x & 0x7f) << shift;
      if (x >= 0) {
        return v;
      }
    }
  }
}
