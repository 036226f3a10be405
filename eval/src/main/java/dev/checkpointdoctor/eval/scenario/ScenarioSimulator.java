package dev.checkpointdoctor.eval.scenario;

import static dev.checkpointdoctor.eval.scenario.ClusterTopology.KEYED;
import static dev.checkpointdoctor.eval.scenario.ClusterTopology.SINK;
import static dev.checkpointdoctor.eval.scenario.ClusterTopology.SOURCE;
import static dev.checkpointdoctor.eval.scenario.ClusterTopology.STATES;
import static dev.checkpointdoctor.eval.scenario.ClusterTopology.TASKS;

import dev.checkpointdoctor.eval.scenario.ScenarioSpec.Control;
import dev.checkpointdoctor.eval.scenario.ScenarioSpec.Fault;
import dev.checkpointdoctor.eval.scenario.ScenarioSpec.RocksDbShape;
import java.util.SplittableRandom;

/**
 * Simulates one Flink job (source → keyed RocksDB/heap operator → sink, keyBy between source and
 * operator) with its TaskManagers' nodes and pods, scrape by scrape in event time, and records
 * what Prometheus would have stored.
 *
 * <p>The model is coarse but causal: a fault changes a capacity, a bandwidth, a heap or a load;
 * throughput, busy and back-pressured time, barrier delays, checkpoint durations and sizes, disk
 * counters and RocksDB properties follow from that, with multiplicative noise on top. Checkpoints
 * are scheduled like Flink's coordinator with one concurrent checkpoint: the next one triggers at
 * {@code max(previous trigger + interval, previous end)}; one running longer than the timeout
 * expires and counts as failed.
 */
final class ScenarioSimulator {
  static final long TIMEOUT_MS = 600_000;
  private static final double KEYED_HEADROOM = 2.3;
  private static final double SINK_HEADROOM = 2.6;
  private static final double STORAGE_BYTES_PER_S = 60e6;
  private static final double DELAYED_WRITE_RATE = 16_777_216; // RocksDB's default, bytes/s
  private static final String[] FLINK_JOB = {"job", "flink"};

  private final ScenarioSpec spec;
  private final SplittableRandom rng;
  private final ClusterTopology topo;
  private final SampleOut rec;
  /** Production traits, or null for a scenario of the original corpus. */
  private final ProductionEffects effects;
  /** Production-scale physics of the faults that need more than a switch, or null. */
  private final FaultPhysics physics;
  private final int maxP;
  private final int maxTms;
  // parallelism, TaskManagers and checkpoint interval of the running deployment
  private int p;
  private int tms;
  private long intervalMs;
  private int declinedLeft;
  private int deployAttempt = 1;
  private final long startMs;
  private final long faultStartMs;
  private final long endMs;
  private final long stepMs;
  private final long jmOffset;
  private final long[] tmOffset;
  private final long[] nodeOffset;
  private final double baseIops;
  private final double diskCeiling;
  private final double storageBytesPerS;
  private final int hotSubtask;

  // autocorrelated noise (HealthStress.Noise.AR): one state per noise draw of a scrape
  private double[] arState = new double[64];
  private int arNext;
  // slowly wandering load (AR(1) in log space)
  private double wander;
  // a load regime of HealthStress.Noise.SLOW: its factor and when it ends
  private double regime = 1;
  private long regimeEndMs;
  // what the last tick computed
  private double theta = 1;
  private double load = 1;
  private boolean sinkBottleneck;
  private double[] share;
  private double[] busy;
  private double[] bpKeyed;
  private double[] busySink;
  private double busySource;
  private double bpSource;
  // checkpoint coordinator
  private long nextTriggerMs;
  private long runTriggerMs = -1;
  private long runEndMs;
  private boolean runFails;
  private double runDuration;
  private double runSize;
  private double runFull;
  private double runPersisted;
  // in-flight data that wanders with the buffers' fill (ProductionTraits.wanderingInFlight)
  private double inFlightLevel = -1;
  private double inFlightWander;
  private double[][] runDelay;
  private double[][] runAlign;
  private long checkpointId;
  private long lastCompletedId = -1;
  private long completed;
  private long failed;
  private double lastDuration = -1;
  private double lastSize = -1;
  private double lastFull = -1;
  private double lastPersisted = -1;
  private double lastCompletedTs = -1;
  private final double[][] lastDelay;
  private final double[][] lastAlign;
  private boolean slowCheckpointDone;
  // restart control
  private final long restartAtMs;
  private final long restartDownMs;
  private boolean restarted;
  // counters
  private final double[] reads;
  private final double[] writes;
  private final double[] writtenBytes;
  private final double[] ioTime;
  private final double[] readTime;
  private final double[] writeTime;
  private final double[] cfsPeriods;
  private final double[] cfsThrottled;
  private final double[] gcYoung;
  private final double[] gcOld;
  private final double[] heapMax;
  private final double[] stallMicros;
  private final double[][] pending;

  ScenarioSimulator(ScenarioSpec spec, long startMs, long seed, SampleOut rec) {
    this.spec = spec;
    this.rng = new SplittableRandom(seed);
    this.maxP = spec.maxParallelism();
    this.maxTms = spec.taskManagers(maxP);
    this.topo = new ClusterTopology(spec, rng, maxTms);
    this.rec = rec;
    this.effects = spec.traits() == ProductionTraits.NONE ? null
        : new ProductionEffects(spec.traits(), seed);
    this.p = spec.parallelism();
    this.tms = spec.taskManagers();
    this.intervalMs = spec.checkpointIntervalSeconds() * 1000L;
    this.declinedLeft = spec.traits().declinedAtStart();
    this.startMs = startMs;
    this.faultStartMs = startMs + (long) (spec.normalHours() * 3_600_000L);
    this.endMs = startMs + spec.durationMs();
    this.stepMs = spec.scrapeSeconds() * 1000L;
    this.physics = FaultPhysics.drawn(spec, faultStartMs, seed);
    this.jmOffset = rng.nextLong(stepMs);
    this.tmOffset = new long[maxTms];
    this.nodeOffset = new long[maxTms];
    for (int i = 0; i < maxTms; i++) {
      tmOffset[i] = rng.nextLong(stepMs);
      nodeOffset[i] = rng.nextLong(stepMs);
    }
    this.baseIops = Math.min(2600, 700 + spec.stateBytes() / 1e9 * 120) * (0.8 + 0.4 * rng.nextDouble());
    // gp2: 3 IOPS per GiB, at least 100. The volume is sized so its baseline sits well below
    // the normal demand (10-40 %): otherwise running out of burst credits changes nothing.
    double ceiling = Math.max(100, 3 * Math.rint(baseIops * (0.1 + 0.3 * rng.nextDouble()) / 3));
    if (physics != null && is(Fault.DISK_THROTTLING)) {
      // production: a volume sized close to the job's own need, drained by extra demand
      ceiling = Math.max(100, 3 * Math.rint(baseIops * physics.ceilingFactor / 3));
    }
    this.diskCeiling = ceiling;
    double perSubtaskIncrement = spec.stateBytes() * churn() / p;
    if (spec.traits().normalDurationSeconds() > 0) {
      this.storageBytesPerS = perSubtaskIncrement / spec.traits().normalDurationSeconds();
    } else {
      this.storageBytesPerS = spec.fault() == Fault.CHECKPOINT_INTERVAL_TOO_SHORT
          ? perSubtaskIncrement / (0.5 * spec.checkpointIntervalSeconds())
          : STORAGE_BYTES_PER_S;
    }
    this.hotSubtask = rng.nextInt(p);
    this.lastDelay = new double[TASKS.length][maxP];
    this.lastAlign = new double[TASKS.length][maxP];
    if (spec.traits().redeploys()) {
      this.restartAtMs = startMs + (long) (spec.traits().redeployAtHours() * 3_600_000L);
    } else {
      this.restartAtMs = spec.control() == Control.RESTART ? faultStartMs : Long.MAX_VALUE;
    }
    this.restartDownMs = 60_000 + rng.nextInt(60) * 1000L;
    reads = new double[maxTms];
    writes = new double[maxTms];
    writtenBytes = new double[maxTms];
    ioTime = new double[maxTms];
    readTime = new double[maxTms];
    writeTime = new double[maxTms];
    cfsPeriods = new double[maxTms];
    cfsThrottled = new double[maxTms];
    gcYoung = new double[maxTms];
    gcOld = new double[maxTms];
    heapMax = new double[maxTms];
    for (int i = 0; i < maxTms; i++) {
      heapMax[i] = (spec.rocksdb() == RocksDbShape.NONE ? 6e9 : 1.5e9) * (1 + rng.nextInt(3));
      reads[i] = 1e6 * rng.nextDouble();
      writes[i] = 4e6 * rng.nextDouble();
      writtenBytes[i] = writes[i] * 24_000;
      ioTime[i] = 1e4 * rng.nextDouble();
      readTime[i] = reads[i] * 4e-4;
      writeTime[i] = writes[i] * 8e-4;
      cfsPeriods[i] = 1e5 * rng.nextDouble();
      cfsThrottled[i] = cfsPeriods[i] * 0.01;
    }
    stallMicros = new double[maxP];
    pending = new double[maxP][STATES.length];
    nextTriggerMs = startMs + rng.nextLong(intervalMs);
  }

  long faultStartMs() {
    return faultStartMs;
  }

  String jobName() {
    return topo.jobName;
  }

  void run() {
    for (long t = startMs; t < endMs; t += stepMs) {
      arNext = 0;
      tick(t);
      // every sample of a later scrape is stamped at or after its start
      rec.nothingBefore(t + stepMs);
    }
  }

  // ------------------------------------------------------------------ physics

  private double churn() {
    return spec.incremental() ? 0.06 : 1.0;
  }

  /** Fault level in [0,1]: 0 before the fault, ramping up over a minute or two. */
  private double level(long t) {
    if (spec.fault() == null || t < faultStartMs) {
      return 0;
    }
    if (spec.traits().storageSlowdown() > 0) {
      return 1; // one step
    }
    long ramp = spec.traits().rampMinutes() > 0 ? (long) (spec.traits().rampMinutes() * 60_000)
        : spec.fault() == Fault.DISK_THROTTLING ? 60_000 : 120_000;
    return Math.min(1, (t - faultStartMs + 1.0) / ramp);
  }

  private boolean is(Fault f) {
    return spec.fault() == f;
  }

  private double noise() {
    return Math.exp(spec.noise() * switch (spec.traits().noise()) {
      case GAUSSIAN -> gaussian();
      case HEAVY -> heavy();
      case AR -> autocorrelated();
      case SLOW -> gaussian();
    });
  }

  /**
   * The load of {@link HealthStress.Noise#SLOW}: AR(1) in log space with a 15-minute e-folding
   * time in event time (whatever the scrape) and a stationary spread of 7 %, and regimes that
   * start at 0.1 per hour, shift the level by a log-normal 7 % and last 45 minutes on average.
   */
  private void wanderSlowly(long t) {
    double phi = Math.exp(-stepMs / 900_000.0);
    wander = phi * wander + 0.07 * Math.sqrt(1 - phi * phi) * gaussian();
    if (regime != 1 && t >= regimeEndMs) {
      regime = 1;
    } else if (regime == 1 && rng.nextDouble() < 0.1 * stepMs / 3_600_000.0) {
      regime = Math.exp(0.07 * gaussian());
      regimeEndMs = t + (long) (-45 * 60_000 * Math.log(1 - rng.nextDouble()));
    }
  }

  /**
   * Laplace with unit variance: exponential tails, so values several sigmas out come far more
   * often than from a Gaussian, yet no draw turns a checkpoint of seconds into a timeout.
   */
  private double heavy() {
    double u = rng.nextDouble() - 0.5;
    return -Math.signum(u) * Math.log(1 - 2 * Math.abs(u)) / Math.sqrt(2);
  }

  /**
   * AR(1) at 0.9 per scrape with unit variance: the n-th noise draw of a scrape continues the
   * n-th of the previous one (the same series, as long as the draws come in the same order).
   */
  private double autocorrelated() {
    if (arNext == arState.length) {
      arState = java.util.Arrays.copyOf(arState, 2 * arState.length);
    }
    double z = 0.9 * arState[arNext] + Math.sqrt(1 - 0.81) * gaussian();
    arState[arNext++] = z;
    return z;
  }

  private double gaussian() {
    double u = 1 - rng.nextDouble();
    double v = rng.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  private double uniform(double lo, double hi) {
    return lo + (hi - lo) * rng.nextDouble();
  }

  private double fullState(long t) {
    double full = spec.stateBytes();
    if (effects != null) {
      full *= effects.stateFactor(t, is(Fault.STATE_GROWTH) ? faultStartMs : Long.MAX_VALUE,
          restarted);
    }
    if (is(Fault.STATE_GROWTH) && t >= faultStartMs && spec.traits().growthPerHour() <= 0) {
      double hours = (t - faultStartMs) / 3_600_000.0;
      full *= 1 + spec.severity() * hours;
    }
    return full * (1 + 0.02 * Math.sin(t / 7_200_000.0));
  }

  private boolean onThrottledNode(int tm) {
    return tm == 0;
  }

  private double keyedCapacityFactor(int subtask, double f) {
    int tm = topo.tmOf(subtask, spec.slotsPerTm());
    double c = 1;
    double s = spec.severity();
    if (is(Fault.DISK_THROTTLING) && onThrottledNode(tm)) {
      c *= 1 - 0.6 * f * s;
    }
    if (is(Fault.ROCKSDB_WRITE_STALL)) {
      c *= 1 - 0.65 * f * s;
    }
    return c * tmCapacityFactor(tm, f);
  }

  private double tmCapacityFactor(int tm, double f) {
    double c = 1;
    if (is(Fault.GC_PRESSURE)) {
      c *= 1 - 0.6 * f * spec.severity();
    }
    if (is(Fault.CPU_THROTTLING) && cpuThrottled(tm)) {
      c *= 1 - 0.65 * f * spec.severity();
    }
    return c;
  }

  private boolean cpuThrottled(int tm) {
    return tm == 0 || spec.severity() > 1;
  }

  private void physics(long t, double f) {
    if (spec.traits().noise() == HealthStress.Noise.SLOW) {
      wanderSlowly(t);
    } else {
      wander = 0.97 * wander + 0.25 * spec.noise() * gaussian();
    }
    double daily = spec.control() == Control.DAILY_LOAD
        ? 1 + 0.4 * Math.sin(2 * Math.PI * (t - startMs) / 86_400_000.0) : 1;
    if (effects != null) {
      daily *= effects.cycle(t);
    }
    load = daily * Math.exp(wander) * regime * spec.traits().loadFactor(t, faultStartMs);
    if (is(Fault.CHECKPOINT_INTERVAL_TOO_SHORT) && spec.traits().intervalAfterSeconds() <= 0) {
      load *= 1 + 1.0 * f * spec.severity(); // a backfill doubles the input
    }
    double rate = spec.recordsPerSecond() * load;
    share = new double[p];
    double hot = is(Fault.DATA_SKEW) ? 1 + 3 * f * spec.severity() : 1;
    double total = 0;
    for (int i = 0; i < p; i++) {
      share[i] = (i == hotSubtask ? hot : 1) * (1 + 0.03 * gaussian());
      total += share[i];
    }
    theta = 1;
    double[] keyedCap = new double[p];
    double[] sinkCap = new double[p];
    double perSubtask = spec.recordsPerSecond() / p;
    boolean sinkSlow = is(Fault.BACKPRESSURE) || is(Fault.UNALIGNED_CHECKPOINT_INFLATION);
    sinkBottleneck = false;
    for (int i = 0; i < p; i++) {
      share[i] /= total;
      keyedCap[i] = perSubtask * KEYED_HEADROOM * keyedCapacityFactor(i, f);
      theta = Math.min(theta, keyedCap[i] / (rate * share[i]));
      int tm = topo.tmOf(i, spec.slotsPerTm());
      sinkCap[i] = perSubtask * SINK_HEADROOM * tmCapacityFactor(tm, f)
          * (sinkSlow ? 1 - 0.72 * f * spec.severity() : 1);
      double sinkTheta = sinkCap[i] / (rate / p);
      if (sinkTheta < theta) {
        theta = sinkTheta;
        sinkBottleneck = true;
      }
    }
    double flowing = rate * theta;
    busy = new double[p];
    bpKeyed = new double[p];
    busySink = new double[p];
    for (int i = 0; i < p; i++) {
      busy[i] = clampMs(1000 * flowing * share[i] / keyedCap[i] * noise());
      bpKeyed[i] = sinkBottleneck ? clampMs(0.95 * (1000 - busy[i]) * noise()) : 0;
      busySink[i] = clampMs(1000 * flowing / p / sinkCap[i] * noise());
    }
    busySource = clampMs(1000 * flowing / p / (perSubtask * 5) * noise());
    double pressure = Math.min(0.97, (1 - theta) * 5);
    bpSource = theta < 0.999 ? clampMs((1000 - busySource) * pressure * noise()) : 0;
  }

  private static double clampMs(double v) {
    return Math.max(0, Math.min(1000, v));
  }

  // ------------------------------------------------------------------ checkpoints

  private void coordinate(long t, double f, boolean jobUp) {
    if (!jobUp) {
      return;
    }
    while (true) {
      if (runTriggerMs >= 0) {
        if (runEndMs > t) {
          return;
        }
        finishCheckpoint();
        continue;
      }
      if (nextTriggerMs > t) {
        return;
      }
      trigger(nextTriggerMs, f);
    }
  }

  private void trigger(long at, double f) {
    checkpointId++;
    runTriggerMs = at;
    if (declinedLeft > 0) {
      decline(at);
      return;
    }
    double full = fullState(at);
    double s = spec.severity();
    runDelay = new double[TASKS.length][p];
    runAlign = new double[TASKS.length][p];
    double barrierMs = 0;
    double backlogMs = (1 - theta) * 90_000 * s;
    // the previous checkpoint still occupies every task alike (one delay per checkpoint)
    double backToBackMs = physics != null && is(Fault.CHECKPOINT_INTERVAL_TOO_SHORT) && restarted
        ? physics.backToBackDelayMs() : 0;
    for (int i = 0; i < p; i++) {
      boolean slowPath = !spec.unaligned()
          && (sinkBottleneck || !is(Fault.DATA_SKEW) || i == hotSubtask);
      double keyedDelay = uniform(1, 12) + (slowPath ? backlogMs * uniform(0.7, 1.0) : 0);
      if (spec.unaligned()) {
        keyedDelay += (1 - theta) * 400; // unaligned barriers overtake the buffers
      }
      keyedDelay += backToBackMs * uniform(0.9, 1.1);
      runDelay[KEYED][i] = Math.rint(keyedDelay);
      runAlign[KEYED][i] = spec.unaligned() ? 0
          : Math.rint(uniform(0, 3) + (1 - theta) * 20_000 * uniform(0.2, 1.0) * s);
      barrierMs = Math.max(barrierMs, keyedDelay + runAlign[KEYED][i]);
    }
    double keyedMax = barrierMs;
    for (int i = 0; i < p; i++) {
      double sinkDelay = (spec.unaligned() ? uniform(2, 15) : keyedMax * uniform(0.8, 1.0))
          + uniform(1, 10);
      runDelay[SINK][i] = Math.rint(sinkDelay);
      runAlign[SINK][i] = spec.unaligned() ? 0
          : Math.rint(uniform(0, 3) + (is(Fault.DATA_SKEW) ? keyedMax * 0.8 : 0));
      barrierMs = Math.max(barrierMs, sinkDelay + runAlign[SINK][i]);
    }
    double persisted = 0;
    if (spec.unaligned()) {
      if (spec.traits().wanderingInFlight()) {
        if (inFlightLevel < 0) {
          inFlightLevel = uniform(0.2e6, 2e6);
        }
        inFlightWander = 0.95 * inFlightWander + Math.sqrt(1 - 0.95 * 0.95) * gaussian();
        persisted = p * inFlightLevel * Math.pow(load, 1.5) * Math.exp(0.5 * inFlightWander)
            * Math.exp(0.05 * gaussian());
      } else {
        persisted = spec.traits().heavyTailedInFlight() ? effects.inFlight(p, load)
            : p * uniform(0.2e6, 2e6);
      }
      if (physics != null && is(Fault.UNALIGNED_CHECKPOINT_INFLATION)) {
        persisted = physics.inFlight(persisted, Math.min(1, (1 - theta) * 5));
      } else if (theta < 1) {
        // in-flight buffers of every back-pressured channel are written into the checkpoint
        persisted += (1 - theta) * p * 2 * 300e6 * uniform(0.8, 1.2);
      }
      if (spec.traits().alignedTimeout() && theta >= 0.999) {
        persisted = 0; // aligned: no barrier waits long enough to turn the checkpoint unaligned
      }
    }
    // a full snapshot writes the whole state whatever the load (production model; the original
    // corpus scales every checkpoint with the load)
    double increment = full * churn() * (effects != null && !spec.incremental() ? 1 : load)
        * noise();
    double syncMs = uniform(15, 40) * noise();
    if (is(Fault.GC_PRESSURE)) {
      syncMs += 2500 * f * s * uniform(0.5, 1.5);
    }
    if (is(Fault.ROCKSDB_WRITE_STALL)) {
      syncMs += 4000 * f * s * uniform(0.5, 1.5);
    }
    double asyncMs = 0;
    for (int i = 0; i < p; i++) {
      int tm = topo.tmOf(i, spec.slotsPerTm());
      double bw = storageBytesPerS * noise();
      if (is(Fault.DISK_THROTTLING) && onThrottledNode(tm)) {
        bw *= 1 - 0.85 * f; // the SST files are read from the throttled local disk
      }
      if (is(Fault.CPU_THROTTLING) && cpuThrottled(tm)) {
        bw *= 1 - 0.7 * f * Math.min(1, s);
      }
      if (is(Fault.GC_PRESSURE)) {
        bw *= 1 - 0.4 * f;
      }
      if (is(Fault.CHECKPOINT_STORAGE_SLOW) && spec.traits().storageSlowdown() > 0 && f > 0) {
        bw /= spec.traits().storageSlowdown();
      }
      double bytes = (increment + persisted) / p;
      asyncMs = Math.max(asyncMs, 1000 * bytes / bw);
    }
    if (is(Fault.CHECKPOINT_STORAGE_SLOW) && f > 0 && spec.traits().storageSlowdown() <= 0) {
      // the store answers, but slowly (throttled object store, overloaded NameNode)
      if (physics != null && s < 1) {
        asyncMs += physics.slowUploadMs(intervalMs, f) * spec.traits().faultScale();
      } else {
        asyncMs += f * (s >= 1 ? 3_600_000 : s * 900_000 * uniform(0.7, 1.2));
      }
    }
    double duration = 80 + barrierMs + syncMs + asyncMs;
    if (spec.control() == Control.ISOLATED_SLOW_CHECKPOINT && !slowCheckpointDone
        && at >= faultStartMs) {
      slowCheckpointDone = true;
      duration = duration * 6 + 20_000; // one upload retried after a transient store error
    }
    if (effects != null) {
      duration = effects.maybeSlow(duration, intervalMs, TIMEOUT_MS);
    }
    runDuration = Math.rint(duration);
    runFails = duration > TIMEOUT_MS;
    runEndMs = at + (runFails ? TIMEOUT_MS : (long) duration);
    runSize = Math.rint(increment + persisted);
    runFull = Math.rint(full + persisted);
    runPersisted = Math.rint(persisted);
  }

  private void finishCheckpoint() {
    if (runFails) {
      failed++;
    } else {
      completed++;
      lastCompletedId = checkpointId;
      lastDuration = runDuration;
      lastSize = runSize;
      lastFull = runFull;
      lastPersisted = spec.unaligned() ? runPersisted : 0;
      lastCompletedTs = runEndMs;
    }
    for (int k = 0; k < TASKS.length; k++) {
      lastDelay[k] = runDelay[k];
      lastAlign[k] = runAlign[k];
    }
    nextTriggerMs = Math.max(runTriggerMs + intervalMs, runEndMs);
    runTriggerMs = -1;
  }

  private void restartJob(long upAt) {
    restarted = true;
    runTriggerMs = -1;
    topo.newJobId();
    completed = 0;
    failed = 0;
    lastCompletedId = -1;
    lastDuration = -1;
    lastSize = -1;
    lastFull = -1;
    lastPersisted = -1;
    lastCompletedTs = -1;
    ProductionTraits tr = spec.traits();
    if (tr.parallelismAfter() > 0) {
      p = tr.parallelismAfter();
      tms = spec.taskManagers(p);
    }
    if (tr.intervalAfterSeconds() > 0) {
      intervalMs = tr.intervalAfterSeconds() * 1000L;
    }
    if (effects != null) {
      topo.redeployPods(topo.jobName, ++deployAttempt);
    }
    declinedLeft = tr.declinedAtStart();
    for (int k = 0; k < TASKS.length; k++) {
      lastDelay[k] = new double[maxP];
      lastAlign[k] = new double[maxP];
    }
    java.util.Arrays.fill(stallMicros, 0);
    nextTriggerMs = upAt + intervalMs;
  }

  /**
   * A checkpoint declined at once because not every task runs yet (right after a start): it
   * counts as failed, and nothing about it reaches the task gauges.
   */
  private void decline(long at) {
    declinedLeft--;
    runDelay = new double[TASKS.length][];
    runAlign = new double[TASKS.length][];
    for (int k = 0; k < TASKS.length; k++) {
      runDelay[k] = lastDelay[k];
      runAlign[k] = lastAlign[k];
    }
    runFails = true;
    runEndMs = at + 5 + rng.nextInt(200);
  }

  // ------------------------------------------------------------------ one scrape

  private void tick(long t) {
    double f = level(t);
    boolean jobUp = t < restartAtMs || t >= restartAtMs + restartDownMs;
    if (!restarted && t >= restartAtMs + restartDownMs) {
      restartJob(t);
    }
    physics(t, f);
    coordinate(t, f, jobUp);
    double dt = stepMs / 1000.0;
    if (jobUp) {
      emitJobManager(t + jmOffset);
    }
    for (int tm = 0; tm < tms; tm++) {
      long ts = t + tmOffset[tm];
      emitTaskManager(tm, ts, f, dt);
      if (jobUp) {
        for (int i = 0; i < p; i++) {
          if (topo.tmOf(i, spec.slotsPerTm()) == tm) {
            emitSubtask(i, tm, ts, f, dt);
          }
        }
      }
      // the exporters' counters count on every tick; only their scrapes may be sparser
      boolean exporters = ((t - startMs) / stepMs) % spec.traits().exporterEvery() == 0;
      emitNode(tm, t + nodeOffset[tm], f, dt, exporters);
      if (spec.kubernetes()) {
        emitContainer(tm, t + nodeOffset[tm] + 3, f, dt, exporters);
      }
    }
  }

  private void emitJobManager(long ts) {
    String[] l = {"job_id", topo.jobId, "host", ClusterTopology.sanitize(topo.jmHost), "job_name",
        topo.jobName, "instance", topo.jmHost + ":9249", FLINK_JOB[0], FLINK_JOB[1]};
    String j = "flink_jobmanager_job_";
    rec.add(j + "lastCheckpointDuration", l, ts, lastDuration);
    rec.add(j + "lastCheckpointSize", l, ts, lastSize);
    rec.add(j + "lastCheckpointFullSize", l, ts, lastFull);
    rec.add(j + "lastCheckpointPersistedData", l, ts, lastPersisted);
    rec.add(j + "lastCompletedCheckpointId", l, ts, lastCompletedId);
    rec.add(j + "numberOfCompletedCheckpoints", l, ts, completed);
    rec.add(j + "numberOfFailedCheckpoints", l, ts, failed);
    rec.add(j + "numberOfInProgressCheckpoints", l, ts, runTriggerMs >= 0 ? 1 : 0);
    rec.add(j + "numRestarts", l, ts, 0);
    if (spec.flink2()) {
      rec.add(j + "lastCheckpointCompletedTimestamp", l, ts, lastCompletedTs);
    }
  }

  private void emitTaskManager(int tm, long ts, double f, double dt) {
    String[] l = {"host", topo.flinkHosts[tm], "tm_id", topo.tmIds[tm], "instance",
        topo.nodeIps[tm] + ":9249", FLINK_JOB[0], FLINK_JOB[1]};
    boolean gc = is(Fault.GC_PRESSURE);
    double saw = ((ts / 1000) % 97) / 97.0;
    double heapFraction = gc ? 0.35 + 0.25 * saw + f * (0.93 - 0.35 - 0.25 * saw) : 0.3 + 0.3 * saw;
    heapFraction = Math.min(0.995, heapFraction * (1 + 0.01 * gaussian()));
    double gcMsPerS = uniform(3, 15) * noise() + (gc ? f * spec.severity() * uniform(250, 450) : 0);
    gcMsPerS = Math.min(950, gcMsPerS);
    gcYoung[tm] += gcMsPerS * (gc ? 0.3 : 0.95) * dt;
    gcOld[tm] += gcMsPerS * (gc ? 0.7 : 0.05) * dt;
    String s = "flink_taskmanager_Status_JVM_";
    rec.add(s + "Memory_Heap_Used", l, ts, Math.rint(heapMax[tm] * heapFraction));
    rec.add(s + "Memory_Heap_Max", l, ts, heapMax[tm]);
    rec.add(s + "GarbageCollector_All_TimeMsPerSecond", l, ts, gcMsPerS);
    rec.add(s + "GarbageCollector_G1_Young_Generation_Time", l, ts, Math.rint(gcYoung[tm]));
    rec.add(s + "GarbageCollector_G1_Old_Generation_Time", l, ts, Math.rint(gcOld[tm]));
  }

  private String[] taskLabels(int task, int subtask, int tm, String... extra) {
    String[] base = {"job_id", topo.jobId, "task_id", topo.taskIds[task], "task_attempt_id",
        topo.attemptId(task, subtask), "host", topo.flinkHosts[tm], "task_name", TASKS[task],
        "task_attempt_num", "0", "job_name", topo.jobName, "tm_id", topo.tmIds[tm],
        "subtask_index", Integer.toString(subtask), "instance", topo.nodeIps[tm] + ":9249",
        FLINK_JOB[0], FLINK_JOB[1]};
    String[] out = java.util.Arrays.copyOf(base, base.length + extra.length);
    System.arraycopy(extra, 0, out, base.length, extra.length);
    return out;
  }

  private void emitSubtask(int i, int tm, long ts, double f, double dt) {
    String t = "flink_taskmanager_job_task_";
    double flowing = spec.recordsPerSecond() * load * theta;
    String[] src = taskLabels(SOURCE, i, tm);
    rec.add(t + "backPressuredTimeMsPerSecond", src, ts, round1(bpSource));
    rec.add(t + "busyTimeMsPerSecond", src, ts, round1(busySource));
    rec.add(t + "numRecordsInPerSecond", src, ts, 0);
    String[] keyed = taskLabels(KEYED, i, tm);
    rec.add(t + "backPressuredTimeMsPerSecond", keyed, ts, round1(bpKeyed[i]));
    rec.add(t + "busyTimeMsPerSecond", keyed, ts, round1(busy[i]));
    rec.add(t + "numRecordsInPerSecond", keyed, ts, round1(flowing * share[i] * noise()));
    rec.add(t + "checkpointStartDelayNanos", keyed, ts, lastDelay[KEYED][i] * 1e6);
    rec.add(t + "checkpointAlignmentTime", keyed, ts, lastAlign[KEYED][i] * 1e6);
    String[] sink = taskLabels(SINK, i, tm);
    rec.add(t + "backPressuredTimeMsPerSecond", sink, ts, 0);
    rec.add(t + "busyTimeMsPerSecond", sink, ts, round1(busySink[i]));
    rec.add(t + "numRecordsInPerSecond", sink, ts, round1(flowing / p * noise()));
    rec.add(t + "checkpointStartDelayNanos", sink, ts, lastDelay[SINK][i] * 1e6);
    rec.add(t + "checkpointAlignmentTime", sink, ts, lastAlign[SINK][i] * 1e6);
    if (spec.rocksdb() != RocksDbShape.NONE) {
      emitRocksDb(i, tm, ts, f, dt);
    }
  }

  private void emitRocksDb(int i, int tm, long ts, double f, double dt) {
    boolean disk = is(Fault.DISK_THROTTLING) && onThrottledNode(tm);
    boolean stall = is(Fault.ROCKSDB_WRITE_STALL);
    double s = spec.severity();
    // RocksDB falls behind a throttled disk over minutes, after the ceiling (production)
    double g = disk && physics != null ? physics.stallLevel(ts, faultStartMs) : f;
    String op = "flink_taskmanager_job_task_operator_";
    for (int c = 0; c < STATES.length; c++) {
      double weight = c == 0 ? 1 : 0.3;
      double growth = (disk ? 25e6 * g : 0) + (stall ? 60e6 * f * s : 0);
      if (growth > 0) {
        pending[i][c] = Math.min(120e9, pending[i][c] + growth * weight * dt);
      } else {
        pending[i][c] = rng.nextDouble() < 0.6 ? 0 : uniform(1e6, 64e6) * weight;
      }
      double l0 = disk ? 4 + 16 * g + uniform(-2, 3) : stall ? 20 + 14 * f * s + uniform(-3, 4)
          : rng.nextInt(4) + (c == 0 ? 1 : 0);
      l0 = Math.max(0, Math.rint(l0 * (c == 0 ? 1 : 0.6)));
      boolean slowdown = (disk && g > 0.5) || (stall && f > 0.3);
      double delayed = slowdown && c == 0 ? Math.rint(DELAYED_WRITE_RATE * uniform(0.1, 1)) : 0;
      boolean stopped = c == 0 && ((stall && rng.nextDouble() < 0.35 * f)
          || (disk && rng.nextDouble() < 0.05 * g));
      String[] l;
      String prefix;
      if (spec.rocksdb() == RocksDbShape.COLUMN_FAMILY_LABEL) {
        l = operatorLabels(i, tm, "column_family", STATES[c]);
        prefix = op + "column_family_rocksdb_";
      } else {
        l = operatorLabels(i, tm);
        prefix = op + STATES[c] + "_rocksdb_";
      }
      rec.add(prefix + "estimate_pending_compaction_bytes", l, ts, Math.rint(pending[i][c]));
      rec.add(prefix + "num_files_at_level0", l, ts, l0);
      rec.add(prefix + "actual_delayed_write_rate", l, ts, delayed);
      rec.add(prefix + "is_write_stopped", l, ts, stopped ? 1 : 0);
    }
    double stallRate = (disk ? g * uniform(150e3, 400e3) : 0)
        + (stall ? f * s * uniform(400e3, 900e3) : 0);
    stallMicros[i] += stallRate * dt;
    rec.add(op + "rocksdb_stall_micros", operatorLabels(i, tm), ts, Math.rint(stallMicros[i]));
  }

  private String[] operatorLabels(int i, int tm, String... extra) {
    String[] more = new String[4 + extra.length];
    more[0] = "operator_id";
    more[1] = topo.taskIds[KEYED];
    more[2] = "operator_name";
    more[3] = TASKS[KEYED];
    System.arraycopy(extra, 0, more, 4, extra.length);
    return taskLabels(KEYED, i, tm, more);
  }

  private void emitNode(int tm, long ts, double f, double dt, boolean scraped) {
    boolean throttled = is(Fault.DISK_THROTTLING) && onThrottledNode(tm);
    boolean stall = is(Fault.ROCKSDB_WRITE_STALL);
    // A counter grows over the whole step, so a checkpoint's extra I/O counts by the share of the
    // step checkpoints run, not by whether one runs at the step's last instant: that instant is
    // phase-locked with intervals that divide the step, which held the disk busier for hours.
    double duty = lastDuration > 0 ? Math.min(1, lastDuration / Math.max(intervalMs, 1)) : 0;
    double demand = baseIops * load * (1 + 0.3 * duty) * noise()
        * (stall ? 1 + 0.5 * f : 1) * (is(Fault.STATE_GROWTH) ? fullState(ts) / spec.stateBytes() : 1);
    double iops;
    if (throttled && physics != null) {
      demand += physics.extraDemand(ts, baseIops) * noise();
      iops = physics.served(demand, diskCeiling, f, gaussian());
    } else {
      iops = throttled
          ? demand * (1 - f) + diskCeiling * f * (1 + 0.004 * gaussian()) : demand;
    }
    double readFraction = 0.25 + 0.15 * duty;
    double util = Math.min(0.97, iops / (baseIops * 4) * noise()) * (stall ? 1 + 1.4 * f : 1);
    if (throttled) {
      util = util * (1 - f) + f * uniform(0.975, 1.0);
    }
    util = Math.min(1.0, util);
    double latR = uniform(0.3, 0.6) * noise() * (stall ? 1 + f : 1);
    double latW = uniform(0.6, 1.2) * noise() * (stall ? 1 + f : 1);
    if (throttled) {
      latR = latR * (1 - f) + f * uniform(20, 45);
      latW = latW * (1 - f) + f * uniform(35, 80);
    }
    double r = iops * readFraction * dt;
    double w = iops * (1 - readFraction) * dt;
    reads[tm] += Math.rint(r);
    writes[tm] += Math.rint(w);
    writtenBytes[tm] += Math.rint(w) * 4096 * Math.rint(uniform(4, 8));
    ioTime[tm] += util * dt;
    readTime[tm] += r * latR / 1000;
    writeTime[tm] += w * latW / 1000;
    String[] l = spec.kubernetes()
        ? new String[] {"device", topo.device, "instance", topo.nodeIps[tm] + ":9100", "job",
            "node-exporter", "node", topo.nodeNames[tm]}
        : new String[] {"device", topo.device, "instance", topo.nodeNames[tm] + ":9100", "job",
            "node"};
    if (!scraped) {
      return;
    }
    rec.add("node_disk_reads_completed_total", l, ts, reads[tm]);
    rec.add("node_disk_writes_completed_total", l, ts, writes[tm]);
    rec.add("node_disk_written_bytes_total", l, ts, writtenBytes[tm]);
    rec.add("node_disk_io_time_seconds_total", l, ts, round3(ioTime[tm]));
    rec.add("node_disk_read_time_seconds_total", l, ts, round3(readTime[tm]));
    rec.add("node_disk_write_time_seconds_total", l, ts, round3(writeTime[tm]));
  }

  private void emitContainer(int tm, long ts, double f, double dt, boolean scraped) {
    double periods = Math.rint(10 * dt * uniform(0.9, 1.0));
    double ratio = Math.max(0, 0.01 + 0.01 * gaussian());
    if (is(Fault.CPU_THROTTLING) && cpuThrottled(tm)) {
      ratio += f * Math.min(0.9, spec.severity() * uniform(0.45, 0.7));
    }
    cfsPeriods[tm] += periods;
    cfsThrottled[tm] += Math.rint(periods * Math.min(1, ratio));
    String[] l = {"container", "flink-main-container", "image", "flink:" + spec.flinkVersion(),
        "instance", topo.nodeIps[tm] + ":10250", "job", "kubelet", "namespace", "streaming",
        "pod", topo.pods[tm]};
    if (!scraped) {
      return;
    }
    rec.add("container_cpu_cfs_periods_total", l, ts, cfsPeriods[tm]);
    rec.add("container_cpu_cfs_throttled_periods_total", l, ts, cfsThrottled[tm]);
  }

  private static double round1(double v) {
    return Math.rint(v * 10) / 10;
  }

  private static double round3(double v) {
    return Math.rint(v * 1000) / 1000;
  }
}
