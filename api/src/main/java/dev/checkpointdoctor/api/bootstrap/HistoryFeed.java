package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Hands one target's history to the detector, slice after slice, as Prometheus would have sent
 * it live: each sample once, at its scrape time, all series in event-time order (series of one
 * scrape together, scrapes in time order), and a stale marker where a series stops. Runs on the
 * detector thread (each slice is a {@link dev.checkpointdoctor.api.ingest.DetectorTask}); the
 * state it keeps between slices is confined to that thread.
 *
 * <p>{@code query_range} gives a value at every step; the scrape time of each step (from the
 * timestamp query of the slice) tells a new sample from a repeat: the same scrape time again is
 * the same sample, seen through the server's lookback, and is skipped. This is what makes a
 * per-checkpoint gauge change once per checkpoint, as the extractor expects.
 */
final class HistoryFeed {
  private final Map<Labels, SeriesState> series = new HashMap<>();
  /** Newest scrape time fed per (job, instance): live samples up to it are already in history. */
  private final Map<String, Long> covered = new HashMap<>();
  private final Set<String> tmIds = new TreeSet<>();
  private final Set<String> hosts = new TreeSet<>();
  private final long[] one = new long[1];
  private final double[] value = new double[1];
  private long fed;
  private long nonFinite;
  private int sliceNo;

  private static final class SeriesState {
    /**
     * The label set with interned strings, kept across slices: the detector keys the series by
     * this very instance, so its lookup per sample hits by identity.
     */
    Labels labels;
    long lastTs = Long.MIN_VALUE;
    boolean present;
    int seenInSlice;
  }

  /** The key of the scrape target a series comes from. */
  static String instanceKey(Labels l) {
    String job = l.get("job");
    String instance = l.get("instance");
    return (job == null ? "" : job) + '\u0000' + (instance == null ? "" : instance);
  }

  void feed(Detector detector, TargetReader.Slice slice) {
    sliceNo++;
    Grid grid = slice.grid();
    // Series by scrape target, in answer order within each (checkpoint tier first).
    Map<String, Integer> targetIndex = new HashMap<>();
    List<Cadence> cadences = new ArrayList<>();
    List<List<Fed>> byTarget = new ArrayList<>();
    for (Matrix m : slice.values()) {
      for (int j = 0; j < m.size(); j++) {
        Labels l = m.labels(j);
        SeriesState st = series.get(l);
        if (st == null) {
          st = new SeriesState();
          st.labels = l.interned();
          series.put(st.labels, st);
          note(l);
        }
        st.seenInSlice = sliceNo;
        l = st.labels;
        String key = instanceKey(l);
        Integer k = targetIndex.get(key);
        if (k == null) {
          k = byTarget.size();
          targetIndex.put(key, k);
          Cadence c = slice.cadences().get(key);
          // unknown: scrapes assumed half a step before each step
          cadences.add(c != null ? c : new Cadence(grid.stepMs(),
              grid.startMs() - grid.stepMs() / 2, Long.MAX_VALUE));
          byTarget.add(new ArrayList<>());
        }
        byTarget.get(k).add(new Fed(l, m.values(j), st, k));
      }
    }
    List<Fed> vanished = new ArrayList<>();
    for (Map.Entry<Labels, SeriesState> e : series.entrySet()) {
      if (e.getValue().present && e.getValue().seenInSlice != sliceNo) {
        vanished.add(new Fed(e.getKey(), null, e.getValue(), -1));
      }
    }
    int targets = byTarget.size();
    int[] order = new int[targets];
    long[] scrape = new long[targets];
    newest = new long[targets];
    Arrays.fill(newest, Long.MIN_VALUE);
    detector.beginHistory();
    try {
      for (int i = 0; i < grid.points(); i++) {
        long stepMs = grid.timeMs(i);
        // targets in the order of their scrapes behind this step (each at or before it)
        for (int k = 0; k < targets; k++) {
          long sk = cadences.get(k).scrapeAtOrBefore(stepMs);
          scrape[k] = sk;
          int p = k;
          while (p > 0 && scrape[order[p - 1]] > sk) {
            order[p] = order[p - 1];
            p--;
          }
          order[p] = k;
        }
        for (int o = 0; o < targets; o++) {
          int k = order[o];
          for (Fed f : byTarget.get(k)) {
            step(detector, f, i, scrape[k], stepMs);
          }
        }
        if (i == 0) {
          for (Fed f : vanished) {
            stale(detector, f, stepMs);
          }
        }
      }
      detector.endBatch();
    } finally {
      detector.endHistory();
      for (Map.Entry<String, Integer> e : targetIndex.entrySet()) {
        long t = newest[e.getValue()];
        if (t != Long.MIN_VALUE) {
          covered.merge(e.getKey(), t, Math::max);
        }
      }
    }
  }

  /**
   * Newest sample fed per target of the slice being fed, by target index: a per-sample map
   * update keyed by string was a visible cost in BootstrapBench; merged into {@link #covered}
   * once the slice is fed.
   */
  private long[] newest;

  private record Fed(Labels labels, double[] values, SeriesState state, int target) {}

  /**
   * One step of one series: a new sample when the scrape behind the step is newer than the last
   * one fed, nothing when it is the same scrape again or a step after the target's last scrape
   * (the server's lookback repeating it), a stale marker when the series is gone.
   */
  private void step(Detector detector, Fed f, int i, long scrapeMs, long stepMs) {
    double v = f.values[i];
    SeriesState st = f.state;
    if (Matrix.absent(v)) {
      stale(detector, f, scrapeMs == Long.MIN_VALUE ? stepMs : scrapeMs);
      return;
    }
    long t = scrapeMs;
    if (t == Long.MIN_VALUE || t <= st.lastTs) {
      return;
    }
    st.lastTs = t;
    st.present = true;
    if (t > newest[f.target]) {
      newest[f.target] = t;
    }
    if (!Double.isFinite(v)) {
      nonFinite++; // live samples like it are screened out before the detector too
      return;
    }
    one[0] = t;
    value[0] = v;
    detector.accept(f.labels, one, value, 0, 1);
    fed++;
  }

  /** A series present before and gone now: Prometheus would have sent a stale marker. */
  private void stale(Detector detector, Fed f, long t) {
    SeriesState st = f.state;
    if (!st.present) {
      return;
    }
    st.present = false;
    long at = Math.max(t, st.lastTs + 1);
    st.lastTs = at;
    one[0] = at;
    value[0] = Double.longBitsToDouble(Detector.STALE_NAN_BITS);
    detector.accept(f.labels, one, value, 0, 1);
  }

  private void note(Labels l) {
    String tm = l.get("tm_id");
    if (tm != null && !tm.isEmpty()) {
      tmIds.add(tm);
    }
    String host = l.get("host");
    if (host != null && !host.isEmpty()) {
      hosts.add(host);
    }
  }

  /** Samples handed to the detector so far. */
  long fed() {
    return fed;
  }

  long nonFinite() {
    return nonFinite;
  }

  int seriesCount() {
    return series.size();
  }

  /** Per (job, instance) key: the newest scrape time fed. Read after the last slice ran. */
  Map<String, Long> covered() {
    return covered;
  }

  /** TaskManager ids and Flink hosts the target's series named: where its shared series are. */
  Set<String> tmIds() {
    return tmIds;
  }

  Set<String> hosts() {
    return hosts;
  }
}
