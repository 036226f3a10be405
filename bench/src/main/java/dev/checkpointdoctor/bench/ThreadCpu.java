package dev.checkpointdoctor.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.DoubleSupplier;

/**
 * Measures in this thread's CPU time rather than wall time: on a machine whose cores are shared
 * with other work, wall-clock scores mostly measure the neighbours, while thread CPU time is close
 * to what one dedicated core would do. The CPU clock is read once per {@code batch} calls, because
 * reading it is a system call that would dominate a short call.
 */
final class ThreadCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  /** What the calls returned, summed and printed nowhere, so the JIT cannot drop them. */
  private static double sink;

  private ThreadCpu() {}

  /** Calls {@code call} until {@code cpuNs} of this thread's CPU time have passed. */
  static void warm(DoubleSupplier call, int batch, long cpuNs) {
    window(call, batch, cpuNs);
  }

  /** Calls {@code call} for at least {@code cpuNs} of CPU time; returns CPU ns per call. */
  static double window(DoubleSupplier call, int batch, long cpuNs) {
    long start = THREADS.getCurrentThreadCpuTime();
    long calls = 0;
    long cpu;
    double s = 0;
    do {
      for (int i = 0; i < batch; i++) {
        s += call.getAsDouble();
      }
      calls += batch;
      cpu = THREADS.getCurrentThreadCpuTime() - start;
    } while (cpu < cpuNs);
    sink += s;
    return (double) cpu / calls;
  }
}
