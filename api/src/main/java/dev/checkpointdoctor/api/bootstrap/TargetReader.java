package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.detector.model.Labels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans and reads one target's history through {@code query_range}, oldest slice first.
 *
 * <p>The plan: a first short query of the raw samples of the last 15 minutes gives each scrape
 * target's interval and schedule ({@link Cadence}); the step is the shortest interval, so no
 * scrape is skipped, and the steps fall half an interval after that target's scrapes. A slice
 * holds at most {@link #SLICE_POINTS} values over all series (about 8 MB) and at most {@link
 * #MAX_POINTS} steps per series (Prometheus refuses more than 11,000 per series and query).
 * Per-checkpoint series are read for the whole window; per-scrape series only for what their
 * baselines keep: the last {@code --window} scrapes, and the day before for the daily envelope.
 *
 * <p>A target seen in history but not in the first query (a JobManager that moved), or one that
 * stops within a slice, gets one more short raw query there, for its cadence and its last scrape.
 */
final class TargetReader {
  static final long PROBE_MS = 15 * 60_000L;
  static final int SLICE_POINTS = 1_000_000;
  static final int MAX_POINTS = 10_000;
  /** Per-scrape series: a day for the daily envelope's "yesterday", plus an hour either side. */
  static final Duration SCRAPE_SPAN_FLOOR = Duration.ofHours(26);
  /** Used when no target scraped twice within the first query (a 15 min+ interval, rare). */
  static final long FALLBACK_STEP_MS = 60_000L;
  private static final int PROBE_MAX_SERIES = 200_000;
  /** How long Prometheus repeats a series' last value when no newer sample comes (default). */
  static final long LOOKBACK_MS = 5 * 60_000L;

  private final PromClient client;
  private final int windowObservations;

  TargetReader(PromClient client, int windowObservations) {
    this.client = client;
    this.windowObservations = windowObservations;
  }

  /** Empty when the target has no sample in the last 15 minutes (nothing alive to learn for). */
  Optional<Plan> plan(Target t, long windowMs, long endMs) throws Problem.Failure {
    List<AnswerParser.RawSeries> raw = new ArrayList<>();
    for (Target.Tier tier : t.tiers()) {
      for (String selector : tier.selectors()) {
        raw.addAll(client.raw(selector, PROBE_MS, endMs, PROBE_MAX_SERIES));
      }
    }
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Cadence> cadences = Cadence.of(raw, false);
    Cadence reference = null;
    for (Cadence c : cadences.values()) {
      if (reference == null || c.intervalMs() < reference.intervalMs()) {
        reference = c;
      }
    }
    long step = reference == null ? FALLBACK_STEP_MS : reference.intervalMs();
    long anchor = reference == null ? endMs : reference.anchorMs();
    // Steps half an interval after that target's scrapes: a scrape a few milliseconds early or
    // late still belongs to its own step, never to the one before or after.
    long offset = Math.floorMod(anchor + step / 2, step);
    long end = Math.floorDiv(endMs - offset, step) * step + offset;
    long scrapeSpan = Math.min(windowMs, Math.max(SCRAPE_SPAN_FLOOR.toMillis(),
        windowObservations * step + 3_600_000L));
    long span = scrapeSpan;
    for (Target.Tier tier : t.tiers()) {
      if (tier.wholeWindow()) {
        span = Math.max(span, checkpointSpan(tier, windowMs, scrapeSpan, end, step));
      }
    }
    long start = Math.floorDiv(endMs - span - offset + step - 1, step) * step + offset;
    if (start > end) {
      return Optional.empty();
    }
    int series = raw.size();
    int perSlice = (int) Math.max(10, Math.min(MAX_POINTS, SLICE_POINTS / Math.max(1, series)));
    long sliceMs = perSlice * step;
    long scrapeStart = Math.max(start, end - scrapeSpan);
    scrapeStart = start + Math.floorDiv(scrapeStart - start, sliceMs) * sliceMs;
    return Optional.of(new Plan(step, start, scrapeStart, end, perSlice, series, cadences));
  }

  /**
   * How far back per-checkpoint series are worth reading: a baseline keeps its last --window
   * observations, so history older than the last --window checkpoints (with a quarter to spare,
   * and never less than the per-scrape span) changes nothing. The checkpoint interval comes from
   * how often the completed-checkpoint counter changed over the window; the whole window when it
   * never did or the server cannot say.
   */
  private long checkpointSpan(Target.Tier tier, long windowMs, long floorMs, long end,
      long step) throws Problem.Failure {
    if (tier.checkpointCounter() == null) {
      return windowMs;
    }
    Matrix m = client.queryRange("sum(changes(" + tier.checkpointCounter() + "["
        + Math.max(1, windowMs / 1000) + "s]))", new Grid(end, step, 1), 1);
    double n = m.size() == 0 ? 0 : m.values(0)[0];
    if (!(n >= 1) || Matrix.absent(n)) {
      return windowMs;
    }
    double interval = windowMs / n;
    long needed = (long) (windowObservations * interval * 1.25) + 3_600_000L;
    return Math.max(floorMs, Math.min(windowMs, needed));
  }

  /** The answers of slice {@code k} for each tier it reaches, with the cadences they need. */
  Slice read(Target t, Plan p, int k) throws Problem.Failure {
    Grid grid = p.grid(k);
    List<Matrix> values = new ArrayList<>();
    int maxSeries = Math.max(10_000, 20 * p.expectedSeries());
    for (Target.Tier tier : t.tiers()) {
      if (tier.wholeWindow() || grid.startMs() >= p.scrapeStartMs()) {
        values.add(client.queryRange(tier.valueQuery(), grid, maxSeries));
      }
    }
    learnCadences(p, grid, values);
    return new Slice(grid, values, Map.copyOf(p.cadences()));
  }

  /**
   * Asks for the raw samples of a target that has no cadence yet, or that stops within this
   * slice (the lookback would otherwise repeat its last values for five minutes), at its last
   * step with a value: one series of it is enough, a target's series are scraped together.
   */
  private void learnCadences(Plan p, Grid grid, List<Matrix> values) throws Problem.Failure {
    Map<String, int[]> lastPresent = new HashMap<>();
    Map<String, Labels> example = new HashMap<>();
    for (Matrix m : values) {
      for (int j = 0; j < m.size(); j++) {
        double[] row = m.values(j);
        int last = -1;
        for (int i = row.length - 1; i >= 0; i--) {
          if (!Matrix.absent(row[i])) {
            last = i;
            break;
          }
        }
        if (last < 0) {
          continue;
        }
        String key = HistoryFeed.instanceKey(m.labels(j));
        int[] known = lastPresent.get(key);
        if (known == null || last > known[0]) {
          lastPresent.put(key, new int[] {last});
          example.put(key, m.labels(j));
        }
      }
    }
    for (Map.Entry<String, int[]> e : lastPresent.entrySet()) {
      Cadence c = p.cadences().get(e.getKey());
      int last = e.getValue()[0];
      boolean stops = last < grid.points() - 1 && grid.endMs() < p.endMs();
      // values long after the last scrape known: the target came back, on a schedule of its own
      boolean resumed = c != null && c.lastMs() != Long.MAX_VALUE
          && grid.timeMs(last) > c.lastMs() + LOOKBACK_MS + p.stepMs();
      if (c != null && !resumed && !(stops && c.lastMs() == Long.MAX_VALUE)) {
        continue;
      }
      Labels l = example.get(e.getKey());
      String selector = "{__name__=\"" + Selectors.quote(l.metricName()) + "\",job=\""
          + Selectors.quote(l.getOrDefault("job", "")) + "\",instance=\""
          + Selectors.quote(l.getOrDefault("instance", "")) + "\"}";
      Map<String, Cadence> found = Cadence.of(
          client.raw(selector, PROBE_MS, grid.timeMs(last), 10), !stops);
      Cadence learnt = found.get(e.getKey());
      if (learnt != null) {
        p.cadences().put(e.getKey(), learnt);
      } else if (c == null || resumed) {
        // one sample in 15 minutes: assume the step, scrapes half a step before each
        p.cadences().put(e.getKey(), new Cadence(p.stepMs(), grid.timeMs(0) - p.stepMs() / 2,
            Long.MAX_VALUE));
      }
    }
  }

  /** One slice as read: the values per tier, and the cadences of their targets. */
  record Slice(Grid grid, List<Matrix> values, Map<String, Cadence> cadences) {
    long points() {
      long n = 0;
      for (Matrix m : values) {
        n += m.presentPoints();
      }
      return n;
    }

    int series() {
      int n = 0;
      for (Matrix m : values) {
        n += m.size();
      }
      return n;
    }
  }
}
