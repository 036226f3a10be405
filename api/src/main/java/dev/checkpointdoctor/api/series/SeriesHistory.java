package dev.checkpointdoctor.api.series;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The event-time history of one (job, signal, scope): 1-minute buckets for the last 6 hours and
 * 10-minute buckets for the last 7 days, both fed by every observation. Full, it holds 360 + 1008
 * buckets of {@link BucketRing#BYTES_PER_BUCKET} bytes, about 42 KB. Reads and writes hold this
 * object's monitor only for one series, so a chart request never stalls the others.
 */
final class SeriesHistory {
  static final long FINE_MS = Duration.ofMinutes(1).toMillis();
  static final long FINE_RETENTION_MS = Duration.ofHours(6).toMillis();
  static final long COARSE_MS = Duration.ofMinutes(10).toMillis();
  static final long COARSE_RETENTION_MS = Duration.ofDays(7).toMillis();
  static final int FINE_BUCKETS = (int) (FINE_RETENTION_MS / FINE_MS);
  static final int COARSE_BUCKETS = (int) (COARSE_RETENTION_MS / COARSE_MS);
  static final int FULL_BUCKETS = FINE_BUCKETS + COARSE_BUCKETS;

  private final BucketRing fine = new BucketRing(FINE_MS);
  private final BucketRing coarse = new BucketRing(COARSE_MS);
  private long newestMs = Long.MIN_VALUE;

  /** Returns the change in stored buckets. {@code maxBuckets} is this series' share of the cap. */
  synchronized int add(long tsMs, double observed, double expected, double lower, double upper,
      boolean outside, int maxBuckets) {
    newestMs = Math.max(newestMs, tsMs);
    int[] caps = split(maxBuckets);
    return fine.add(tsMs, observed, expected, lower, upper, outside, caps[0], FINE_RETENTION_MS)
        + coarse.add(tsMs, observed, expected, lower, upper, outside, caps[1],
            COARSE_RETENTION_MS);
  }

  /** Shrinks to a smaller share of the cap, oldest first; returns the buckets dropped. */
  synchronized int trimTo(int maxBuckets) {
    int[] caps = split(maxBuckets);
    return fine.trimTo(caps[0]) + coarse.trimTo(caps[1]);
  }

  synchronized long newestMs() {
    return newestMs;
  }

  synchronized int buckets() {
    return fine.size() + coarse.size();
  }

  /**
   * At most {@code maxPoints} points over [fromMs, toMs), from the finest tier that holds all of
   * the range this series has data for; consecutive buckets are merged when there are too many.
   */
  synchronized Downsampled query(long fromMs, long toMs, int maxPoints) {
    // Fine holds all there is when it reaches back to the range's start or into the coarse
    // tier's oldest bucket (the coarse tier can hold nothing older than that).
    BucketRing tier = fine.size() > 0 && (fine.oldestStartMs() <= fromMs
        || fine.oldestStartMs() < coarse.oldestStartMs() + coarse.bucketMs()) ? fine : coarse;
    List<SeriesPoint> raw = new ArrayList<>();
    tier.forEach(fromMs, toMs, (start, first, mn, mx, last, exp, lo, hi, out) -> raw.add(
        new SeriesPoint(start, start + tier.bucketMs(), first, mn, mx, last, exp, lo, hi, out)));
    int group = Math.max(1, (raw.size() + maxPoints - 1) / maxPoints);
    if (group == 1) {
      return new Downsampled(tier.bucketMs(), 1, raw);
    }
    List<SeriesPoint> merged = new ArrayList<>(raw.size() / group + 1);
    for (int i = 0; i < raw.size(); i += group) {
      merged.add(merge(raw.subList(i, Math.min(raw.size(), i + group))));
    }
    return new Downsampled(tier.bucketMs(), group, merged);
  }

  private static SeriesPoint merge(List<SeriesPoint> run) {
    double min = Double.NaN;
    double max = Double.NaN;
    boolean outside = false;
    for (SeriesPoint p : run) {
      min = Double.isNaN(min) ? p.min() : Math.min(min, p.min());
      max = Double.isNaN(max) ? p.max() : Math.max(max, p.max());
      outside |= p.outside();
    }
    SeriesPoint first = run.get(0);
    SeriesPoint last = run.get(run.size() - 1);
    return new SeriesPoint(first.startMs(), last.endMs(), first.firstMs(), min, max, last.last(),
        last.expected(), last.lower(), last.upper(), outside);
  }

  /** Splits a series' share between the tiers in proportion to their full sizes. */
  private static int[] split(int maxBuckets) {
    int total = Math.max(2, Math.min(maxBuckets, FULL_BUCKETS));
    int fineCap = Math.max(1, (int) ((long) total * FINE_BUCKETS / FULL_BUCKETS));
    return new int[] {fineCap, Math.max(1, total - fineCap)};
  }
}
