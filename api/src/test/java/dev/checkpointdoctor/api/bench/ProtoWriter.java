package dev.checkpointdoctor.api.bench;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable protobuf writer for building remote-write bodies; reused between bodies. */
public final class ProtoWriter {
  private byte[] buf = new byte[1 << 16];
  private int len;

  public void reset() {
    len = 0;
  }

  public int length() {
    return len;
  }

  public byte[] array() {
    return buf;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  private void ensure(int n) {
    if (len + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }
  }

  ProtoWriter varint(long v) {
    ensure(10);
    while ((v & ~0x7fL) != 0) {
      buf[len++] = (byte) ((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    buf[len++] = (byte) v;
    return this;
  }

  ProtoWriter raw(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, buf, len, b.length);
    len += b.length;
    return this;
  }

  ProtoWriter fixed64(long v) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      buf[len++] = (byte) (v >>> (8 * i));
    }
    return this;
  }

  ProtoWriter string(int field, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    varint((long) field << 3 | 2).varint(b.length);
    return raw(b);
  }

  static int varintSize(long v) {
    int n = 1;
    while ((v & ~0x7fL) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }
}
