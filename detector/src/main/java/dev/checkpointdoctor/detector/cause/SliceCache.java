package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What one job's diagnoses keep of its histories from one diagnosis to the next, because a
 * diagnosis takes the recent and earlier median of almost every series of the job and most of
 * those points did not change since the last one (a scrape later): per history, the {@link
 * SortedWindow} of its recent slice and the median of its earlier slice.
 *
 * <p>Everything kept is tied to the exact run of points it was computed from (positions under a
 * layout version, see {@link SeriesHistory#firstPosition()}): the earlier median is reused only
 * for the same run, and the recent window slides to the new one, so a result never differs from
 * one computed from scratch. Histories that do not track positions are read afresh every time.
 * Histories a diagnosis did not read are dropped after it, so the cache holds at most what one
 * diagnosis reads; {@link CauseRanker} drops a job's cache when the job has nothing to explain.
 */
final class SliceCache {
  private final Map<SeriesHistory, Kept> byHistory = new IdentityHashMap<>();
  private long diagnosis;
  /** Selection scratch for earlier medians: no copy per slice. */
  private double[] scratch = new double[256];
  /** Whole findings kept by name, each beside the inputs it was computed from. */
  private final Map<String, Object[]> results = new java.util.HashMap<>();

  private static final class Kept {
    final SortedWindow recent = new SortedWindow();
    long usedIn;
    long earlierLayout = -1;
    long earlierStart;
    long earlierEnd;
    double earlierMedian;
  }

  void beginDiagnosis() {
    diagnosis++;
  }

  /** Forgets the histories the diagnosis that just ended did not read. */
  void endDiagnosis() {
    byHistory.values().removeIf(k -> k.usedIn != diagnosis);
  }

  int size() {
    return byHistory.size();
  }

  /** The sorted values of the points {@code [from, to)} of {@code h}. */
  SortedWindow window(SeriesHistory h, int from, int to) {
    return kept(h).recent.cover(h, from, to);
  }

  /**
   * The median of the finite values of the points {@code [from, to)} of {@code h}. One run is
   * kept per history, so this pays off for the earlier slice, whose run stays put for minutes.
   */
  double median(SeriesHistory h, int from, int to) {
    Kept k = kept(h);
    long version = h.layoutVersion();
    long start = h.firstPosition() + from;
    long end = h.firstPosition() + Math.max(from, to);
    if (version >= 0 && version == k.earlierLayout && start == k.earlierStart
        && end == k.earlierEnd) {
      return k.earlierMedian;
    }
    if (scratch.length < to - from) {
      scratch = new double[to - from];
    }
    int n = 0;
    for (int i = from; i < to; i++) {
      double v = h.value(i);
      if (Double.isFinite(v)) {
        scratch[n++] = v;
      }
    }
    k.earlierMedian = Stats.quantileInPlace(scratch, n, 0.5);
    k.earlierLayout = version;
    k.earlierStart = start;
    k.earlierEnd = end;
    return k.earlierMedian;
  }

  /**
   * The result the last diagnosis kept under {@code name} when it was computed from inputs equal
   * to {@code inputs}, else {@code compute}'s, kept for the next diagnosis. The inputs must name
   * everything the result depends on (histories by {@link Run}); null inputs keep nothing.
   */
  @SuppressWarnings("unchecked")
  <T> T result(String name, Object inputs, java.util.function.Supplier<T> compute) {
    Object[] kept = results.get(name);
    if (inputs != null && kept != null && inputs.equals(kept[0])) {
      return (T) kept[1];
    }
    T value = compute.get();
    if (inputs == null) {
      results.remove(name);
    } else {
      results.put(name, new Object[] {inputs, value});
    }
    return value;
  }

  /**
   * The exact run of points a history holds now: equal runs of the same history hold the same
   * points (see {@link SeriesHistory#firstPosition()}). The history is compared by identity.
   */
  record Run(SeriesHistory history, long layout, long first, int size) {
    /** The run of {@code h} (an empty run for null), or null when {@code h} does not track it. */
    static Run of(SeriesHistory h) {
      if (h == null) {
        return new Run(null, 0, 0, 0);
      }
      return h.layoutVersion() < 0 ? null
          : new Run(h, h.layoutVersion(), h.firstPosition(), h.size());
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Run r && r.history == history && r.layout == layout && r.first == first
          && r.size == size;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(history) * 31 + Long.hashCode(first + size);
    }
  }

  private Kept kept(SeriesHistory h) {
    if (h.layoutVersion() < 0) {
      return new Kept(); // positions untracked: nothing may outlive this read
    }
    Kept k = byHistory.get(h);
    if (k == null) {
      k = new Kept();
      byHistory.put(h, k);
    }
    k.usedIn = diagnosis;
    return k;
  }
}
