package dev.checkpointdoctor.ingest.remotewrite;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Test-only encoder: writes WriteRequest protobuf bytes field by field (so tests can also write
 * broken ones) and compresses with a tiny snappy block compressor.
 */
public final class RemoteWriteTestEncoder {
  private RemoteWriteTestEncoder() {}

  /** A minimal protobuf writer. */
  public static final class Proto {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Proto varint(long v) {
      while ((v & ~0x7fL) != 0) {
        out.write((int) ((v & 0x7f) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
      return this;
    }

    Proto tag(int field, int wireType) {
      return varint(((long) field << 3) | wireType);
    }

    Proto raw(byte... bytes) {
      out.write(bytes, 0, bytes.length);
      return this;
    }

    /** Raw bytes given as ints (low 8 bits of each). */
    Proto raw(int... bytes) {
      for (int b : bytes) {
        out.write(b);
      }
      return this;
    }

    Proto fixed64(long v) {
      for (int i = 0; i < 8; i++) {
        out.write((int) (v >>> (8 * i)));
      }
      return this;
    }

    Proto bytesField(int field, byte[] bytes) {
      tag(field, 2).varint(bytes.length);
      return raw(bytes);
    }

    Proto stringField(int field, String s) {
      return bytesField(field, s.getBytes(StandardCharsets.UTF_8));
    }

    Proto message(int field, Proto msg) {
      return bytesField(field, msg.bytes());
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  public static Proto label(String name, String value) {
    return new Proto().stringField(1, name).stringField(2, value);
  }

  public static Proto label(byte[] name, byte[] value) {
    return new Proto().bytesField(1, name).bytesField(2, value);
  }

  /** A Sample as proto3 writes it: zero fields omitted. */
  public static Proto sample(double value, long timestamp) {
    Proto p = new Proto();
    long bits = Double.doubleToRawLongBits(value);
    if (bits != 0) {
      p.tag(1, 1).fixed64(bits);
    }
    if (timestamp != 0) {
      p.tag(2, 0).varint(timestamp);
    }
    return p;
  }

  /** A TimeSeries from name/value pairs (written in the given order) and samples. */
  public static Proto series(String[] labelPairs, long[] timestamps, double[] values) {
    Proto ts = new Proto();
    for (int i = 0; i < labelPairs.length; i += 2) {
      ts.message(1, label(labelPairs[i], labelPairs[i + 1]));
    }
    for (int i = 0; i < timestamps.length; i++) {
      ts.message(2, sample(values[i], timestamps[i]));
    }
    return ts;
  }

  /** A WriteRequest holding the given TimeSeries messages. */
  public static byte[] writeRequest(Proto... series) {
    Proto req = new Proto();
    for (Proto ts : series) {
      req.message(1, ts);
    }
    return req.bytes();
  }

  public static byte[] snappyHeader(long uncompressedLength) {
    return new Proto().varint(uncompressedLength).bytes();
  }

  /** Snappy block with literals only, in chunks of at most {@code chunk} bytes. */
  public static byte[] compressLiteralOnly(byte[] data, int chunk) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(snappyHeader(data.length));
    for (int i = 0; i < data.length; i += chunk) {
      int n = Math.min(chunk, data.length - i);
      writeLiteral(out, data, i, n);
    }
    return out.toByteArray();
  }

  public static byte[] compressLiteralOnly(byte[] data) {
    return compressLiteralOnly(data, 65536);
  }

  public static void writeLiteral(ByteArrayOutputStream out, byte[] data, int off, int n) {
    int m = n - 1;
    if (m < 60) {
      out.write(m << 2);
    } else if (m < (1 << 8)) {
      out.write(60 << 2);
      out.write(m);
    } else if (m < (1 << 16)) {
      out.write(61 << 2);
      out.write(m);
      out.write(m >>> 8);
    } else if (m < (1 << 24)) {
      out.write(62 << 2);
      out.write(m);
      out.write(m >>> 8);
      out.write(m >>> 16);
    } else {
      out.write(63 << 2);
      out.write(m);
      out.write(m >>> 8);
      out.write(m >>> 16);
      out.write(m >>> 24);
    }
    out.write(data, off, n);
  }

  /** One copy element of 1..64 bytes; picks the 1-, 2- or 4-byte-offset form. */
  public static void writeCopy(ByteArrayOutputStream out, int offset, int length) {
    if (length >= 4 && length <= 11 && offset < 2048) {
      out.write(1 | ((length - 4) << 2) | ((offset >>> 8) << 5));
      out.write(offset);
    } else if (offset < 65536) {
      out.write(2 | ((length - 1) << 2));
      out.write(offset);
      out.write(offset >>> 8);
    } else {
      out.write(3 | ((length - 1) << 2));
      out.write(offset);
      out.write(offset >>> 8);
      out.write(offset >>> 16);
      out.write(offset >>> 24);
    }
  }

  /**
   * A small greedy snappy compressor (hash of 4 bytes, last position per hash) emitting literals
   * and copies of all three forms, including overlapping copies.
   */
  public static byte[] compress(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(snappyHeader(data.length));
    int[] table = new int[1 << 14];
    Arrays.fill(table, -1);
    int litStart = 0;
    int i = 0;
    while (i + 4 <= data.length) {
      int h = hash4(data, i);
      int cand = table[h];
      table[h] = i;
      if (cand >= 0 && Arrays.equals(data, cand, cand + 4, data, i, i + 4)) {
        int len = 4;
        while (i + len < data.length && data[cand + len] == data[i + len]) {
          len++;
        }
        if (litStart < i) {
          writeLiteral(out, data, litStart, i - litStart);
        }
        int offset = i - cand;
        int left = len;
        while (left > 0) {
          int n = Math.min(left, 64);
          if (left - n > 0 && left - n < 4) {
            n = left - 4; // keep the remainder usable by every copy form
          }
          writeCopy(out, offset, n);
          left -= n;
        }
        i += len;
        litStart = i;
      } else {
        i++;
      }
    }
    if (litStart < data.length) {
      writeLiteral(out, data, litStart, data.length - litStart);
    }
    return out.toByteArray();
  }

  private static int hash4(byte[] b, int i) {
    int v = (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | b[i + 3] << 24;
    return (v * 0x1e35a7bd) >>> 18;
  }

  public static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
