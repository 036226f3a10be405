package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.detector.baseline.Band;
import dev.checkpointdoctor.detector.baseline.RobustBaseline;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
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
 * One scrape's baseline updates: every baseline of a fleet learns one observation and its band is
 * recomputed, as {@code SignalTracker} does before judging the next one. Windows are full (120
 * observations, the default), timestamps shared by all series as one target's scrape gives them.
 * Half the series carry continuous noise, half small integers with many ties (queue lengths,
 * file counts). With thousands of baselines the windows no longer fit in the caches, as in the
 * server; one baseline alone measures the arithmetic.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.checkpointdoctor.bench.BaselineBench}
 * reports thread CPU time per update instead of wall-clock time (shared machine).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BaselineBench {
  private static final int NOISE = 1 << 12;

  @Param({"1", "5000"})
  public int baselines;

  private RobustBaseline[] window;
  private double[] level;
  private final double[] noise = new double[NOISE];
  private long ts = 1_700_000_000_000L;
  private int round;

  @Setup
  public void setUp() {
    Random r = new Random(7);
    for (int i = 0; i < NOISE; i++) {
      noise[i] = r.nextGaussian();
    }
    DetectorSettings settings = DetectorSettings.defaults();
    window = new RobustBaseline[baselines];
    level = new double[baselines];
    for (int i = 0; i < baselines; i++) {
      window[i] = new RobustBaseline(Signal.CHECKPOINT_DURATION, settings);
      level[i] = 50 + r.nextInt(5000);
    }
    for (int k = 0; k < settings.windowSize() + 10; k++) {
      scrape();
    }
  }

  private double value(int i) {
    double z = noise[(round * 7919 + i * 31) & (NOISE - 1)];
    return (i & 1) == 0 ? level[i] * (1 + 0.05 * z) : Math.rint(4 + 2 * z);
  }

  private double scrape() {
    ts += 15_000;
    round++;
    double sum = 0;
    for (int i = 0; i < window.length; i++) {
      window[i].learn(ts, value(i));
      Band b = window[i].band();
      sum += b.upper();
    }
    return sum;
  }

  @Benchmark
  public double update() {
    return scrape() / baselines;
  }

  /** Thread CPU ns per update for 1 and 5,000 baselines, five 2 s windows each after 3 s. */
  public static void main(String[] args) {
    for (int n : new int[] {1, 5000}) {
      BaselineBench b = new BaselineBench();
      b.baselines = n;
      b.setUp();
      int batch = Math.max(1, 10_000 / n);
      ThreadCpu.warm(b::scrape, batch, 3_000_000_000L);
      StringBuilder out = new StringBuilder(String.format("%,d baselines, CPU ns per update:", n));
      for (int w = 0; w < 5; w++) {
        out.append(String.format(" %.1f", ThreadCpu.window(b::scrape, batch, 2_000_000_000L) / n));
      }
      System.out.println(out);
    }
  }
}
