package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
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
  /** End of the earlier slice: before the trouble, however long ago it began. */
  private final long earlierTo;
  private final SliceCache slices;
  /** Ready baselines by signal and scope (null: none), as the rules asked for them. */
  private final Map<Signal, Map<String, BaselineSummary>> baselines = new EnumMap<>(Signal.class);
  private final Map<SeriesHistory, Change> changes = new java.util.IdentityHashMap<>();
  private final Map<SeriesHistory, Long> onsets = new java.util.IdentityHashMap<>();

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
    this.earlierTo = Math.min(recentFrom, onset);
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

  /** The earlier slice ends here: at the recent slice or the trouble's onset, if earlier. */
  long earlierTo() {
    return earlierTo;
  }

  JobView view() {
    return view;
  }

  /** What earlier diagnoses of this job kept (nothing, for evidence read afresh). */
  SliceCache kept() {
    return slices;
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
    return slice(h, Long.MIN_VALUE, earlierTo);
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
    double m = slices.median(h, firstAtOrAfter(h, Long.MIN_VALUE), firstAtOrAfter(h, earlierTo));
    if (Double.isNaN(m)) {
      BaselineSummary b = baseline(h.signal(), h.scope());
      return b == null ? Double.NaN : b.expected();
    }
    return m;
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

  /** The learned baseline of one (signal, scope) once ready, else null. */
  BaselineSummary baseline(Signal s, String scope) {
    // looked up one series at a time: summarizing all of a job's series for the few the rules
    // read was ~2 % of the kept load's CPU
    Map<String, BaselineSummary> byScope =
        baselines.computeIfAbsent(s, k -> new java.util.HashMap<>());
    if (!byScope.containsKey(scope)) {
      BaselineSummary b = view.baseline(s, scope);
      byScope.put(scope, b != null && "ready".equals(b.state()) ? b : null);
    }
    return byScope.get(scope);
  }

  /**
   * The recent values of {@code h} against its earlier ones (or, when the history holds too few
   * from before the trouble, against its learned baseline): see {@link Change}.
   */
  Change change(SeriesHistory h) {
    if (h == null) {
      return Change.none(null, "");
    }
    Change c = changes.get(h);
    if (c == null) {
      c = judge(h);
      changes.put(h, c);
    }
    return c;
  }

  /** Recent values below which a sparse series is read from the trouble's onset on. */
  static final int MIN_RECENT = 5;
  /** Earlier values needed for a test against them rather than against the baseline. */
  static final int MIN_EARLIER = 8;

  /**
   * The values a judgment of the present reads: those since the trouble's onset when there are
   * enough (the recent slice still holds up to two minutes from before it, which would hide a
   * change at the onset), else the recent slice, else, for a sparse series (one point per
   * checkpoint), everything since the trouble began.
   */
  double[] present(SeriesHistory h) {
    double[] recent = slice(h, Math.max(recentFrom, onset), Long.MAX_VALUE);
    if (recent.length < MIN_RECENT) {
      recent = recent(h);
    }
    if (recent.length < MIN_RECENT) {
      double[] since = slice(h, earlierTo, Long.MAX_VALUE);
      recent = since.length > recent.length ? since : recent;
    }
    return recent;
  }

  /**
   * {@code recent} values of {@code h} against {@code before} ones: medians and a one-sided
   * Mann–Whitney test corrected for the series' dependence.
   */
  static Change againstEarlier(SeriesHistory h, double[] recent, double[] before) {
    RankTests.MannWhitney mw = RankTests.mannWhitney(before, recent,
        RankTests.dependence(before, recent));
    return new Change(h.signal(), h.scope(), Stats.median(recent), Stats.median(before),
        mw.superiority(), mw.pGreater(), mw.pLess(), recent.length, before.length,
        Change.EARLIER);
  }

  private Change judge(SeriesHistory h) {
    double[] recent = present(h);
    if (recent.length == 0) {
      return Change.none(h.signal(), h.scope());
    }
    double now = Stats.median(recent);
    double[] before = earlier(h);
    if (before.length >= MIN_EARLIER) {
      return againstEarlier(h, recent, before);
    }
    BaselineSummary b = baseline(h.signal(), h.scope());
    if (b == null) {
      return Change.none(h.signal(), h.scope());
    }
    // sign test against the baseline's median, on an effective count shrunk for correlation
    double above = 0;
    for (double v : recent) {
      above += v > b.expected() ? 1 : v == b.expected() ? 0.5 : 0;
    }
    int n = recent.length;
    double dep = RankTests.dependence(recent, recent);
    double sd = Math.sqrt(n / 4.0 * dep);
    double pHigher = 1 - RankTests.normalCdf((above - n / 2.0 - 0.5) / sd);
    double pLower = RankTests.normalCdf((above - n / 2.0 + 0.5) / sd);
    // against a median alone the effect must also leave the band: most values beyond its edge
    boolean beyond = now > b.upper() || now < b.lower();
    double sup = beyond ? above / n : 0.5;
    return new Change(h.signal(), h.scope(), now, b.expected(), sup, pHigher, pLower, n, 0,
        Change.BASELINE);
  }

  /**
   * When {@code h} left its normal in the given direction (event time), or -1 when it is within
   * it now or no normal is known. Normal is the learned baseline's band, else the 5–95 % range
   * of the earlier values.
   */
  long onset(SeriesHistory h, boolean up) {
    if (h == null) {
      return -1;
    }
    Long known = onsets.get(h);
    if (known != null && up) {
      return known;
    }
    double limit;
    BaselineSummary b = baseline(h.signal(), h.scope());
    if (b != null) {
      limit = up ? b.upper() : b.lower();
    } else {
      double[] e = earlier(h);
      if (e.length < MIN_EARLIER) {
        return -1;
      }
      limit = Stats.quantile(e, up ? 0.95 : 0.05);
    }
    long first = departure(h, up, limit);
    if (up) {
      onsets.put(h, first);
    }
    return first;
  }

  /**
   * When {@code h} left its normal upward, if its test cannot decide yet whether it rose, else
   * -1. A series scraped less often than others, or later within the same scrape interval
   * (cAdvisor and node_exporter beside Flink's reporter), has one or two values out of its normal
   * when the consequences it causes already have several. "Cannot decide yet" is the test's own
   * verdict, not a count predicted for clean values: its present is padded with values from
   * before the departure ({@link #present}), and a departure scraped before the job's trouble
   * began lands in the earlier slice, so a count that would decide a clean split still leaves it
   * undecided. Once {@link #MIN_RECENT} values have left the normal the test has all it reads,
   * and an undecided rise is no rise. Dated by the band, not by the series' own 95th percentile:
   * one scrape in twenty clears that by chance and would hold a back-pressure fault back.
   */
  long riseNotYetTestable(SeriesHistory h) {
    if (h == null) {
      return -1;
    }
    long since = onset(h, true);
    if (since < 0 || change(h).higher()) {
      return -1;
    }
    return count(h, since, Long.MAX_VALUE) < MIN_RECENT ? since : -1;
  }

  /**
   * When {@code h} rose above its own earlier values (their 95th percentile), or -1 with too few
   * of them or when it is within them now. Unlike {@link #onset}, not held back by the signal's
   * floor on the band's width: a sign that ramps up from a quiet normal leaves its own range well
   * before it clears a band widened to the floor, and a cause dated by that crossing would look
   * younger than the consequences it produced.
   */
  long riseFromEarlier(SeriesHistory h) {
    if (h == null) {
      return -1;
    }
    double[] e = earlier(h);
    return e.length < MIN_EARLIER ? -1 : departure(h, true, Stats.quantile(e, 0.95));
  }

  private static long departure(SeriesHistory h, boolean up, double limit) {
    // The departure starts at the earliest out-of-normal point from which on most points are
    // out: a few early outliers do not pull it back, and a fault that sometimes dips back into
    // the band keeps its start. The scan stops at a long normal stretch.
    long first = -1;
    int out = 0;
    int seen = 0;
    int normalRun = 0;
    long normalSince = h.size() == 0 ? 0 : h.timeMs(h.size() - 1);
    for (int i = h.size() - 1; i >= 0; i--) {
      double v = h.value(i);
      if (!Double.isFinite(v)) {
        continue;
      }
      seen++;
      if (up ? v > limit : v < limit) {
        out++;
        normalRun = 0;
        normalSince = h.timeMs(i);
        if (2 * out >= seen) {
          first = h.timeMs(i);
        }
      } else if (++normalRun >= ONSET_GAP_POINTS && normalSince - h.timeMs(i) >= ONSET_GAP_MS) {
        break;
      }
    }
    return first;
  }

  /**
   * Normal points in a row, spanning at least {@link #ONSET_GAP_MS}, that end a departure when
   * scanning back from now: an intermittent sign (writes stopped now and then) keeps its start.
   */
  static final int ONSET_GAP_POINTS = 4;
  static final long ONSET_GAP_MS = 2 * 60_000L;

  /** Typical spacing of a history's points (ms), or NaN with fewer than two. */
  static double spacing(SeriesHistory h) {
    int n = h.size();
    if (n < 2) {
      return Double.NaN;
    }
    int from = Math.max(0, n - 21);
    double[] gaps = new double[n - 1 - from];
    for (int i = from + 1; i < n; i++) {
      gaps[i - from - 1] = h.timeMs(i) - h.timeMs(i - 1);
    }
    return Stats.median(gaps);
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
