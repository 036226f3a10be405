package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import java.util.Arrays;

/**
 * The finite values of a run of consecutive points of one history, kept sorted (in the order of
 * {@link Arrays#sort(double[])}), so its quantiles, maximum and shares are reads instead of a
 * selection over a fresh copy. A window is kept from one diagnosis to the next and slid to the new
 * run by removing the points that left it and inserting those that joined: for a recent slice
 * that is one point per scrape, where selecting a median reads them all.
 *
 * <p>The run is remembered by position ({@link SeriesHistory#firstPosition()} plus index) under
 * one {@link SeriesHistory#layoutVersion()}; any other layout, or points that left after they
 * expired from the history (their values are gone), sorts the window afresh.
 */
final class SortedWindow {
  /** Past this many points joining or leaving at once, sorting afresh is as cheap. */
  private static final int MAX_STEPS = 32;

  /** Layout version of the run held; negative: nothing held can be reused. */
  private long layout = -1;
  private long start;
  private long end;
  private double[] sorted = new double[16];
  private int size;

  /** Brings the window to the points {@code [from, to)} of {@code h}. */
  SortedWindow cover(SeriesHistory h, int from, int to) {
    to = Math.max(from, to);
    long first = h.firstPosition();
    long version = h.layoutVersion();
    long s = first + from;
    long e = first + to;
    if (version < 0 || version != layout || !slide(h, first, s, e)) {
      rebuild(h, from, to);
      layout = version;
    }
    start = s;
    end = e;
    return this;
  }

  /** Slides the held run {@code [start, end)} to {@code [s, e)}; false when it cannot. */
  private boolean slide(SeriesHistory h, long first, long s, long e) {
    if (s >= end || e <= start || start < first) {
      return false; // no overlap, or points to remove have expired from the history
    }
    long steps = Math.max(0, s - start) + Math.max(0, end - e) + Math.max(0, start - s)
        + Math.max(0, e - end);
    if (steps > MAX_STEPS) {
      return false;
    }
    for (long p = start; p < s; p++) {
      if (!remove(h.value((int) (p - first)))) {
        return false;
      }
    }
    for (long p = Math.max(e, start); p < end; p++) {
      if (!remove(h.value((int) (p - first)))) {
        return false;
      }
    }
    for (long p = s; p < start; p++) {
      insert(h.value((int) (p - first)));
    }
    for (long p = Math.max(end, s); p < e; p++) {
      insert(h.value((int) (p - first)));
    }
    return true;
  }

  private void rebuild(SeriesHistory h, int from, int to) {
    if (sorted.length < to - from) {
      sorted = new double[to - from];
    }
    size = 0;
    for (int i = from; i < to; i++) {
      double v = h.value(i);
      if (Double.isFinite(v)) {
        sorted[size++] = v;
      }
    }
    Arrays.sort(sorted, 0, size);
  }

  private void insert(double v) {
    if (!Double.isFinite(v)) {
      return; // slices leave out non-finite values
    }
    if (size == sorted.length) {
      sorted = Arrays.copyOf(sorted, size * 2);
    }
    int at = firstAbove(v);
    System.arraycopy(sorted, at, sorted, at + 1, size - at);
    sorted[at] = v;
    size++;
  }

  /**
   * False when the value is not held, which a history keeping its promise about positions never
   * causes; the caller then sorts afresh rather than answer from a wrong window.
   */
  private boolean remove(double v) {
    if (!Double.isFinite(v)) {
      return true;
    }
    int at = firstAbove(v) - 1;
    if (at < 0 || Double.compare(sorted[at], v) != 0) {
      return false;
    }
    System.arraycopy(sorted, at + 1, sorted, at, size - at - 1);
    size--;
    return true;
  }

  /** Index of the first value that sorts after {@code v}. */
  private int firstAbove(double v) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Double.compare(sorted[mid], v) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  int size() {
    return size;
  }

  /** {@link Stats#quantile} of the run's values. */
  double quantile(double q) {
    return Stats.quantileOfSorted(sorted, size, q);
  }

  double median() {
    return quantile(0.5);
  }

  /** {@link Stats#max}: the last value in sort order is the one {@link Math#max} keeps. */
  double max() {
    return size == 0 ? Double.NaN : sorted[size - 1];
  }

  /**
   * {@link Stats#fractionAtLeast}: values at or above a threshold are a tail of the sorted run
   * (a value sorting after one that is at least the threshold is at least it too).
   */
  double fractionAtLeast(double threshold) {
    if (size == 0) {
      return 0;
    }
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] >= threshold) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return (double) (size - lo) / size;
  }
}
