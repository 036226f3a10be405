package dev.checkpointdoctor.api.series;

import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Downsampled event-time history of every (job, signal, scope), in memory only (a restart starts
 * the charts empty; baselines and anomalies come back from the snapshot).
 *
 * <p>Memory is bounded by a total bucket cap ({@link BucketRing#BYTES_PER_BUCKET} bytes each):
 * every series may hold an equal share of it, between {@value #MIN_BUCKETS_PER_SERIES} and a full
 * week ({@link SeriesHistory#FULL_BUCKETS}); when the store is over the cap the oldest buckets of
 * each series go first. The default cap, 2,000,000 buckets (about 62 MB), keeps a full week for
 * about 1,460 series; beyond that each series keeps a shorter history.
 *
 * <p>One thread writes ({@link SeriesFeed}); any thread may read.
 */
public final class SeriesStore {
  public static final long DEFAULT_MAX_BUCKETS = 2_000_000;
  static final int MIN_BUCKETS_PER_SERIES = 64;
  private static final int MEMO_SLOTS = 1 << 14;

  private final long maxBuckets;
  private final Map<String, Map<Key, SeriesHistory>> jobs = new ConcurrentHashMap<>();
  private final AtomicLong buckets = new AtomicLong();
  private final AtomicLong series = new AtomicLong();
  /**
   * The writer's memo of the series it fed, found by the identity of an evaluation's job and
   * scope strings: the detector hands out the same instances for a series every time, so the
   * steady state neither builds a key nor hashes and compares one. A miss (another instance of
   * equal strings, a collision) costs only the map lookup.
   */
  private final Remembered[] memo = new Remembered[MEMO_SLOTS];

  public SeriesStore() {
    this(DEFAULT_MAX_BUCKETS);
  }

  public SeriesStore(long maxBuckets) {
    if (maxBuckets < MIN_BUCKETS_PER_SERIES) {
      throw new IllegalArgumentException("maxBuckets too small: " + maxBuckets);
    }
    this.maxBuckets = maxBuckets;
  }

  /** Records one judged observation (writer thread only). */
  void add(Evaluation e) {
    int slot = memoSlot(e);
    Remembered r = memo[slot];
    SeriesHistory h;
    if (r != null && r.job == e.job() && r.scope == e.scope() && r.signal == e.signal()) {
      h = r.history;
    } else {
      h = lookup(e);
      memo[slot] = new Remembered(e.job(), e.signal(), e.scope(), h);
    }
    buckets.addAndGet(h.add(e.timestampMs(), e.observed(), e.expected(), e.lower(), e.upper(),
        e.outside(), share()));
  }

  private SeriesHistory lookup(Evaluation e) {
    Map<Key, SeriesHistory> job = jobs.computeIfAbsent(e.job(), j -> new ConcurrentHashMap<>());
    SeriesHistory h = job.get(new Key(e.signal(), e.scope()));
    if (h == null) {
      h = new SeriesHistory();
      job.put(new Key(e.signal(), e.scope()), h);
      series.incrementAndGet();
    }
    return h;
  }

  private static int memoSlot(Evaluation e) {
    int h = System.identityHashCode(e.job()) * 31 + System.identityHashCode(e.scope());
    h = h * 31 + e.signal().ordinal();
    return (h ^ (h >>> 16)) & (MEMO_SLOTS - 1);
  }

  /** Trims every series to its share when the store is over the cap (writer thread only). */
  void enforceCap() {
    if (buckets.get() <= maxBuckets) {
      return;
    }
    int share = share();
    for (Map<Key, SeriesHistory> job : jobs.values()) {
      for (SeriesHistory h : job.values()) {
        buckets.addAndGet(-h.trimTo(share));
      }
    }
  }

  /** Forgets series that saw nothing since {@code cutoffMs} (writer thread only). */
  void forgetIdleBefore(long cutoffMs) {
    Arrays.fill(memo, null); // it may name a history about to be forgotten
    jobs.forEach((name, job) -> {
      job.entrySet().removeIf(en -> {
        if (en.getValue().newestMs() >= cutoffMs) {
          return false;
        }
        buckets.addAndGet(-en.getValue().buckets());
        series.decrementAndGet();
        return true;
      });
      if (job.isEmpty()) {
        jobs.remove(name, job);
      }
    });
  }

  /** Scopes that have history for this job and signal, sorted. */
  public List<String> scopes(String job, Signal signal) {
    Map<Key, SeriesHistory> j = jobs.get(job);
    if (j == null) {
      return List.of();
    }
    return j.keySet().stream().filter(k -> k.signal() == signal).map(Key::scope).sorted()
        .toList();
  }

  /** The newest event time of one series, or empty when it has no history. */
  public Optional<Long> newestMs(String job, Signal signal, String scope) {
    return history(job, signal, scope).map(SeriesHistory::newestMs);
  }

  public Optional<Downsampled> query(String job, Signal signal, String scope,
      long fromMs, long toMs, int maxPoints) {
    return history(job, signal, scope).map(h -> h.query(fromMs, toMs, maxPoints));
  }

  public long buckets() {
    return buckets.get();
  }

  public long series() {
    return series.get();
  }

  public long maxBuckets() {
    return maxBuckets;
  }

  private Optional<SeriesHistory> history(String job, Signal signal, String scope) {
    Map<Key, SeriesHistory> j = jobs.get(job);
    return j == null ? Optional.empty() : Optional.ofNullable(j.get(new Key(signal, scope)));
  }

  private int share() {
    long perSeries = maxBuckets / Math.max(1, series.get());
    return (int) Math.max(MIN_BUCKETS_PER_SERIES,
        Math.min(SeriesHistory.FULL_BUCKETS, perSeries));
  }

  private record Key(Signal signal, String scope) {}

  private record Remembered(String job, Signal signal, String scope, SeriesHistory history) {}
}
