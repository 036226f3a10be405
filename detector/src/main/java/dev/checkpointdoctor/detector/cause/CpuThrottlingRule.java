package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.Signal;

/** The job's TaskManager containers throttled by their CPU quota in many CFS periods. */
final class CpuThrottlingRule implements CauseRule {
  static final double THROTTLED_SHARE = 0.25;

  @Override
  public Cause cause() {
    return Cause.CPU_THROTTLING;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    JobEvidence.Peak cpu = job.highestRecentMedian(Signal.CPU_THROTTLING, "container:");
    if (cpu == null) {
      return f;
    }
    double before = Double.isNaN(cpu.before()) ? 0 : cpu.before();
    if (cpu.value() < THROTTLED_SHARE || cpu.value() < before + 0.15) {
      return f;
    }
    f.support(cpu.value() >= 0.5 ? 0.6 : 0.5, Signal.CPU_THROTTLING, cpu.scope(), cpu.value(),
        before, String.format("%s is CPU-throttled in %s of CFS periods (was %s).", cpu.scope(),
            Fmt.pct(cpu.value()), Fmt.pct(before)));
    JobEvidence.Peak busy = job.highestRecentMedian(Signal.BUSY, "task:");
    if (busy != null && busy.value() >= 800) {
      f.support(0.1, Signal.BUSY, busy.scope(), busy.value(), busy.before(),
          busy.scope() + " is busy " + Fmt.num(busy.value()) + " ms/s.");
    }
    if (job.checkpointTrouble()) {
      f.support(0.15, Signal.CHECKPOINT_DURATION, "job", 0, 0,
          "Checkpoints are slower or failing while upload and compaction threads starve.");
    }
    return f;
  }
}
