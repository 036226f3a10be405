package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.JobView;
import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.GrowthTest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One job's evidence for one diagnosis: its open anomalies and the recent raw history of every
 * signal, split at the trouble's onset into a "recent" slice (the fault) and an "earlier" slice
 * (what the job did before).
 */
final class JobEvidence {
  /**
   * The recent slice covers at least this much, so a fresh anomaly has some points to read. Kept
   * short: the rules compare medians of the recent slice, and a slice reaching far back before
   * the onset keeps those medians at their healthy level until the fault fills half of it (10
   * minutes named back-pressure 7 min late in the scenario corpus and ~3 min late in the lab).
   * Rules that need several checkpoints (the cadence) reach further back on their own.
   */
  static final long MIN_RECENT_MS = 2 * 60_000L;
  /** ... and at most this much, so a long-running fault still leaves an "earlier" to compare. */
  static final long MAX_RECENT_MS = 60 * 60_000L;
  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final JobView view;
  private final DetectorSettings settings;
  private final List<Anomaly> open;
  private final Map<Signal, List<SeriesHistory>> histories = new EnumMap<>(Signal.class);
  /** Shared findings (a disk plateau, the state trend) that several rules read. */
  private final Map<String, Object> memo = new java.util.HashMap<>();
  private final long now;
  private final long onset;
  private final long recentFrom;
  private final SliceCache slices;

  /** Evidence read afresh: nothing kept from or for other diagnoses. */
  JobEvidence(JobView view, DetectorSettings settings) {
    this(view, settings, new SliceCache());
  }

  /** @param slices what earlier diagnoses of this job kept of its histories */
  JobEvidence(JobView view, DetectorSettings settings, SliceCache slices) {
    this.view = view;
    this.slices = slices;
    this.settings = settings;
    this.open = view.openAnomalies();
    this.now = view.eventTimeMs();
    long first = now;
    for (Anomaly a : open) {
      // a trend anomaly starts where the data that showed the growth starts, hours back: it
      // dates no fault's onset
      if (!GrowthTest.ANOMALY_SCOPE.equals(a.scope())) {
        first = Math.min(first, a.startedAtMs());
      }
    }
    this.onset = first;
    this.recentFrom = Math.max(now - MAX_RECENT_MS, Math.min(onset, now - MIN_RECENT_MS));
  }

  String job() {
    return view.job();
  }

  long now() {
    return now;
  }

  long onset() {
    return onset;
  }

  long recentFrom() {
    return recentFrom;
  }

  DetectorSettings settings() {
    return settings;
  }

  List<Anomaly> openAnomalies() {
    return open;
  }

  @SuppressWarnings("unchecked")
  <T> T memo(String key, java.util.function.Supplier<T> compute) {
    if (!memo.containsKey(key)) {
      memo.put(key, compute.get());
    }
    return (T) memo.get(key);
  }

  /** The pipeline's latest trend reading of a job-level checkpoint signal, or null. */
  GrowthReading growth(Signal s) {
    return view.growth(s);
  }

  List<SeriesHistory> histories(Signal s) {
    return histories.computeIfAbsent(s, view::history);
  }

  /** The job-scope history of a signal, or null. */
  SeriesHistory jobSeries(Signal s) {
    for (SeriesHistory h : histories(s)) {
      if (h.scope().equals("job")) {
        return h;
      }
    }
    return null;
  }

  double[] recent(SeriesHistory h) {
    return slice(h, recentFrom, Long.MAX_VALUE);
  }

  double[] earlier(SeriesHistory h) {
    return slice(h, Long.MIN_VALUE, recentFrom);
  }

  /**
   * The recent slice's values, sorted: the same values {@link #recent} copies, read from the
   * window the job's {@link SliceCache} slides along from one diagnosis to the next.
   */
  SortedWindow recentWindow(SeriesHistory h) {
    if (h == null) {
      return new SortedWindow(); // no values
    }
    return slices.window(h, firstAtOrAfter(h, recentFrom), firstAtOrAfter(h, Long.MAX_VALUE));
  }

  /** {@code Stats.median(recent(h))} without the copy. */
  double recentMedian(SeriesHistory h) {
    return recentWindow(h).median();
  }

  /** {@code Stats.median(earlier(h))}, kept while the earlier slice keeps the same points. */
  double earlierMedian(SeriesHistory h) {
    if (h == null) {
      return Double.NaN;
    }
    return slices.median(h, firstAtOrAfter(h, Long.MIN_VALUE), firstAtOrAfter(h, recentFrom));
  }

  /** {@code Stats.median(slice(h, fromMs, toMs))} without a copy per call. */
  double median(SeriesHistory h, long fromMs, long toMs) {
    return slices.median(h, firstAtOrAfter(h, fromMs), firstAtOrAfter(h, toMs));
  }

  /** Finite values of {@code h} in {@code [fromMs, toMs)}: the length of {@link #slice}. */
  static int count(SeriesHistory h, long fromMs, long toMs) {
    int to = firstAtOrAfter(h, toMs);
    int n = 0;
    for (int i = firstAtOrAfter(h, fromMs); i < to; i++) {
      if (Double.isFinite(h.value(i))) {
        n++;
      }
    }
    return n;
  }

  static double[] slice(SeriesHistory h, long fromMs, long toMs) {
    if (h == null) {
      return new double[0];
    }
    int from = firstAtOrAfter(h, fromMs);
    int to = firstAtOrAfter(h, toMs);
    double[] out = new double[Math.max(0, to - from)];
    int n = 0;
    for (int i = from; i < to; i++) {
      if (Double.isFinite(h.value(i))) {
        out[n++] = h.value(i);
      }
    }
    return n == out.length ? out : java.util.Arrays.copyOf(out, n);
  }

  /** Index of the first point at or after {@code ms} (histories are in time order). */
  private static int firstAtOrAfter(SeriesHistory h, long ms) {
    int lo = 0;
    int hi = h.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (h.timeMs(mid) < ms) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  static long[] times(SeriesHistory h, long fromMs) {
    long[] out = new long[h.size()];
    int n = 0;
    for (int i = 0; i < h.size(); i++) {
      if (h.timeMs(i) >= fromMs && Double.isFinite(h.value(i))) {
        out[n++] = h.timeMs(i);
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  boolean isOpen(Signal s) {
    for (Anomaly a : open) {
      if (a.signal() == s) {
        return true;
      }
    }
    return false;
  }

  /** Whether checkpoints themselves look worse: slower, older or failing. */
  boolean checkpointTrouble() {
    return isOpen(Signal.CHECKPOINT_DURATION) || isOpen(Signal.CHECKPOINT_AGE)
        || isOpen(Signal.CHECKPOINT_FAILURES);
  }

  /** Failed checkpoints in the extractor's trailing window, as last reported. */
  double failuresNow() {
    SeriesHistory h = jobSeries(Signal.CHECKPOINT_FAILURES);
    return h == null || h.size() == 0 ? 0 : h.value(h.size() - 1);
  }

  /** The highest recent median of a signal over the job's scopes with that prefix. */
  Peak highestRecentMedian(Signal s, String scopePrefix) {
    Peak best = null;
    for (SeriesHistory h : histories(s)) {
      if (!h.scope().startsWith(scopePrefix)) {
        continue;
      }
      SortedWindow r = recentWindow(h);
      if (r.size() == 0) {
        continue;
      }
      double m = r.median();
      if (best == null || m > best.value) {
        best = new Peak(h.scope(), m, earlierMedian(h));
      }
    }
    return best;
  }

  /**
   * The highest latest value of a signal over the job's scopes with that prefix: what the job is
   * doing now, before a fresh change has moved the recent medians.
   */
  Peak highestLatest(Signal s, String scopePrefix) {
    Peak best = null;
    for (SeriesHistory h : histories(s)) {
      if (!h.scope().startsWith(scopePrefix)) {
        continue;
      }
      for (int i = h.size() - 1; i >= 0 && h.timeMs(i) >= recentFrom; i--) {
        double v = h.value(i);
        if (Double.isFinite(v)) {
          if (best == null || v > best.value) {
            best = new Peak(h.scope(), v, earlierMedian(h));
          }
          break;
        }
      }
    }
    return best;
  }

  /**
   * @param value the recent median at {@code scope}
   * @param before the earlier median there (NaN when the history has no earlier part)
   */
  record Peak(String scope, double value, double before) {}

  static String clock(long ms) {
    return CLOCK.format(Instant.ofEpochMilli(ms)) + " UTC";
  }

  /** "14:00 UTC on 2026-11-29", for windows that reach past today. */
  static String dateTime(long ms) {
    return clock(ms) + " on " + Instant.ofEpochMilli(ms).toString().substring(0, 10);
  }

  /** Task name of a {@code task:<name>/<subtask>} scope. */
  static String taskName(String scope) {
    int slash = scope.lastIndexOf('/');
    return scope.substring("task:".length(), slash < 0 ? scope.length() : slash);
  }

  static String subtask(String scope) {
    int slash = scope.lastIndexOf('/');
    return slash < 0 ? "" : scope.substring(slash + 1);
  }
}
