package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.function.ToDoubleFunction;

/**
 * Checkpoints stuck in their upload, from the signs of that itself: the last completed
 * checkpoint ages past anything the job showed before, a checkpoint stays in progress, some
 * expire; meanwhile the barriers reach every subtask on time (the time goes after the
 * synchronous part, into the upload), no subtask is more back-pressured than before, and the
 * local disk, GC and CPU look as they did. A slow upload may not show in the duration at all.
 * Local causes that slow checkpoints down rank above it through {@link CausalModel}.
 */
final class CheckpointStorageSlowRule implements CauseRule {
  /** A barrier this late (and at least half the checkpoint) points at the data path. */
  static final double LATE_BARRIER_MS = 5_000;
  static final String LEASE_NOTE = " An HDFS LeaseExpiredException in the TaskManager logs after "
      + "an expired checkpoint is a symptom of the expiry (the aborted checkpoint's directory is "
      + "deleted under late writers), not the cause.";

  @Override
  public Cause cause() {
    return Cause.CHECKPOINT_STORAGE_SLOW;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    CheckpointCadence cadence = CheckpointCadence.of(job);
    SeriesHistory age = job.jobSeries(Signal.CHECKPOINT_AGE);
    if (age != null) {
      double now = job.recentWindow(age).max();
      double normal = normalAge(job, cadence);
      if (now > normal && now >= 2 * normal && now >= Signal.CHECKPOINT_AGE.absoluteFloor()) {
        f.support(now >= 3 * normal ? 0.35 : 0.2, Signal.CHECKPOINT_AGE, "job", now, normal,
            Evidence.HIGHER, Double.NaN, String.format("The last completed checkpoint is %s "
                + "old; before, it was usually at most %s.", Fmt.ms(now * 1000),
                Fmt.ms(normal * 1000)));
        long at = job.onset(age, true);
        if (at >= 0) {
          f.onset(at, JobEvidence.spacing(age), "age");
        }
      }
    }
    SeriesHistory inProgress = job.jobSeries(Signal.CHECKPOINT_IN_PROGRESS);
    double busyShare = job.recentWindow(inProgress).fractionAtLeast(1);
    double busyBefore = Stats.fractionAtLeast(job.earlier(inProgress), 1);
    if (busyShare >= 0.8 && busyShare > busyBefore) {
      f.support(0.15, Signal.CHECKPOINT_IN_PROGRESS, "job", busyShare, busyBefore,
          Evidence.HIGHER, Double.NaN, String.format("A checkpoint was in progress in %s of "
              + "recent scrapes, %s before.", Fmt.pct(busyShare), Fmt.pct(busyBefore)));
    }
    double failures = job.failuresNow();
    double failuresBefore = Stats.max(job.earlier(job.jobSeries(Signal.CHECKPOINT_FAILURES)));
    // only expiries are the store's sign: checkpoints declined at a (re)start, before the new
    // run's tasks all run, fail at once while nothing is overdue (a redeploy, e.g. to a shorter
    // interval, declines its first checkpoints)
    if (failures > 0 && !(failures <= failuresBefore) && expiring(job)) {
      f.support(0.2, Signal.CHECKPOINT_FAILURES, "job", failures,
          Double.isNaN(failuresBefore) ? 0 : failuresBefore, Evidence.HIGHER, Double.NaN,
          String.format("%s checkpoints failed in the last %d min (expired before completing).%s",
              Fmt.num(failures), job.settings().failureWindow().toMinutes(), LEASE_NOTE));
    }
    if (f.confidence() < 0.2 && !uploadSlower(job)) {
      return f; // checkpoints in progress alone are not a stuck upload
    }
    // slower completed checkpoints strengthen the store's own signs, and alone are no cause
    slower(job, f);
    boolean late = lateBarrier(job, f, cadence);
    JobEvidence.Peak bp = job.highestLatest(Signal.BACKPRESSURE, "task:");
    boolean pressedNow = bp != null && bp.value() >= BackpressureRule.PRESSED_MS_PER_S;
    if (!pressedNow && BackpressureRule.pressed(job).isEmpty()) {
      double highest = bp == null ? 0 : bp.value();
      f.support(0.05, Signal.BACKPRESSURE, bp == null ? "job" : bp.scope(), highest,
          BackpressureRule.PRESSED_MS_PER_S, Evidence.WITHIN, Double.NaN, String.format(
              "No subtask is more back-pressured than before (highest now %s ms/s).",
              Fmt.num(highest)));
    }
    localHealth(job, f);
    // what contradicts a stuck upload weighs last, on everything found for it
    if (late) {
      JobEvidence.Peak l = job.highestLatest(Signal.CHECKPOINT_START_DELAY, "task:");
      f.against(0.3, new Evidence(Signal.CHECKPOINT_START_DELAY.id(), l.scope(), l.value(),
          LATE_BARRIER_MS, Evidence.AT_LEAST, Double.NaN, Double.NaN, -1,
          "But the barrier took " + Fmt.ms(l.value()) + " to reach " + l.scope()
              + ": the time goes before the upload starts."));
    }
    JobEvidence.Peak busy = job.highestLatest(Signal.BUSY, "task:");
    if (!pressedNow && busy != null && busy.value() >= SATURATED_TASK_MS_PER_S
        && busy.before() < BackpressureRule.PRESSED_MS_PER_S) {
      // a task turned saturated: its upstream's back-pressure follows within a scrape or two
      f.against(0.4, new Evidence(Signal.BUSY.id(), busy.scope(), busy.value(),
          busy.before(), Evidence.HIGHER, Double.NaN, Double.NaN, -1,
          "But " + busy.scope() + " is busy " + Fmt.num(busy.value()) + " ms/s now (was "
              + Fmt.num(busy.before()) + "): a bottleneck on the data path."));
    }
    if (pressedNow) {
      // a fresh back-pressure has not moved the recent medians yet: what the tasks report now
      // contradicts a stuck upload
      f.against(0.5, new Evidence(Signal.BACKPRESSURE.id(), bp.scope(), bp.value(),
          BackpressureRule.PRESSED_MS_PER_S, Evidence.AT_LEAST, Double.NaN, Double.NaN, -1,
          "But " + bp.scope() + " is back-pressured " + Fmt.num(bp.value()) + " ms/s now."));
    }
    return f;
  }

  /**
   * The age of the last completed checkpoint that is normal for the job, in seconds (NaN when
   * unknown). Age climbs to the interval before every completion, so normal is at least the
   * interval. The 90th percentile, not the maximum: a fault's first minutes can precede the
   * anomaly that dates the trouble, and so lie in the earlier slice.
   */
  static double normalAge(JobEvidence job, CheckpointCadence cadence) {
    return ageNormal(job, cadence, BaselineSummary::upper);
  }

  /**
   * The earlier ages' 90th percentile when there are enough of them, else what {@code young}
   * reads from the age's baseline; never below the interval (NaN when nothing is known).
   */
  private static double ageNormal(JobEvidence job, CheckpointCadence cadence,
      ToDoubleFunction<BaselineSummary> young) {
    double[] earlier = job.earlier(job.jobSeries(Signal.CHECKPOINT_AGE));
    BaselineSummary b = job.baseline(Signal.CHECKPOINT_AGE, "job");
    double normal = earlier.length >= JobEvidence.MIN_EARLIER ? Stats.quantile(earlier, 0.9)
        : b != null ? young.applyAsDouble(b) : Double.NaN;
    double interval = cadence.intervalMs() / 1000;
    return Double.isNaN(interval) ? normal : Double.isNaN(normal) ? interval
        : Math.max(normal, interval);
  }


  /**
   * Failures that are expiries: checkpoints overdue (the age of the last completed one well past
   * its normal) while they failed. Checkpoints declined at a (re)start fail at once, while no
   * checkpoint of the new run has completed; they say nothing about the store.
   */
  static boolean expiring(JobEvidence job) {
    if (job.failuresNow() <= 0) {
      return false;
    }
    SeriesHistory age = job.jobSeries(Signal.CHECKPOINT_AGE);
    double normal = usualAge(job);
    if (age == null || Double.isNaN(normal)) {
      return true; // nothing to tell declines from expiries: as before
    }
    return job.recentWindow(age).max() >= OVERDUE * normal;
  }

  /**
   * The age a completed checkpoint usually has, for telling expiries from declines: the earlier
   * ages' 90th percentile when there are enough of them, else the young baseline's expected age,
   * not its upper bound (that is padded by the signal's absolute floor, 30 s, which alone exceeds
   * a seconds-long interval: a young job's checkpoint overdue by 30 s expired, yet stayed
   * "normal"); never below the interval.
   */
  private static double usualAge(JobEvidence job) {
    return ageNormal(job, CheckpointCadence.of(job), BaselineSummary::expected);
  }

  /** A task busy this much is saturated: the job's throughput is its throughput. */
  static final double SATURATED_TASK_MS_PER_S = 900;

  /** Checkpoints this many times their earlier median duration are slow for the job. */
  static final double SLOWER = 2;

  /**
   * Completed checkpoints clearly slower than before (a slow store that still answers stretches
   * the upload of every checkpoint, by a heavy-tailed amount), while the barriers reach the
   * subtasks on time and nothing is back-pressured now: the time goes into the upload.
   */
  private static void slower(JobEvidence job, Finding f) {
    Change d = job.change(job.jobSeries(Signal.CHECKPOINT_DURATION));
    if (!(d.known() && d.higher() && d.now() >= SLOWER * d.before())) {
      return;
    }
    JobEvidence.Peak delay = job.highestLatest(Signal.CHECKPOINT_START_DELAY, "task:");
    JobEvidence.Peak bp = job.highestLatest(Signal.BACKPRESSURE, "task:");
    if ((delay != null && delay.value() >= LATE_BARRIER_MS)
        || (bp != null && bp.value() >= BackpressureRule.PRESSED_MS_PER_S)) {
      return;
    }
    f.support(0.25, d, true, String.format("Completed checkpoints take %s, were %s (%s), with "
        + "the barriers on time.", Fmt.ms(d.now()), Fmt.ms(d.before()), d.test(true)));
  }

  /**
   * A store that still answers, slowly, from its own signs when the checkpoints are not (yet)
   * overdue: a mildly slow store stretches every upload by less than an interval, so the age
   * never doubles and nothing expires, yet each checkpoint takes several times as long for the
   * same bytes. Completed checkpoints at least {@link #SLOWER} times as slow as before, by a
   * test, while what they write grew by less than that (the time per byte uploaded doubled: more
   * state alone would take longer in proportion), the barriers reach the subtasks on time (the
   * time goes after the snapshot starts), nothing is back-pressured, and the TaskManagers' disk,
   * GC and CPU are seen and look as before (nothing local slows the upload down). Without this
   * only the signs of a stuck store (age, expiries) opened the finding, and a mild slow store
   * stayed unnamed for hours.
   *
   * <p>Only while the checkpoints leave the job time between them: back to back, one
   * checkpoint's snapshot and upload compete with the last one's for the same disk, network and
   * store, so their duration rises with the cadence itself and no longer tells the store's part
   * ({@link CheckpointIntervalTooShortRule} judges that; a stuck store still shows by age and
   * expiries).
   */
  static boolean uploadSlower(JobEvidence job) {
    double share = CheckpointIntervalTooShortRule.busyShare(job, CheckpointCadence.of(job));
    if (!(share < CheckpointIntervalTooShortRule.BACK_TO_BACK)) {
      return false;
    }
    Change d = job.change(job.jobSeries(Signal.CHECKPOINT_DURATION));
    if (!(d.known() && d.higher() && d.now() >= SLOWER * d.before())) {
      return false;
    }
    Change size = job.change(job.jobSeries(Signal.CHECKPOINT_SIZE));
    if (!size.known() || !(size.before() > 0)
        || d.now() / d.before() < SLOWER * Math.max(1, size.now() / size.before())) {
      return false; // unknown bytes, or the bytes grew about as much as the time
    }
    JobEvidence.Peak delay = job.highestLatest(Signal.CHECKPOINT_START_DELAY, "task:");
    JobEvidence.Peak bp = job.highestLatest(Signal.BACKPRESSURE, "task:");
    if (delay == null || delay.value() >= LATE_BARRIER_MS || (bp != null
        && bp.value() >= BackpressureRule.PRESSED_MS_PER_S) || !pressedNone(job)) {
      return false;
    }
    return localHealthy(job);
  }

  private static boolean pressedNone(JobEvidence job) {
    return BackpressureRule.pressed(job).isEmpty();
  }

  /** Age of the last completed checkpoint, in normal ages, from which checkpoints are overdue. */
  static final double OVERDUE = 1.5;

  /**
   * Barriers on time are the storage's own sign (supported here); true when a barrier is late
   * instead, which points at the data path (the caller weighs it last).
   */
  private static boolean lateBarrier(JobEvidence job, Finding f, CheckpointCadence cadence) {
    JobEvidence.Peak late = job.highestLatest(Signal.CHECKPOINT_START_DELAY, "task:");
    if (late == null) {
      return false;
    }
    if (late.value() >= LATE_BARRIER_MS
        && !(late.value() < 0.5 * cadence.recentDurationMs())) {
      return true; // the checkpoint's time went into barriers queueing behind data
    }
    SeriesHistory h = GcPressureRule.series(job, Signal.CHECKPOINT_START_DELAY, late.scope());
    Change c = job.change(h);
    double bound = Math.max(Signal.CHECKPOINT_START_DELAY.absoluteFloor(),
        Double.isNaN(late.before()) ? 0 : 2 * late.before());
    if (!c.higher() && late.value() <= bound) {
      f.support(0.1, Signal.CHECKPOINT_START_DELAY, late.scope(), late.value(), bound,
          Evidence.WITHIN, Double.NaN, String.format("Barriers reach every subtask on time "
                  + "(start delay at most %s, normal up to %s): the time goes into the upload.",
              Fmt.ms(late.value()), Fmt.ms(bound)));
    }
    return false;
  }

  /** Local disk, GC and CPU as they were: the checkpoint's slowness is not made on the node. */
  private static void localHealth(JobEvidence job, Finding f) {
    if (!localHealthy(job)) {
      return;
    }
    Change gc = GcPressureRule.strongest(job, Signal.GC_TIME);
    Change util = GcPressureRule.strongest(job, Signal.DISK_UTILIZATION);
    Change shown = util != null ? util : gc;
    f.support(0.1, shown.signal(), shown.scope(), shown.now(), util != null
            ? DiskThrottlingRule.SATURATED : shown.now() + Signal.GC_TIME.absoluteFloor(),
        Evidence.WITHIN, Double.NaN, String.format("Local disk (busy %s), GC (%s ms/s) and "
                + "CPU quota look as before: nothing on the TaskManagers slows the upload.",
            util == null ? "?" : Fmt.pct(util.now()), gc == null ? "?" : Fmt.num(gc.now())));
  }

  /** Local disk, GC and CPU seen (disk or GC at least) and as they were. */
  private static boolean localHealthy(JobEvidence job) {
    Change gc = GcPressureRule.strongest(job, Signal.GC_TIME);
    Change cpu = GcPressureRule.strongest(job, Signal.CPU_THROTTLING);
    Change util = GcPressureRule.strongest(job, Signal.DISK_UTILIZATION);
    boolean gcOk = gc == null || !gc.higherBy(Signal.GC_TIME.absoluteFloor());
    boolean cpuOk = cpu == null || !cpu.higherBy(Signal.CPU_THROTTLING.absoluteFloor());
    boolean diskOk = util == null || util.now() < DiskThrottlingRule.SATURATED;
    return gcOk && cpuOk && diskOk && (gc != null || util != null);
  }
}
