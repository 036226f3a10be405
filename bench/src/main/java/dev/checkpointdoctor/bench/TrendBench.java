package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.GrowthTest;
import dev.checkpointdoctor.detector.trend.SenSlope;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The trend test's fits, per fit: a Theil–Sen line with its interval over the recent window's
 * points (two hours of 15 s scrapes: 480 points, thinned to {@link SenSlope#MAX_POINTS}), and a
 * whole reading of chosen points as the state-growth rule makes one per diagnosis. On the kept
 * load these fits were a quarter of the service's CPU (docs/BENCHMARKS.md, profile).
 *
 * <p>{@code java -jar bench/target/benchmarks.jar TrendBench}; {@code java -cp
 * bench/target/benchmarks.jar dev.checkpointdoctor.bench.TrendBench} reports thread CPU time per
 * fit instead of wall-clock time (shared machine).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TrendBench {
  /** Points in the window: a short fit, and two hours of 15 s scrapes. */
  @Param({"40", "480"})
  public int points;

  /** {@code noisy}: a slow rise in noise; {@code integral}: whole numbers with many ties. */
  @Param({"noisy", "integral"})
  public String shape;

  private double[] x;
  private double[] y;
  private long[] times;
  private double[] values;

  @Setup
  public void setUp() {
    Random r = new Random(7);
    x = new double[points];
    y = new double[points];
    times = new long[points];
    values = new double[points];
    long now = 1_700_000_000_000L;
    for (int i = 0; i < points; i++) {
      times[i] = now - (points - i) * 15_000L;
      x[i] = (times[i] - now) / 3_600_000.0;
      double level = 2_000 * Math.exp(0.02 * x[i]);
      values[i] = "integral".equals(shape)
          ? Math.rint(20 + 3 * r.nextGaussian()) : level * (1 + 0.05 * r.nextGaussian());
      y[i] = Math.log(values[i]);
    }
  }

  @Benchmark
  public SenSlope.Fit senSlope() {
    return SenSlope.fit(x, y, points, GrowthTest.CONFIDENCE);
  }

  @Benchmark
  public GrowthReading ofPoints() {
    return GrowthTest.ofPoints(Signal.CHECKPOINT_FULL_SIZE, times, values, points,
        times[points - 1], GrowthTest.RECENT_RATE, GrowthTest.RECENT_LOWER);
  }

  /** Thread CPU µs per call for every shape and size, five 1 s windows each after 2 s. */
  public static void main(String[] args) {
    for (String shape : new String[] {"noisy", "integral"}) {
      for (int points : new int[] {40, 480}) {
        TrendBench b = new TrendBench();
        b.shape = shape;
        b.points = points;
        b.setUp();
        report(String.format("senSlope %s %d", shape, points), () -> b.senSlope().slope());
        report(String.format("ofPoints %s %d", shape, points), () -> b.ofPoints().rate());
      }
    }
  }

  private static void report(String name, java.util.function.DoubleSupplier call) {
    ThreadCpu.warm(call, 10, 2_000_000_000L);
    StringBuilder out = new StringBuilder(name + ", CPU µs per call:");
    for (int w = 0; w < 5; w++) {
      out.append(String.format(" %.1f", ThreadCpu.window(call, 10, 1_000_000_000L) / 1000));
    }
    System.out.println(out);
  }
}
