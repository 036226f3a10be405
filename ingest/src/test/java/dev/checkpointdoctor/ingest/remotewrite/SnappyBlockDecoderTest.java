package dev.checkpointdoctor.ingest.remotewrite;

import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.compress;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.compressLiteralOnly;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.concat;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.snappyHeader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SnappyBlockDecoderTest {

  static byte[] resource(String name) throws IOException {
    try (InputStream in =
        SnappyBlockDecoderTest.class.getResourceAsStream("/remotewrite/" + name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  static byte[] decompress(byte[] body) {
    byte[] dst = new byte[SnappyBlockDecoder.uncompressedLength(body, 0, body.length)];
    int n = SnappyBlockDecoder.decompress(body, 0, body.length, dst);
    assertThat(n).isEqualTo(dst.length);
    return dst;
  }

  static void assertMalformed(byte[] body, String messagePart) {
    byte[] dst = new byte[1 << 16];
    assertThatThrownBy(() -> SnappyBlockDecoder.decompress(body, 0, body.length, dst))
        .isInstanceOfSatisfying(
            RemoteWriteException.class,
            e -> assertThat(e.kind()).isEqualTo(RemoteWriteException.Kind.MALFORMED))
        .hasMessageContaining(messagePart);
  }

  @Test
  void handMadeBodyWithAllCopyForms() {
    // "abcd" literal, copy1 len 4 off 4 -> "abcd", copy2 len 3 off 8 -> "abc",
    // overlapping copy1 len 6 off 1 -> "cccccc", copy4 len 2 off 2 -> "cc"
    byte[] body =
        new byte[] {
          19, // header: 19 bytes
          3 << 2, 'a', 'b', 'c', 'd', // literal of 4
          1 | (0 << 2), 4, // copy, 1-byte offset: len 4, off 4
          2 | (2 << 2), 8, 0, // copy, 2-byte offset: len 3, off 8
          1 | (2 << 2), 1, // copy, 1-byte offset: len 6, off 1 (overlapping)
          3 | (1 << 2), 2, 0, 0, 0 // copy, 4-byte offset: len 2, off 2
        };
    byte[] out = decompress(body);
    assertThat(new String(out, StandardCharsets.US_ASCII)).isEqualTo("abcdabcdabc" + "cccccc" + "cc");
  }

  @Test
  void copyWithHighOffsetBitsInTag() {
    // 1-byte-offset copy whose offset uses the 3 high bits in the tag: offset 0x105 = 261
    byte[] data = new byte[300];
    for (int i = 0; i < 261; i++) {
      data[i] = (byte) (i * 7 + 1);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(snappyHeader(261 + 11));
    RemoteWriteTestEncoder.writeLiteral(out, data, 0, 261);
    out.write(1 | (7 << 2) | (1 << 5)); // len 11, offset high bits 1
    out.write(0x05);
    byte[] res = decompress(out.toByteArray());
    assertThat(Arrays.copyOfRange(res, 261, 272)).isEqualTo(Arrays.copyOfRange(data, 0, 11));
  }

  @Test
  void allLiteralLengthForms() {
    Random rnd = new Random(1);
    for (int size : new int[] {0, 1, 59, 60, 61, 256, 257, 65536, 65537, 1 << 17, (1 << 24) + 3}) {
      byte[] data = new byte[size];
      rnd.nextBytes(data);
      assertThat(decompress(compressLiteralOnly(data, Integer.MAX_VALUE))).isEqualTo(data);
    }
  }

  @Test
  void roundTripsThroughTestCompressor() {
    Random rnd = new Random(42);
    for (int iter = 0; iter < 200; iter++) {
      int size = rnd.nextInt(iter < 100 ? 300 : 200_000);
      byte[] data = new byte[size];
      int alphabet = 1 + rnd.nextInt(8);
      for (int i = 0; i < size; i++) {
        data[i] = (byte) ('a' + rnd.nextInt(alphabet));
      }
      byte[] body = compress(data);
      assertThat(decompress(body)).isEqualTo(data);
    }
  }

  @Test
  void realBodyDecompressesToDeclaredLengthAndMatchesRecompression() throws IOException {
    byte[] body = resource("prometheus-2.42-remote-write-sample.bin");
    assertThat(body).hasSize(9494);
    assertThat(SnappyBlockDecoder.uncompressedLength(body, 0, body.length)).isEqualTo(56831);
    byte[] raw = decompress(body);
    assertThat(raw).hasSize(56831);
    // Starts as described in the .txt: WriteRequest field 1, length 111, first Label.
    assertThat(Arrays.copyOfRange(raw, 0, 4)).containsExactly(0x0a, 0x6f, 0x0a, 0x22);
    // Independent path: literal-only and greedy re-compressions decode to the same bytes.
    assertThat(decompress(compressLiteralOnly(raw, 100))).isEqualTo(raw);
    assertThat(decompress(compress(raw))).isEqualTo(raw);
    // Independent protobuf walk (test-side): exactly 500 field-1 entries, consumed completely.
    assertThat(TestProtoWalker.countTopLevel(raw, 1)).isEqualTo(500);
    assertThat(TestProtoWalker.countTopLevel(raw, 3)).isEqualTo(0);
  }

  @Test
  void decompressIntoOffsetSlice() {
    byte[] data = "hello hello hello".getBytes(StandardCharsets.US_ASCII);
    byte[] body = concat(new byte[] {9, 9, 9}, compress(data), new byte[] {7});
    byte[] dst = new byte[data.length];
    int n = SnappyBlockDecoder.decompress(body, 3, body.length - 4, dst);
    assertThat(n).isEqualTo(data.length);
    assertThat(dst).isEqualTo(data);
  }

  @Test
  void emptyBodyAndBadHeaders() {
    assertThatThrownBy(() -> SnappyBlockDecoder.uncompressedLength(new byte[0], 0, 0))
        .isInstanceOf(RemoteWriteException.class)
        .hasMessageContaining("missing length header");
    assertThatThrownBy(
            () -> SnappyBlockDecoder.uncompressedLength(new byte[] {(byte) 0x80, (byte) 0x80}, 0, 2))
        .isInstanceOf(RemoteWriteException.class)
        .hasMessageContaining("truncated length header");
    byte[] sixBytes = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0};
    assertThatThrownBy(() -> SnappyBlockDecoder.uncompressedLength(sixBytes, 0, 6))
        .isInstanceOf(RemoteWriteException.class)
        .hasMessageContaining("longer than 5 bytes");
    byte[] over32 = snappyHeader(1L << 33);
    assertThatThrownBy(() -> SnappyBlockDecoder.uncompressedLength(over32, 0, over32.length))
        .isInstanceOfSatisfying(
            RemoteWriteException.class,
            e -> assertThat(e.kind()).isEqualTo(RemoteWriteException.Kind.MALFORMED))
        .hasMessageContaining("does not fit in 32 bits");
    byte[] over31 = snappyHeader(0xffff_ffffL);
    assertThatThrownBy(() -> SnappyBlockDecoder.uncompressedLength(over31, 0, over31.length))
        .isInstanceOfSatisfying(
            RemoteWriteException.class,
            e -> assertThat(e.kind()).isEqualTo(RemoteWriteException.Kind.TOO_LARGE));
    assertThat(SnappyBlockDecoder.uncompressedLength(snappyHeader(Integer.MAX_VALUE), 0, 5))
        .isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void truncatedLiteral() {
    byte[] full = compressLiteralOnly("abcdefgh".getBytes(StandardCharsets.US_ASCII));
    assertMalformed(
        Arrays.copyOf(full, full.length - 3),
        "snappy: literal of 8 bytes at input byte 1 runs past end of input (5 bytes left)");
  }

  @Test
  void truncatedLiteralLength() {
    assertMalformed(new byte[] {100, (byte) (61 << 2), 5}, "truncated literal length at input byte 1");
  }

  @Test
  void truncatedCopyElements() {
    assertMalformed(new byte[] {8, 3 << 2, 'a', 'b', 'c', 'd', 2}, "truncated copy element at input byte 6");
    assertMalformed(new byte[] {8, 3 << 2, 'a', 'b', 'c', 'd', 3, 1, 0}, "truncated copy element at input byte 6");
    assertMalformed(new byte[] {8, 3 << 2, 'a', 'b', 'c', 'd', 1}, "truncated copy element at input byte 6");
  }

  @Test
  void copyOffsetBeyondProducedBytes() {
    byte[] body = {8, 3 << 2, 'a', 'b', 'c', 'd', 2 | (3 << 2), 5, 0};
    assertMalformed(body, "snappy: copy offset 5 exceeds 4 bytes produced at input byte 6");
    byte[] far = {8, 3 << 2, 'a', 'b', 'c', 'd', 3 | (3 << 2), 0x70, 0x11, 0x01, 0};
    assertMalformed(far, "snappy: copy offset 70000 exceeds 4 bytes produced at input byte 6");
    byte[] zero = {8, 3 << 2, 'a', 'b', 'c', 'd', 1, 0};
    assertMalformed(zero, "snappy: copy offset 0 at input byte 6");
  }

  @Test
  void copyBeforeAnyLiteral() {
    assertMalformed(new byte[] {4, 1, 1}, "copy offset 1 exceeds 0 bytes produced at input byte 1");
  }

  @Test
  void headerLargerThanOutput() {
    byte[] body = compressLiteralOnly("abcdefgh".getBytes(StandardCharsets.US_ASCII));
    body[0] = 9;
    assertMalformed(body, "snappy: produced 8 bytes but length header declared 9");
  }

  @Test
  void headerSmallerThanOutput() {
    byte[] body = compressLiteralOnly("abcdefgh".getBytes(StandardCharsets.US_ASCII));
    body[0] = 7;
    assertMalformed(body, "literal of 8 bytes at input byte 1 overflows declared length 7");
    byte[] copyOver = {6, 3 << 2, 'a', 'b', 'c', 'd', 2 | (3 << 2), 4, 0};
    assertMalformed(copyOver, "copy of 4 bytes at input byte 6 overflows declared length 6");
  }

  @Test
  void dstTooSmallIsACallerBug() {
    byte[] body = compressLiteralOnly("abcdefgh".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> SnappyBlockDecoder.decompress(body, 0, body.length, new byte[7]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
