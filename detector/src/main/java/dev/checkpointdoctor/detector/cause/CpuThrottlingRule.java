package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * The job's TaskManager containers throttled by their CPU quota in more CFS periods than before
 * (judged against each container's own earlier share), with the tasks busier.
 */
final class CpuThrottlingRule implements CauseRule {
  /** A share of throttled periods at which every burst of work is cut short. */
  static final double HEAVY_SHARE = 0.25;

  @Override
  public Cause cause() {
    return Cause.CPU_THROTTLING;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    Change cpu = GcPressureRule.strongest(job, Signal.CPU_THROTTLING);
    if (cpu == null || !cpu.higherBy(Signal.CPU_THROTTLING.absoluteFloor())) {
      Change late = sinceOwnRise(job);
      cpu = late != null ? late : cpu;
    }
    if (cpu == null || !cpu.higher()) {
      return untested(job, f);
    }
    if (!cpu.higherBy(Signal.CPU_THROTTLING.absoluteFloor())) {
      return rising(job, f, cpu);
    }
    f.support(cpu.now() >= HEAVY_SHARE ? 0.55 : 0.45, cpu, true, String.format(
        "%s is CPU-throttled in %s of CFS periods, was %s (%s).", cpu.scope(),
        Fmt.pct(cpu.now()), Fmt.pct(cpu.before()), cpu.test(true)));
    SeriesHistory h = GcPressureRule.series(job, Signal.CPU_THROTTLING, cpu.scope());
    long since = earliest(job.riseFromEarlier(h), job.onset(h, true));
    Change busy = GcPressureRule.strongest(job, Signal.BUSY);
    if (busy != null && busy.higher()) {
      f.support(0.1, busy, true, String.format("%s is busy %s ms/s, was %s ms/s.", busy.scope(),
          Fmt.num(busy.now()), Fmt.num(busy.before())));
      since = earliest(since,
          job.onset(GcPressureRule.series(job, Signal.BUSY, busy.scope()), true));
    }
    if (since >= 0) {
      // Dated from when the share left the container's own range, not from when it cleared a
      // band the signal's floor holds at 5 points above normal: a quota that bites gradually
      // passes that floor minutes after its throttled tasks back-pressure their upstream,
      // which would then look older than the throttling that causes it (CausalModel).
      f.onset(since, JobEvidence.spacing(h), Signal.CPU_THROTTLING.id());
    }
    if (job.checkpointTrouble()) {
      CheckpointTrouble.support(f, job, "while upload and compaction threads starve");
    }
    return f;
  }

  /**
   * A share that has left the container's own range and rises by the test, not yet by the
   * floor: a quota that bites gradually, whose throttled tasks may already back-pressure their
   * upstream. Its consequences wait for it (CausalModel) instead of being named first.
   */
  private static Finding rising(JobEvidence job, Finding f, Change cpu) {
    SeriesHistory h = GcPressureRule.series(job, Signal.CPU_THROTTLING, cpu.scope());
    long since = job.riseFromEarlier(h);
    if (since < 0 || job.now() - since > PENDING_AT_MOST_MS) {
      return f;
    }
    f.onset(since, JobEvidence.spacing(h), Signal.CPU_THROTTLING.id());
    return f.pending(String.format("%s is CPU-throttled in %s of CFS periods since %s, was %s "
        + "(%s), not yet %s points above it.", cpu.scope(), Fmt.pct(cpu.now()),
        JobEvidence.clock(since), Fmt.pct(cpu.before()), cpu.test(true),
        Fmt.num(Signal.CPU_THROTTLING.absoluteFloor() * 100)));
  }

  /**
   * A container whose throttled share has left its band but has too few samples since the
   * trouble began for the test to decide (see {@link JobEvidence#riseNotYetTestable}): a
   * kubelet scraped every 60 s beside Flink every 15 s has one or two samples when the
   * back-pressure the quota causes has eight. Its consequences wait for the next samples, at
   * most a few scrapes of the kubelet, instead of being named first.
   */
  private static Finding untested(JobEvidence job, Finding f) {
    long since = -1;
    SeriesHistory at = null;
    for (SeriesHistory h : job.histories(Signal.CPU_THROTTLING)) {
      long s = job.riseNotYetTestable(h);
      if (s >= 0 && (since < 0 || s < since)) {
        since = s;
        at = h;
      }
    }
    if (at == null || job.now() - since > PENDING_AT_MOST_MS) {
      return f;
    }
    f.onset(since, JobEvidence.spacing(at), Signal.CPU_THROTTLING.id());
    return f.pending(String.format("%s is CPU-throttled in %s of CFS periods since %s, above its "
        + "normal, but %d sample(s) since then are too few to test yet.", at.scope(),
        Fmt.pct(at.value(at.size() - 1)), JobEvidence.clock(since),
        JobEvidence.count(at, since, Long.MAX_VALUE)));
  }

  /**
   * The strongest container whose throttled share rose by the floor since it left its own
   * earlier range, judged on the values since that departure against those before it, or null.
   * When the job's trouble dates from an older anomaly (a checkpoint that ran long half an hour
   * before the quota bit), its present holds that half hour of normal shares, which keep the
   * job-wide test short of significance long after the quota bites, while the back-pressure it
   * causes, scraped four times as often, outgrows the same dilution first. Only from
   * {@link JobEvidence#MIN_RECENT} values on, so one spike above the range does not decide:
   * until then the rise is pending ({@link JobEvidence#riseNotYetTestable}).
   */
  private static Change sinceOwnRise(JobEvidence job) {
    Change best = null;
    for (SeriesHistory h : job.histories(Signal.CPU_THROTTLING)) {
      long since = job.riseFromEarlier(h);
      if (since <= job.onset()) {
        continue; // the job-wide judgment already reads from here
      }
      double[] recent = JobEvidence.slice(h, since, Long.MAX_VALUE);
      double[] before = JobEvidence.slice(h, Long.MIN_VALUE, since);
      if (recent.length < JobEvidence.MIN_RECENT || before.length < JobEvidence.MIN_EARLIER) {
        continue;
      }
      Change c = JobEvidence.againstEarlier(h, recent, before);
      if (c.higherBy(Signal.CPU_THROTTLING.absoluteFloor())
          && (best == null || c.now() - c.before() > best.now() - best.before())) {
        best = c;
      }
    }
    return best;
  }

  /**
   * How long a rise below the floor holds its consequences back: a quota that bites gradually
   * clears the 5 points within minutes; a small lasting rise that never does is not what
   * back-pressures the job, and a back-pressure fault beside it must not wait for it for good.
   */
  static final long PENDING_AT_MOST_MS = 15 * 60_000L;

  private static long earliest(long a, long b) {
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }
}
