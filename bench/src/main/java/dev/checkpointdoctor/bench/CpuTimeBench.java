package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import dev.checkpointdoctor.ingest.remotewrite.SnappyBlockDecoder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.IntSupplier;

/**
 * Decode throughput per second of this thread's CPU time rather than wall time: on a machine
 * whose cores are shared with other work, wall-clock JMH scores mostly measure the neighbours,
 * while thread CPU time is close to what one dedicated core would do.
 * {@code java -cp bench/target/benchmarks.jar dev.checkpointdoctor.bench.CpuTimeBench}
 */
public final class CpuTimeBench {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

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
    long sink = 0;
    long t0 = THREADS.getCurrentThreadCpuTime();
    while (THREADS.getCurrentThreadCpuTime() - t0 < 2_000_000_000L) {
      sink += call.getAsInt();
    }
    long calls = 0;
    long start = THREADS.getCurrentThreadCpuTime();
    long cpu;
    do {
      for (int i = 0; i < 100; i++) {
        sink += call.getAsInt();
      }
      calls += 100;
      cpu = THREADS.getCurrentThreadCpuTime() - start;
    } while (cpu < 3_000_000_000L);
    double perSample = (double) cpu / (calls * samplesPerCall);
    System.out.printf("| %s | %,.0f | %.1f |%s%n", name, 1e9 / perSample, perSample,
        sink == 42 ? " " : "");
  }
}
