package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.eval.scenario.ScenarioSpec.Fault;
import java.util.SplittableRandom;

/**
 * How four faults unfold at production time scale (family 1's production mode only; the original
 * corpus keeps its simpler switches). Written from how the systems behave, not from any rule:
 *
 * <ul>
 *   <li>burst-credit disk: the job's gp2 volume is sized close to its own need; extra demand
 *       (a neighbour, cache misses) drains the credit bucket for hours while the rate is served
 *       above the baseline; once empty, the volume delivers its baseline with the small wobble
 *       of a token bucket measured over a scrape (about 1 %), busy all the time with requests
 *       queueing. RocksDB's flushes and compactions then fall behind: level-0 files, pending
 *       compaction and write delays build up over minutes, after the ceiling;
 *   <li>slow checkpoint storage: uploads slower by a heavy-tailed amount per checkpoint (an
 *       overloaded object store or NameNode: most a few times slower, some many times, a few
 *       past the timeout);
 *   <li>unaligned checkpoints under back-pressure: the network buffers fill, and every
 *       checkpoint persists them: 20-50 times the in-flight data a flowing job holds;
 *   <li>a redeploy to a shorter interval: barriers are injected while the previous checkpoint's
 *       snapshot still occupies the task, so they start a little later.
 * </ul>
 */
final class FaultPhysics {
  private final SplittableRandom rng;
  // burst-credit disk
  final double ceilingFactor;
  final double extraDemandFactor;
  final long demandRiseAtMs;
  private final long stallLagMs;
  private final long stallRampMs;
  // slow store
  private final double storeMedianFactor;
  private final double storeSigma;
  // unaligned inflation
  private final double bufferHeadroom;

  /** Salt of the physics' own generator, so the job's other draws stay what they were. */
  private static final long SALT = 0x2545F4914F6CDD1DL;

  /**
   * The physics of {@code spec}'s fault for a simulation drawn from {@code seed}, or null for a
   * healthy job and for the original corpus' simpler switches (no production traits). The
   * simulator and the manifest both draw it here, so what the manifest says of it is what plays.
   */
  static FaultPhysics drawn(ScenarioSpec spec, long faultStartMs, long seed) {
    if (spec.fault() == null || spec.traits() == ProductionTraits.NONE) {
      return null;
    }
    return new FaultPhysics(spec.fault(), faultStartMs, new SplittableRandom(seed ^ SALT));
  }

  FaultPhysics(Fault fault, long faultStartMs, SplittableRandom rng) {
    this.rng = rng;
    boolean disk = fault == Fault.DISK_THROTTLING;
    ceilingFactor = disk ? uniform(1.05, 1.3) : 0;
    extraDemandFactor = disk ? uniform(0.8, 1.6) : 0;
    demandRiseAtMs = disk ? faultStartMs - (long) (uniform(1, 4) * 3_600_000L) : Long.MAX_VALUE;
    stallLagMs = disk ? (long) uniform(60_000, 300_000) : 0;
    stallRampMs = disk ? (long) uniform(180_000, 600_000) : 1;
    boolean store = fault == Fault.CHECKPOINT_STORAGE_SLOW;
    storeMedianFactor = store ? uniform(0.4, 1.0) : 0;
    storeSigma = store ? uniform(0.8, 1.2) : 0;
    bufferHeadroom = fault == Fault.UNALIGNED_CHECKPOINT_INFLATION ? uniform(20, 50) : 1;
  }

  /** Extra I/O demand on the volume at {@code t}: it rises over ten minutes, hours before. */
  double extraDemand(long t, double baseIops) {
    if (t < demandRiseAtMs) {
      return 0;
    }
    return baseIops * extraDemandFactor * Math.min(1, (t - demandRiseAtMs) / 600_000.0);
  }

  /** What the volume serves once its credits are gone: the baseline, wobbling about 1 %. */
  double served(double demand, double ceiling, double f, double gaussian) {
    double capped = Math.min(demand, ceiling * (1 + 0.01 * gaussian));
    return demand * (1 - f) + capped * f;
  }

  /** How far RocksDB has fallen behind the disk (0-1): it starts after the ceiling, over minutes. */
  double stallLevel(long t, long faultStartMs) {
    long since = t - faultStartMs - stallLagMs;
    return since <= 0 ? 0 : Math.min(1, since / (double) stallRampMs);
  }

  /** Extra upload time of one checkpoint on the slow store (heavy-tailed), in ms. */
  double slowUploadMs(long intervalMs, double f) {
    return f * intervalMs * storeMedianFactor * Math.exp(storeSigma * gaussian());
  }

  /**
   * In-flight data persisted by one unaligned checkpoint: what the flowing job holds, moving
   * towards full buffers as back-pressure fills them.
   */
  double inFlight(double flowing, double pressure) {
    double full = flowing * bufferHeadroom * Math.exp(0.15 * gaussian());
    return flowing * (1 - pressure) + full * pressure;
  }

  /** Extra barrier delay when the previous checkpoint still occupies the task, in ms. */
  double backToBackDelayMs() {
    return uniform(200, 1500);
  }

  private double uniform(double lo, double hi) {
    return lo + (hi - lo) * rng.nextDouble();
  }

  private double gaussian() {
    double u = 1 - rng.nextDouble();
    double v = rng.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
