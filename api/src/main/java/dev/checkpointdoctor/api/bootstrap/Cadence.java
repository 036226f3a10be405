package dev.checkpointdoctor.api.bootstrap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When one scrape target (a {@code job}/{@code instance} pair) is scraped: every {@code
 * intervalMs}, one of them at {@code anchorMs}, the last one at {@code lastMs} ({@link
 * Long#MAX_VALUE} while it goes on). Prometheus scrapes a target on a fixed schedule, so this
 * gives the scrape time behind every {@code query_range} step, which the answer does not carry:
 * a new sample at a step is one whose scrape time is newer than the last one fed, and the lookback
 * repeats after the last scrape are not samples at all.
 */
record Cadence(long intervalMs, long anchorMs, long lastMs) {

  /** The newest scrape at or before {@code tMs}, or {@link Long#MIN_VALUE} when beyond the last. */
  long scrapeAtOrBefore(long tMs) {
    long s = anchorMs + Math.floorDiv(tMs - anchorMs, intervalMs) * intervalMs;
    return s > lastMs ? Long.MIN_VALUE : s;
  }

  /**
   * The cadence of each target in raw samples: the median gap between a series' samples, and
   * its newest sample. Targets scraped fewer than twice are left out.
   *
   * @param ongoing whether the targets go on after these samples (the probe at the end of the
   *     window says no: what comes after is the lookback, not scrapes)
   */
  static Map<String, Cadence> of(List<AnswerParser.RawSeries> raw, boolean ongoing) {
    Map<String, List<Long>> gaps = new HashMap<>();
    Map<String, Long> newest = new HashMap<>();
    for (AnswerParser.RawSeries s : raw) {
      String key = HistoryFeed.instanceKey(s.labels());
      long[] ts = s.timestampsMs();
      List<Long> g = gaps.computeIfAbsent(key, k -> new ArrayList<>());
      for (int i = 1; i < ts.length; i++) {
        if (ts[i] > ts[i - 1]) {
          g.add(ts[i] - ts[i - 1]);
        }
      }
      if (ts.length > 0) {
        newest.merge(key, ts[ts.length - 1], Math::max);
      }
    }
    Map<String, Cadence> out = new HashMap<>();
    for (Map.Entry<String, List<Long>> e : gaps.entrySet()) {
      if (e.getValue().isEmpty()) {
        continue;
      }
      long[] sorted = e.getValue().stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(sorted);
      long median = sorted[sorted.length / 2];
      // scrape times wobble by milliseconds: a 15 s interval is 15 s, not 14.998 s
      long interval = median >= 2000 ? Math.round(median / 1000.0) * 1000 : median;
      long last = newest.get(e.getKey());
      out.put(e.getKey(), new Cadence(interval, last, ongoing ? Long.MAX_VALUE : last));
    }
    return out;
  }
}
