package dev.checkpointdoctor.detector.extract;

import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.extract.SignalExtractor.Series;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * TaskManager JVM series: GC time (Flink's all-collector rate, or the per-collector cumulative
 * times summed over one scrape) and heap usage (used / max of one scrape). A TaskManager serves
 * the jobs whose tasks run on it at the time, so its values wait in {@link PendingJoins} for the
 * tasks' series of the same moment.
 */
final class TmSignals {
  private static final int MAX_COLLECTORS = 16;
  private static final int HEAP_USED = 0;
  private static final int HEAP_MAX = 1;

  private final Placement placement;
  private final PendingJoins joins;
  private final Map<String, Tm> tms = new HashMap<>();

  TmSignals(Placement placement, PendingJoins joins) {
    this.placement = placement;
    this.joins = joins;
  }

  /** Fills in a new TaskManager series; returns false to skip it. */
  boolean create(Series s, Labels labels, String cluster) {
    String tmId = SignalExtractor.nonEmpty(labels.get("tm_id"));
    if (tmId == null) {
      return false;
    }
    String key = cluster + tmId;
    Tm tm = tms.get(key);
    if (tm == null) {
      tm = new Tm(cluster, key, tmId, placement);
      tms.put(key, tm);
    }
    String host = SignalExtractor.nonEmpty(labels.get("host"));
    if (tm.hostKey == null && host != null) {
      tm.hostKey = cluster + host;
      placement.addTmOnHost(tm.hostKey, key);
    }
    if (s.rule.kind() == Kind.GC_COLLECTOR_TIME) {
      int free = Integer.numberOfTrailingZeros(~tm.collectorParts);
      if (free >= MAX_COLLECTORS) {
        return false;
      }
      tm.collectorParts |= 1 << free;
      s.part = free;
    }
    if (s.rule.kind() == Kind.GC_ALL_MS_PER_S) {
      tm.hasAllRate = true;
    }
    tm.refs++;
    s.tm(tm);
    s.cluster = cluster;
    s.scope = tm.scope;
    return true;
  }

  void onSample(Series s, long ts, double v, Consumer<Observation> out) {
    Tm tm = s.tm();
    if (ts > tm.progress.tm) {
      tm.progress.tm = ts;
    }
    switch (s.rule.kind()) {
      case GC_ALL_MS_PER_S -> joins.hold(tm, ts, v >= 0 ? Signal.GC_TIME : null, v, 1, out);
      case GC_COLLECTOR_TIME -> {
        long prevTs = s.lastTs;
        double prev = s.last;
        s.last = v;
        s.lastTs = ts;
        joins.hold(tm, ts, null, 0, 1, out);
        boolean ok = prevTs != SignalExtractor.NONE && v >= prev; // not the first, no reset
        tm.gc.add(s.part, ts, prevTs, v - prev, ok, slot -> gcDone(tm, slot, out));
      }
      case HEAP_USED, HEAP_MAX -> {
        joins.hold(tm, ts, null, 0, 1, out);
        int m = s.rule.kind() == Kind.HEAP_USED ? HEAP_USED : HEAP_MAX;
        tm.heap.add(m, ts, 0, v, true, slot -> heapDone(tm, slot, out));
      }
      default -> throw new IllegalArgumentException(s.rule.kind().name());
    }
  }

  private void gcDone(Tm tm, PartsAtTime.Slot slot, Consumer<Observation> out) {
    if (tm.hasAllRate || slot.ts <= slot.prevTs) {
      return;
    }
    double delta = 0;
    for (int m = 0; m < MAX_COLLECTORS; m++) {
      if ((slot.mask & (1 << m)) != 0) {
        delta += slot.values[m];
      }
    }
    joins.hold(tm, slot.ts, Signal.GC_TIME, delta / ((slot.ts - slot.prevTs) / 1000.0), 0, out);
  }

  private void heapDone(Tm tm, PartsAtTime.Slot slot, Consumer<Observation> out) {
    double used = slot.values[HEAP_USED];
    double max = slot.values[HEAP_MAX];
    if (max > 0 && used >= 0) {
      joins.hold(tm, slot.ts, Signal.HEAP_USAGE, used / max, 0, out);
    }
  }

  void onSeriesEnd(Series s, Consumer<Observation> out) {
    Tm tm = s.tm();
    switch (s.rule.kind()) {
      case GC_COLLECTOR_TIME -> {
        tm.gc.end(s.part, slot -> gcDone(tm, slot, out));
        tm.collectorParts &= ~(1 << s.part);
      }
      case HEAP_USED -> tm.heap.end(HEAP_USED, slot -> heapDone(tm, slot, out));
      case HEAP_MAX -> tm.heap.end(HEAP_MAX, slot -> heapDone(tm, slot, out));
      default -> { }
    }
    if (--tm.refs <= 0) {
      tms.remove(tm.key);
      if (tm.hostKey != null) {
        placement.removeTmOnHost(tm.hostKey, tm.key);
      }
    }
  }

  int size() {
    return tms.size();
  }

  /** One TaskManager: its scrape-wise assemblies and the jobs it serves. */
  static final class Tm extends JoinedSource {
    final String key;
    String hostKey;
    int refs;
    int collectorParts;
    boolean hasAllRate;
    final PartsAtTime gc;
    final PartsAtTime heap;

    Tm(String cluster, String key, String tmId, Placement placement) {
      super(cluster, "tm:" + tmId, placement.progress(cluster));
      this.key = key;
      this.gc = new PartsAtTime(MAX_COLLECTORS, 0, placement.maxLagMs());
      this.heap = new PartsAtTime(2, 3, placement.maxLagMs());
    }

    @Override
    int groups() {
      return 1;
    }

    @Override
    String join(int group) {
      return null; // Flink's own series: no join to report
    }

    @Override
    void stays(int group, Placement placement, List<Stay> out) {
      placement.staysOnTm(key, out);
    }


    @Override
    boolean idleWhenUnjoined() {
      return true;
    }
  }
}
