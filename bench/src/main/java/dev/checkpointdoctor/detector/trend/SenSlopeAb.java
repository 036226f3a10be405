package dev.checkpointdoctor.detector.trend;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Random;
import java.util.function.DoubleSupplier;

/**
 * Thread CPU per Theil–Sen fit with every pair slope stored and partitioned (the way before
 * {@link PairSlopes}: {@code SenSlope.fit(..., sampled = false)}) and with the sampled selection,
 * alternating in one JVM, so that neighbours on a shared machine weigh on both alike:
 * {@code nice -n 5 java -cp bench/target/benchmarks.jar
 * dev.checkpointdoctor.detector.trend.SenSlopeAb [rounds]}. Each line: the shape, points, fit
 * (with interval) or line, and µs per call of each, median of the rounds' 0.5 s windows.
 */
public final class SenSlopeAb {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static double sink;

  private SenSlopeAb() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    for (String shape : new String[] {"noisy", "integral"}) {
      for (int n : new int[] {50, 70, 100, 150, 480}) {
        double[][] xy = series(shape, n);
        double[] x = xy[0];
        double[] y = xy[1];
        for (boolean interval : new boolean[] {true, false}) {
          DoubleSupplier before = interval
              ? () -> SenSlope.fit(x, y, n, GrowthTest.CONFIDENCE, true, false).lower()
              : () -> SenSlope.fit(x, y, n, Double.NaN, false, false).slope();
          DoubleSupplier after = interval
              ? () -> SenSlope.fit(x, y, n, GrowthTest.CONFIDENCE).lower()
              : () -> SenSlope.line(x, y, n).slope();
          if (before.getAsDouble() != after.getAsDouble()) {
            throw new AssertionError("different fits: " + shape + " " + n);
          }
          window(before, 1_000_000_000L);
          window(after, 1_000_000_000L);
          double[] a = new double[rounds];
          double[] b = new double[rounds];
          for (int r = 0; r < rounds; r++) {
            a[r] = window(before, 500_000_000L);
            b[r] = window(after, 500_000_000L);
          }
          java.util.Arrays.sort(a);
          java.util.Arrays.sort(b);
          System.out.printf("%-8s n=%3d %-4s stored %7.2f µs  sampled %7.2f µs  (%.2fx)%n", shape, n,
              interval ? "fit" : "line", a[rounds / 2] / 1000, b[rounds / 2] / 1000,
              a[rounds / 2] / b[rounds / 2]);
        }
      }
    }
    if (sink == 42) {
      System.out.println();
    }
  }

  /** As the trend test's recent window: 15 s scrapes in hours, logs of a slow noisy rise. */
  private static double[][] series(String shape, int n) {
    Random r = new Random(7);
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = -(n - i) * 15 / 3600.0;
      double level = 2_000 * Math.exp(0.02 * x[i]);
      double v = "integral".equals(shape) ? Math.rint(20 + 3 * r.nextGaussian())
          : level * (1 + 0.05 * r.nextGaussian());
      y[i] = Math.log(v);
    }
    return new double[][] {x, y};
  }

  private static double window(DoubleSupplier call, long cpuNs) {
    long start = THREADS.getCurrentThreadCpuTime();
    long calls = 0;
    long cpu;
    double s = 0;
    do {
      for (int i = 0; i < 20; i++) {
        s += call.getAsDouble();
      }
      calls += 20;
      cpu = THREADS.getCurrentThreadCpuTime() - start;
    } while (cpu < cpuNs);
    sink += s;
    return (double) cpu / calls;
  }
}
