package dev.checkpointdoctor.eval.family2;

import java.util.SplittableRandom;

/**
 * The heap and garbage collector of one TaskManager JVM. Young collections run every time the
 * young generation fills (allocation rate / young size) and cost a pause that grows with what
 * survives; once the live set passes the initiating occupancy, mixed and finally full
 * collections take an ever larger share of the time, roughly as {@code 1 / (1 - occupancy)}.
 * Pauses stop every task thread of the TaskManager.
 */
final class Jvm {
  /** Collector bean names as Flink exports them (spaces replaced by underscores). */
  static final String[] G1 = {"G1_Young_Generation", "G1_Old_Generation"};
  static final String[] G1_JDK21 = {"G1_Young_Generation", "G1_Old_Generation", "G1_Concurrent_GC"};
  static final String[] PARALLEL = {"PS_Scavenge", "PS_MarkSweep"};

  final double heapMax;
  final String[] collectors;
  final double[] collectorTimeMs;
  private final boolean parallel;
  /** Live bytes after the last collection. */
  double liveBytes;
  /** GC time in the last tick, ms per second. */
  double gcMsPerSecond;
  /** What Flink's {@code All.TimeMsPerSecond} shows: the rate over the recent past. */
  double gcRateSmoothed;
  private double youngBytes;

  Jvm(double heapMax, String[] collectors, double bootMs) {
    this.heapMax = heapMax;
    this.collectors = collectors;
    this.collectorTimeMs = new double[collectors.length];
    this.parallel = collectors[0].startsWith("PS_");
    collectorTimeMs[0] = Math.floor(bootMs);
  }

  double occupancy() {
    return Math.min(0.995, liveBytes / heapMax);
  }

  /**
   * Advances one tick.
   *
   * @param live live bytes on the heap (state on a heap backend, caches, buffers, leaks)
   * @param allocPerSecond bytes allocated per second by the task threads
   * @param cpuFactor CPU the JVM gets (1 = unthrottled); GC threads are throttled too
   */
  void step(double live, double allocPerSecond, double cpuFactor, double dt,
      SplittableRandom rng) {
    liveBytes = Math.min(heapMax * 0.995, live);
    double o = occupancy();
    youngBytes = Math.max(heapMax * 0.04, Math.min(heapMax * 0.6, (heapMax - liveBytes) * 0.6));
    double youngPerSecond = allocPerSecond / youngBytes;
    double pauseMs = (3 + 12 * Math.min(1, allocPerSecond / (200 * 1048576.0)))
        * (1 + 3 * Math.max(0, o - 0.55)) / Math.max(0.2, cpuFactor);
    double young = Math.min(400, youngPerSecond * pauseMs);
    double pressure = Math.max(0, o - 0.5);
    double old = 1000 * 0.15 * pressure * pressure / (1 - o + 0.03) / Math.max(0.3, cpuFactor);
    double full = o > 0.92 ? 1000 * 0.25 * (o - 0.92) / 0.08 : 0;
    // a full collection happens or not in a given tick: lumpy, as in a real log
    double fullTick = full > 0 && rng.nextDouble() < Math.min(1, full / 300) ? 300 : 0;
    double total = Math.min(950, young + old + fullTick);
    double scale = total / Math.max(1e-9, young + old + fullTick);
    young *= scale;
    old *= scale;
    fullTick *= scale;
    gcMsPerSecond = total;
    if (parallel) {
      collectorTimeMs[0] += young * dt;
      collectorTimeMs[1] += (old + fullTick) * dt;
    } else {
      // G1 reports mixed collections under the young bean, full collections under the old
      collectorTimeMs[0] += (young + old * 0.85) * dt;
      collectorTimeMs[1] += fullTick * dt;
      if (collectors.length > 2) {
        collectorTimeMs[2] += old * 0.15 * dt;
      }
    }
    double a = 1 - Math.exp(-dt / 30.0);
    gcRateSmoothed += (total - gcRateSmoothed) * a;
  }

  /**
   * Heap used as a scrape sees it: the live set plus however full the young generation is.
   *
   * @param youngFill where in its fill-and-collect cycle the young generation is (0..1)
   * @param garbageFill how much collectable garbage the old generation holds (0..1)
   */
  double heapUsed(double youngFill, double garbageFill) {
    double garbage = (heapMax - liveBytes - youngBytes) * 0.15 * garbageFill;
    return Math.floor(Math.min(heapMax * 0.998,
        liveBytes + youngBytes * youngFill + Math.max(0, garbage)));
  }
}
