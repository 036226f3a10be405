package dev.checkpointdoctor.ingest.remotewrite;

import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteException.malformed;

import java.util.Objects;

/**
 * Decoder for the snappy <em>block</em> format (not the framed/stream format): a varint
 * uncompressed length, then a sequence of literal and copy elements. Every literal length, copy
 * offset and copy length is checked against the input, the bytes produced so far and the declared
 * length, and the output must be exactly as long as declared. Allocates nothing except on error.
 *
 * <p>Byte positions in error messages are relative to {@code off}, i.e. positions in the body.
 */
public final class SnappyBlockDecoder {
  private SnappyBlockDecoder() {}

  /**
   * The uncompressed length declared by the varint header of a snappy block.
   *
   * @throws RemoteWriteException MALFORMED if the header is missing, truncated, longer than 5
   *     bytes or above 2^32-1; TOO_LARGE if it declares more than {@link Integer#MAX_VALUE} bytes
   */
  public static int uncompressedLength(byte[] src, int off, int len) {
    Objects.checkFromIndexSize(off, len, src.length);
    long v = 0;
    for (int i = 0; i < 5; i++) {
      if (i >= len) {
        throw malformed(
            len == 0
                ? "snappy: empty body, missing length header"
                : "snappy: truncated length header at input byte " + i);
      }
      int b = src[off + i] & 0xff;
      v |= (long) (b & 0x7f) << (7 * i);
      if (b < 0x80) {
        if (v > 0xffff_ffffL) {
          throw malformed("snappy: length header " + v + " does not fit in 32 bits");
        }
        if (v > Integer.MAX_VALUE) {
          throw RemoteWriteException.tooLarge(
              "declared decompressed size " + v + " exceeds " + Integer.MAX_VALUE + " bytes");
        }
        return (int) v;
      }
    }
    throw malformed("snappy: length header longer than 5 bytes");
  }

  /** Bytes taken by the (already validated) varint header. */
  private static int headerLength(byte[] src, int off) {
    int n = 1;
    while ((src[off + n - 1] & 0x80) != 0) {
      n++;
    }
    return n;
  }

  /**
   * Decompresses a snappy block into {@code dst}, starting at {@code dst[0]}.
   *
   * @param dst must hold at least {@link #uncompressedLength} bytes; callers check that length
   *     against their limits before allocating it
   * @return bytes written, always equal to the declared length
   * @throws RemoteWriteException MALFORMED for any corrupt element or a length mismatch
   * @throws IllegalArgumentException if {@code dst} is shorter than the declared length
   */
  public static int decompress(byte[] src, int off, int len, byte[] dst) {
    final int declared = uncompressedLength(src, off, len);
    if (dst.length < declared) {
      throw new IllegalArgumentException(
          "dst holds " + dst.length + " bytes, header declares " + declared);
    }
    final int end = off + len;
    int ip = off + headerLength(src, off);
    int op = 0;
    while (ip < end) {
      final int tagPos = ip - off;
      final int tag = src[ip++] & 0xff;
      final int length;
      final long offset;
      switch (tag & 3) {
        case 0 -> {
          long litLen = tag >>> 2;
          if (litLen >= 60) {
            int n = (int) litLen - 59;
            if (end - ip < n) {
              throw malformed("snappy: truncated literal length at input byte " + tagPos);
            }
            litLen = 0;
            for (int k = 0; k < n; k++) {
              litLen |= (long) (src[ip + k] & 0xff) << (8 * k);
            }
            ip += n;
          }
          litLen += 1;
          if (litLen > end - ip) {
            throw malformed(
                "snappy: literal of " + litLen + " bytes at input byte " + tagPos
                    + " runs past end of input (" + (end - ip) + " bytes left)");
          }
          if (litLen > declared - op) {
            throw malformed(
                "snappy: literal of " + litLen + " bytes at input byte " + tagPos
                    + " overflows declared length " + declared + " (" + op
                    + " bytes produced)");
          }
          System.arraycopy(src, ip, dst, op, (int) litLen);
          ip += (int) litLen;
          op += (int) litLen;
          continue;
        }
        case 1 -> {
          if (end - ip < 1) {
            throw malformed("snappy: truncated copy element at input byte " + tagPos);
          }
          length = 4 + ((tag >>> 2) & 7);
          offset = ((tag >>> 5) << 8) | (src[ip] & 0xff);
          ip += 1;
        }
        case 2 -> {
          if (end - ip < 2) {
            throw malformed("snappy: truncated copy element at input byte " + tagPos);
          }
          length = 1 + (tag >>> 2);
          offset = (src[ip] & 0xff) | (src[ip + 1] & 0xff) << 8;
          ip += 2;
        }
        default -> {
          if (end - ip < 4) {
            throw malformed("snappy: truncated copy element at input byte " + tagPos);
          }
          length = 1 + (tag >>> 2);
          offset =
              ((src[ip] & 0xff)
                      | (src[ip + 1] & 0xff) << 8
                      | (src[ip + 2] & 0xff) << 16
                      | (long) (src[ip + 3] & 0xff) << 24);
          ip += 4;
        }
      }
      if (offset == 0) {
        throw malformed("snappy: copy offset 0 at input byte " + tagPos);
      }
      if (offset > op) {
        throw malformed(
            "snappy: copy offset " + offset + " exceeds " + op + " bytes produced at input byte "
                + tagPos);
      }
      if (length > declared - op) {
        throw malformed(
            "snappy: copy of " + length + " bytes at input byte " + tagPos
                + " overflows declared length " + declared + " (" + op + " bytes produced)");
      }
      int from = op - (int) offset;
      if (offset >= length) {
        System.arraycopy(dst, from, dst, op, length);
        op += length;
      } else {
        // Overlapping copy repeats the last `offset` bytes: must go forward byte by byte.
        for (int k = 0; k < length; k++) {
          dst[op++] = dst[from++];
        }
      }
    }
    if (op != declared) {
      throw malformed(
          "snappy: produced " + op + " bytes but length header declared " + declared);
    }
    return op;
  }
}
