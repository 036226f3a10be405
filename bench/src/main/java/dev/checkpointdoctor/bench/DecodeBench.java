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
 * every scrape. "catalog" drops unused series by name before building anything; "all" builds
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

  @Benchmark
  @OperationsPerInvocation(500)
  public DecodedWrite real500Catalog() {
    return catalog.decode(real, 0, real.length);
  }

  @Benchmark
  @OperationsPerInvocation(500)
  public DecodedWrite real500All() {
    return all.decode(real, 0, real.length);
  }

  @Benchmark
  @OperationsPerInvocation(BenchData.FLINK_BODY_SAMPLES)
  public DecodedWrite flink2000Catalog() {
    return catalog.decode(flink, 0, flink.length);
  }

  @Benchmark
  @OperationsPerInvocation(BenchData.FLINK_BODY_SAMPLES)
  public DecodedWrite flink2000All() {
    return all.decode(flink, 0, flink.length);
  }

  /** Snappy alone, for the split between decompression and protobuf parsing. */
  @Benchmark
  @OperationsPerInvocation(BenchData.FLINK_BODY_SAMPLES)
  public int flink2000SnappyOnly() {
    return SnappyBlockDecoder.decompress(flink, 0, flink.length, scratch);
  }
}
