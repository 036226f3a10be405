package dev.checkpointdoctor.api.it;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes protobuf bytes field by field, including what a correct encoder never would (wrong wire
 * types, lying lengths, raw non-UTF-8 strings), for bad-input tests over HTTP.
 */
public final class RawProto {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  public RawProto varint(long v) {
    while ((v & ~0x7fL) != 0) {
      out.write((int) ((v & 0x7f) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
    return this;
  }

  public RawProto tag(int field, int wireType) {
    return varint(((long) field << 3) | wireType);
  }

  public RawProto bytes(int field, byte[] b) {
    tag(field, 2).varint(b.length);
    out.write(b, 0, b.length);
    return this;
  }

  public RawProto message(int field, RawProto m) {
    return bytes(field, m.toByteArray());
  }

  public RawProto raw(byte... b) {
    out.write(b, 0, b.length);
    return this;
  }

  public byte[] toByteArray() {
    return out.toByteArray();
  }

  /** A Label message. */
  public static RawProto label(byte[] name, byte[] value) {
    return new RawProto().bytes(1, name).bytes(2, value);
  }

  public static RawProto label(String name, String value) {
    return label(name.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
  }

  /** A Sample message: double value (field 1, fixed64), int64 timestamp (field 2). */
  public static RawProto sample(double value, long ts) {
    RawProto p = new RawProto().tag(1, 1);
    long bits = Double.doubleToRawLongBits(value);
    for (int i = 0; i < 8; i++) {
      p.out.write((int) (bits >>> (8 * i)));
    }
    return p.tag(2, 0).varint(ts);
  }

  /** A TimeSeries from labels (already sorted by the caller) and samples. */
  public static RawProto series(RawProto[] labels, RawProto... samples) {
    RawProto s = new RawProto();
    for (RawProto l : labels) {
      s.message(1, l);
    }
    for (RawProto p : samples) {
      s.message(2, p);
    }
    return s;
  }

  /** A WriteRequest holding the given TimeSeries. */
  public static byte[] writeRequest(RawProto... series) {
    RawProto w = new RawProto();
    for (RawProto s : series) {
      w.message(1, s);
    }
    return w.toByteArray();
  }
}
