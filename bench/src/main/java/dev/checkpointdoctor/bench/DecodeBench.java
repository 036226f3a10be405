package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import dev.checkpointdoctor.ingest.remotewrite.SnappyBlockDecoder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Snappy + protobuf decode of whole bodies; scores are per sample. The decoders are warm (their
 * caches hold the body's series), which is the steady state: Prometheus resends the same series
 * every scrape, and the result is released as the detector worker does. "catalog" drops unused series by name before building anything; "all" builds
 * every series (what the decoder would cost without early filtering).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DecodeBench {
  private byte[] real;
  private byte[] flink;
  private byte[] scratch;
  private RemoteWriteDecoder catalog;
  private RemoteWriteDecoder all;

  @Setup
  public void setUp() {
    real = BenchData.realPrometheus242();
    flink = BenchData.flink2000();
    scratch = new byte[SnappyBlockDecoder.uncompressedLength(flink, 0, flink.length)];
    catalog = BenchData.catalogDecoder();
    all = BenchData.acceptAllDecoder();
  }

  /** As the detector worker does: read the result, then hand its arrays back. */
  private static int decodeAndRelease(RemoteWriteDecoder decoder, byte[] body) {
    DecodedWrite w = decoder.decode(body, 0, body.length);
    int n = w.acceptedSampleCount();
    w.release();
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(500)
  public int real500Catalog() {
    return decodeAndRelease(catalog, real);
  }

  @Benchmark
  @OperationsPerInvocation(500)
  public int real500All() {
    return decodeAndRelease(all, real);
  }

  @Benchmark
  @OperationsPerInvocation(BenchData.FLINK_BODY_SAMPLES)
  public int flink2000Catalog() {
    return decodeAndRelease(catalog, flink);
  }

  @Benchmark
  @OperationsPerInvocation(BenchData.FLINK_BODY_SAMPLES)
  public int flink2000All() {
    return decodeAndRelease(all, flink);
  }

  /** Snappy alone, for the split between decompression and protobuf parsing. */
  @Benchmark
  @OperationsPerInvocation(BenchData.FLINK_BODY_SAMPLES)
  public int flink2000SnappyOnly() {
    return SnappyBlockDecoder.decompress(flink, 0, flink.length, scratch);
  }
}
