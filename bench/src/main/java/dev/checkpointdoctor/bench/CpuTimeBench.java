package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import dev.checkpointdoctor.ingest.remotewrite.SnappyBlockDecoder;
import java.util.function.IntSupplier;

/**
 * Decode throughput per second of this thread's CPU time ({@link ThreadCpu}) rather than wall
 * time. {@code java -cp bench/target/benchmarks.jar dev.checkpointdoctor.bench.CpuTimeBench}
 */
public final class CpuTimeBench {
  private CpuTimeBench() {}

  public static void main(String[] args) {
    byte[] real = BenchData.realPrometheus242();
    byte[] flink = BenchData.flink2000();
    byte[] scratch = new byte[SnappyBlockDecoder.uncompressedLength(flink, 0, flink.length)];
    RemoteWriteDecoder catalog = BenchData.catalogDecoder();
    RemoteWriteDecoder all = BenchData.acceptAllDecoder();
    System.out.println("| body | samples per CPU-second | ns of CPU per sample |");
    System.out.println("| --- | ---: | ---: |");
    run("real 500, snappy only", 500, () -> SnappyBlockDecoder.decompress(real, 0, real.length,
        scratch));
    run("real 500, catalog filter", 500, () -> decode(catalog, real));
    run("real 500, accept all", 500, () -> decode(all, real));
    run("Flink 2,000, snappy only", 2000, () -> SnappyBlockDecoder.decompress(flink, 0,
        flink.length, scratch));
    run("Flink 2,000, catalog filter", 2000, () -> decode(catalog, flink));
    run("Flink 2,000, accept all", 2000, () -> decode(all, flink));
  }

  private static int decode(RemoteWriteDecoder d, byte[] body) {
    DecodedWrite w = d.decode(body, 0, body.length);
    int n = w.acceptedSampleCount();
    w.release();
    return n;
  }

  /** Warms for 2 s of CPU, then measures 3 s of CPU. */
  private static void run(String name, int samplesPerCall, IntSupplier call) {
    ThreadCpu.warm(call::getAsInt, 1, 2_000_000_000L);
    double perSample = ThreadCpu.window(call::getAsInt, 100, 3_000_000_000L) / samplesPerCall;
    System.out.printf("| %s | %,.0f | %.1f |%n", name, 1e9 / perSample, perSample);
  }
}
