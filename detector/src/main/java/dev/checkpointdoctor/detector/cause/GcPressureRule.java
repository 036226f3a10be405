package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.Signal;

/** TaskManagers spending a large share of time in GC with the heap nearly full. */
final class GcPressureRule implements CauseRule {
  static final double GC_MS_PER_S = 100;

  @Override
  public Cause cause() {
    return Cause.GC_PRESSURE;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    JobEvidence.Peak gc = job.highestRecentMedian(Signal.GC_TIME, "tm:");
    JobEvidence.Peak heap = job.highestRecentMedian(Signal.HEAP_USAGE, "tm:");
    if (gc != null) {
      double before = Double.isNaN(gc.before()) ? 0 : gc.before();
      if (gc.value() >= GC_MS_PER_S / 2 && gc.value() >= 3 * before) {
        f.support(gc.value() >= GC_MS_PER_S ? 0.45 : 0.25, Signal.GC_TIME, gc.scope(), gc.value(),
            before, String.format("%s spends %s ms/s in garbage collection (%s of the time), "
                + "was %s ms/s.", gc.scope(), Fmt.num(gc.value()), Fmt.pct(gc.value() / 1000),
                Fmt.num(before)));
      }
    }
    if (heap != null && heap.value() >= 0.85 && f.confidence() > 0) {
      f.support(heap.value() >= 0.9 ? 0.25 : 0.15, Signal.HEAP_USAGE, heap.scope(),
          heap.value(), heap.before(), String.format("Heap at %s is %s full (was %s).",
              heap.scope(), Fmt.pct(heap.value()), Fmt.pct(heap.before())));
    }
    if (f.confidence() == 0) {
      return f;
    }
    JobEvidence.Peak busy = job.highestRecentMedian(Signal.BUSY, "task:");
    if (busy != null && busy.value() >= 800) {
      f.support(0.1, Signal.BUSY, busy.scope(), busy.value(), busy.before(),
          busy.scope() + " is busy " + Fmt.num(busy.value()) + " ms/s.");
    }
    if (job.checkpointTrouble()) {
      f.support(0.1, Signal.CHECKPOINT_DURATION, "job", 0, 0,
          "Checkpoints are slower or failing while the JVMs collect garbage.");
    }
    return f;
  }
}
