package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * A TaskManager spending more of its time in garbage collection than it did before (judged
 * against its own earlier GC time, so a quiet JVM counts from a few ms/s on and a noisy one
 * needs more), with its heap fuller than before or nearly full.
 */
final class GcPressureRule implements CauseRule {
  /** GC time that costs the job throughput in any case: 10 % of wall time. */
  static final double HEAVY_MS_PER_S = 100;
  /** Heap use at which the old generation has no room left to collect into. */
  static final double FULL_HEAP = 0.85;

  @Override
  public Cause cause() {
    return Cause.GC_PRESSURE;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    Change gc = strongest(job, Signal.GC_TIME);
    if (gc == null) {
      return f;
    }
    if (!gc.higherBy(Signal.GC_TIME.absoluteFloor())) {
      gc = heaviestOnAFullHeap(job, gc);
    }
    SeriesHistory heapSeries = series(job, Signal.HEAP_USAGE, gc.scope());
    Change heap = job.change(heapSeries);
    if (gc.higherBy(Signal.GC_TIME.absoluteFloor())) {
      f.support(gc.now() >= HEAVY_MS_PER_S ? 0.45 : 0.35, gc, true, String.format(
          "%s spends %s ms/s in garbage collection (%s of the time), was %s ms/s (%s).",
          gc.scope(), Fmt.num(gc.now()), Fmt.pct(gc.now() / 1000), Fmt.num(gc.before()),
          gc.test(true)));
    } else if (heavyOnAFullHeap(gc, heap)) {
      // A leak fills the heap over an hour or more, and GC time climbs with it: the raw history
      // then holds the climb, not the quiet JVM before it, and the test against it cannot
      // decide. A JVM that spends a tenth of its time collecting a nearly full heap is under GC
      // pressure whatever its history shows (the signature of a leak or of too much heap state).
      f.support(0.3, Signal.GC_TIME, gc.scope(), gc.now(), HEAVY_MS_PER_S, Evidence.AT_LEAST,
          Double.NaN, String.format("%s spends %s ms/s in garbage collection (%s of the time) "
              + "with its heap %s full: the JVM is short of heap, whatever it did before.",
              gc.scope(), Fmt.num(gc.now()), Fmt.pct(gc.now() / 1000), Fmt.pct(heap.now())));
    } else {
      return f;
    }
    if (heap.known() && heap.higher()) {
      f.support(heap.now() >= FULL_HEAP ? 0.25 : 0.15, heap, true, String.format(
          "Heap at %s is %s full, was %s (%s).", heap.scope(), Fmt.pct(heap.now()),
          Fmt.pct(heap.before()), heap.test(true)));
    } else if (heap.known() && heap.now() >= FULL_HEAP) {
      f.support(0.15, Signal.HEAP_USAGE, heap.scope(), heap.now(), FULL_HEAP, Evidence.AT_LEAST,
          Double.NaN, String.format("Heap at %s is %s full.", heap.scope(),
              Fmt.pct(heap.now())));
    }
    Change busy = strongest(job, Signal.BUSY);
    if (busy != null && busy.higher()) {
      f.support(0.1, busy, true, String.format("%s is busy %s ms/s, was %s ms/s.", busy.scope(),
          Fmt.num(busy.now()), Fmt.num(busy.before())));
    }
    if (job.checkpointTrouble()) {
      CheckpointTrouble.support(f, job, "while the JVMs collect garbage");
    }
    return f;
  }

  /**
   * GC time at a level that costs throughput in any case on a heap at the level where the old
   * generation has no room left. Not also "more than before": once the leak has filled the heap,
   * the raw history holds the full heap too, and a comparison with it would name the cause only
   * while the climb lasts.
   */
  static boolean heavyOnAFullHeap(Change gc, Change heap) {
    return gc.known() && gc.now() >= HEAVY_MS_PER_S && heap.known() && heap.now() >= FULL_HEAP;
  }

  /**
   * The TaskManager with the most GC time of those that {@link #heavyOnAFullHeap qualify}, else
   * {@code fallback}: the clearest rise need not be the one on a full heap, and JVMs that fill
   * alike take turns at the top from one scrape to the next.
   */
  private static Change heaviestOnAFullHeap(JobEvidence job, Change fallback) {
    Change best = null;
    for (SeriesHistory h : job.histories(Signal.GC_TIME)) {
      Change c = job.change(h);
      if (heavyOnAFullHeap(c, job.change(series(job, Signal.HEAP_USAGE, h.scope())))
          && (best == null || c.now() > best.now())) {
        best = c;
      }
    }
    return best == null ? fallback : best;
  }

  /** The series of a signal whose rise is the clearest (highest superiority, then level). */
  static Change strongest(JobEvidence job, Signal s) {
    Change best = null;
    for (SeriesHistory h : job.histories(s)) {
      Change c = job.change(h);
      if (!c.known()) {
        continue;
      }
      if (best == null || (c.higher() && !best.higher())
          || (c.higher() == best.higher() && c.now() - c.before() > best.now() - best.before())) {
        best = c;
      }
    }
    return best;
  }

  static SeriesHistory series(JobEvidence job, Signal s, String scope) {
    for (SeriesHistory h : job.histories(s)) {
      if (h.scope().equals(scope)) {
        return h;
      }
    }
    return null;
  }
}
