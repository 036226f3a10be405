package dev.checkpointdoctor.ingest.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.checkpointdoctor.detector.model.MetricNameFilter;

/**
 * Jazzer fuzz targets for everything that parses client bytes. Under plain surefire they replay
 * the corpus in {@code src/test/resources/.../DecoderFuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} they fuzz (see docs/RELIABILITY.md). The contract checked: only
 * {@link RemoteWriteException} escapes, and nothing is allocated beyond the declared limits.
 *
 * <p>Limits are small so that a fuzzer-made header can never cost more than a few hundred KiB,
 * and so the size checks themselves are exercised often.
 */
class DecoderFuzzTest {
  static final DecodeLimits LIMITS = new DecodeLimits(64 << 10, 256 << 10, 64, 16, 64, 256);
  // Only names starting with 'f' pass, so both the accepted and the skipped paths get fuzzed.
  static final MetricNameFilter STARTS_WITH_F = (b, o, l) -> l > 0 && b[o] == 'f';

  private final RemoteWriteDecoder decoder = new RemoteWriteDecoder(LIMITS, STARTS_WITH_F);

  /** Whole request bodies as they arrive over HTTP. */
  @FuzzTest(maxDuration = "2m")
  void remoteWriteDecode(byte[] body) {
    decodeAndCheck(body);
  }

  /**
   * Uncompressed protobuf: the input is wrapped in a valid snappy block first, so the fuzzer's
   * mutations reach the protobuf parser instead of dying in snappy.
   */
  @FuzzTest(maxDuration = "2m")
  void protobufDecode(byte[] proto) {
    decodeAndCheck(RemoteWriteTestEncoder.compressLiteralOnly(proto));
  }

  /** The snappy block decoder on its own, with an output buffer sized by its header. */
  @FuzzTest(maxDuration = "2m")
  void snappyBlock(byte[] block) {
    int declared;
    try {
      declared = SnappyBlockDecoder.uncompressedLength(block, 0, block.length);
    } catch (RemoteWriteException e) {
      return;
    }
    if (declared > LIMITS.maxDecompressedBytes()) {
      return; // the caller refuses these before allocating (checked in decodeAndCheck)
    }
    byte[] out = new byte[declared];
    try {
      assertThat(SnappyBlockDecoder.decompress(block, 0, block.length, out)).isEqualTo(declared);
    } catch (RemoteWriteException e) {
      assertThat(e.getMessage()).startsWith("snappy:");
    }
  }

  private void decodeAndCheck(byte[] body) {
    DecodedWrite write;
    try {
      write = decoder.decode(body, 0, body.length);
    } catch (RemoteWriteException e) {
      assertThat(e.getMessage()).isNotBlank();
      assertThat(decoder.bufferCapacity()).isLessThanOrEqualTo(LIMITS.maxDecompressedBytes());
      return;
    }
    assertThat(decoder.bufferCapacity()).isLessThanOrEqualTo(LIMITS.maxDecompressedBytes());
    assertThat(write.timeseriesCount()).isLessThanOrEqualTo(LIMITS.maxSeriesPerRequest());
    assertThat(write.series().size() + write.unusedSeriesCount())
        .isEqualTo(write.timeseriesCount());
    long samples = 0;
    for (DecodedSeries s : write.series()) {
      assertThat(s.labels().size()).isLessThanOrEqualTo(LIMITS.maxLabelsPerSeries());
      assertThat(s.labels().metricName()).startsWith("f");
      assertThat(s.timestamps()).hasSameSizeAs(s.values());
      samples += s.sampleCount();
    }
    assertThat(samples).isEqualTo(write.acceptedSampleCount());
    assertThat(write.acceptedSampleCount() + write.unusedSampleCount())
        .isEqualTo(write.sampleCount());
    // Every sample costs at least 2 bytes on the wire, so the arrays are bounded by the body.
    assertThat((long) write.sampleCount() * 2).isLessThanOrEqualTo(LIMITS.maxDecompressedBytes());
  }
}
