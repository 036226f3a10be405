package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.ingest.remotewrite.DecodedSeries;
import java.nio.charset.StandardCharsets;
import java.util.List;
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

/** {@code SignalCatalog.accepts} on the metric names of a Flink-shaped body; per name. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CatalogBench {
  private final SignalCatalog catalog = SignalCatalog.defaults();
  private byte[][] names;

  @Setup
  public void setUp() {
    byte[] body = BenchData.flink2000();
    List<DecodedSeries> series = BenchData.acceptAllDecoder().decode(body, 0, body.length)
        .series();
    names = new byte[series.size()][];
    for (int i = 0; i < names.length; i++) {
      names[i] = series.get(i).labels().metricName().getBytes(StandardCharsets.UTF_8);
    }
  }

  @Benchmark
  @OperationsPerInvocation(BenchData.FLINK_BODY_SAMPLES)
  public int accepts() {
    int n = 0;
    for (byte[] b : names) {
      if (catalog.accepts(b, 0, b.length)) {
        n++;
      }
    }
    return n;
  }
}
