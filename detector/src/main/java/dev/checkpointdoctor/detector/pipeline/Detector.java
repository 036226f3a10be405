package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.extract.SignalExtractor;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pipeline in one place: samples (in event time) → signal extraction → per (job, signal,
 * scope) baseline and anomaly state. Callers hand in whole decoded requests; reads take the same
 * lock, so the API sees a consistent state between two requests.
 *
 * <p>Time is the samples' own: nothing here reads a clock, so a recorded history replays exactly.
 */
public final class Detector {
  /** Bits of the NaN Prometheus uses to mark a series as ended. */
  public static final long STALE_NAN_BITS = 0x7ff0000000000002L;


  private final SignalCatalog catalog;
  private final DetectorSettings settings;
  private final SignalExtractor extractor;
  private final DetectorStats stats = new DetectorStats();
  private final Map<Labels, SeriesCursor> series = new HashMap<>();
  // Keyed by label sets whose strings are interned (see Labels#interned). The decoder interns the
  // strings of the label sets it builds, so its instances compare to these by reference, string
  // by string, or are these very instances.
  // The cursor whose sample the extractor is working on, so observe() can use its book hint.
  private SeriesCursor current;
  private final SignalBook book;
  private SeriesBudget budget = SeriesBudget.unlimited();
  private long eventTimeMs = Long.MIN_VALUE;
  // One instance instead of a new method reference per sample.
  private final java.util.function.Consumer<Observation> observer = this::observe;
  // Published after every batch so /metrics can read them without waiting for the lock.
  private volatile int trackedSeriesGauge;
  private volatile int baselineGauge;
  private volatile int openAnomalyGauge;
  private volatile int jobGauge;
  private volatile long unjoinedCounter;
  private volatile long lateFrameCounter;
  private volatile int broadcastSeriesGauge;
  // As a shard of a ShardedDetector: whether this shard counts the stats of broadcast series (one
  // shard does, so each of their samples is counted once), how many broadcast series it tracks,
  // and how many of their samples its extractor found no job for (voted, not counted, here).
  private final boolean countsBroadcast;
  private final int shardIndex;
  private final int shardCount;
  private int broadcastSeries;
  private long broadcastUnjoined;

  private final List<DetectorListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  public Detector(SignalCatalog catalog, DetectorSettings settings) {
    this(catalog, settings, new UnknownCauseDiagnoser());
  }

  public Detector(SignalCatalog catalog, DetectorSettings settings, Diagnoser diagnoser) {
    this(catalog, settings, diagnoser, new java.util.concurrent.atomic.AtomicLong(1), 0, 1);
  }

  /** One shard of a {@link ShardedDetector}: anomaly ids come from the shards' common counter. */
  Detector(SignalCatalog catalog, DetectorSettings settings, Diagnoser diagnoser,
      java.util.concurrent.atomic.AtomicLong anomalyIds, int shardIndex, int shardCount) {
    this.catalog = catalog;
    this.settings = settings;
    this.extractor = new SignalExtractor(catalog, settings);
    this.book = new SignalBook(settings, diagnoser, listeners, anomalyIds);
    this.countsBroadcast = shardIndex == 0;
    this.shardIndex = shardIndex;
    this.shardCount = shardCount;
  }

  /** Restores baselines and anomalies from a snapshot taken by {@link #snapshot()}. */
  public Detector(SignalCatalog catalog, DetectorSettings settings, DetectorState restored) {
    this(catalog, settings, new UnknownCauseDiagnoser(), restored);
  }

  public Detector(SignalCatalog catalog, DetectorSettings settings, Diagnoser diagnoser,
      DetectorState restored) {
    this(catalog, settings, diagnoser);
    restore(restored);
  }

  /** Takes over a snapshot's state; only on a detector that has seen no sample yet. */
  synchronized void restore(DetectorState restored) {
    book.restore(restored);
    eventTimeMs = Math.max(eventTimeMs, restored.eventTimeMs());
    publishGauges();
  }

  public DetectorSettings settings() {
    return settings;
  }

  /**
   * Caps the series the detector keeps state for (call before the first sample; series that are
   * already tracked are not counted).
   */
  public synchronized void limitSeries(int maxTotal, int maxPerJob) {
    budget = new SeriesBudget(maxTotal, maxPerJob);
  }

  /** Uses a budget shared with other shards (call before the first sample). */
  synchronized void useBudget(SeriesBudget shared) {
    budget = shared;
  }

  public DetectorStats stats() {
    return stats;
  }

  /**
   * Processes the samples of one series, oldest first. Samples not newer than the newest already
   * seen for the series are dropped and counted; a stale marker ends the series.
   */
  public void accept(Labels labels, long[] timestamps, double[] values) {
    accept(labels, timestamps, values, 0, timestamps.length);
  }

  /** As {@link #accept(Labels, long[], double[])} for the samples {@code [from, to)}. */
  public synchronized void accept(Labels labels, long[] timestamps, double[] values, int from,
      int to) {
    accept(labels, timestamps, values, from, to, null);
  }

  /**
   * As {@link #accept(Labels, long[], double[], int, int)} for a series that every shard of a
   * {@link ShardedDetector} receives (node, TaskManager and container series: each shard joins
   * them to its own jobs). Its samples are counted in the stats of one shard only, and a sample
   * this shard joins to none of its jobs is a vote in {@code unjoined}, which counts it once when
   * every shard voted.
   *
   * @param unjoined votes of the request the samples belong to, indexed like {@code timestamps}
   */
  public synchronized void acceptBroadcast(Labels labels, long[] timestamps, double[] values,
      int from, int to, UnjoinedVotes unjoined) {
    accept(labels, timestamps, values, from, to, java.util.Objects.requireNonNull(unjoined));
  }

  private void accept(Labels labels, long[] timestamps, double[] values, int from, int to,
      UnjoinedVotes unjoined) {
    boolean broadcast = unjoined != null;
    // The decoders hand out one instance per series and event loop: its memo finds the cursor
    // without comparing label contents. A broadcast series reaches every shard: its memo is an
    // array with a slot per shard.
    SeriesCursor cursor = remembered(labels, broadcast);
    if (cursor == null) {
      cursor = series.get(labels);
      if (cursor != null) {
        remember(labels, broadcast, cursor);
      }
    }
    if (cursor == null) {
      boolean counts = !broadcast || countsBroadcast;
      MetricRule rule = catalog.ruleFor(labels.metricName());
      if (rule == null) {
        if (counts) {
          stats.unusedMetric.addAndGet(to - from);
        }
        return;
      }
      if (!budget.tryAdd(labels, broadcast)) {
        if (counts) {
          stats.cardinalityLimit.addAndGet(to - from);
        }
        return;
      }
      // the detector keeps a label set for as long as the series lives: share its strings
      cursor = new SeriesCursor(this, rule, labels.interned());
      series.put(cursor.labels, cursor);
      remember(labels, broadcast, cursor);
      if (broadcast) {
        broadcastSeries++;
      }
    }
    DetectorStats counted = broadcast && !countsBroadcast ? null : stats;
    labels = cursor.labels; // the extractor keys its state by the same, long-lived instance
    current = cursor;
    for (int i = from; i < to; i++) {
      long ts = timestamps[i];
      if (ts < cursor.lastTimestampMs) {
        if (counted != null) {
          counted.outOfOrder.incrementAndGet();
        }
        continue;
      }
      if (ts == cursor.lastTimestampMs) {
        if (counted != null) {
          counted.duplicate.incrementAndGet();
        }
        continue;
      }
      cursor.lastTimestampMs = ts;
      eventTimeMs = Math.max(eventTimeMs, ts);
      if (Double.doubleToRawLongBits(values[i]) == STALE_NAN_BITS) {
        if (counted != null) {
          counted.staleMarkers.incrementAndGet();
        }
        extractor.onSeriesEnd(cursor.rule, labels, ts, observer);
        cursor.extracted = null; // the extractor forgot the series; a new sample starts afresh
        continue;
      }
      if (counted != null) {
        counted.processed.incrementAndGet();
      }
      if (cursor.extracted == null) {
        cursor.extracted = extractor.track(cursor.rule, labels);
      }
      if (broadcast) {
        long before = unjoinedSoFar();
        extractor.onSample(cursor.extracted, ts, values[i], observer);
        if (unjoinedSoFar() != before) {
          broadcastUnjoined++;
          unjoined.vote(i);
        }
      } else {
        extractor.onSample(cursor.extracted, ts, values[i], observer);
      }
    }
    current = null;
  }

  /** This detector's cursor from the label set's memo, or null (see {@link Labels#memo()}). */
  private SeriesCursor remembered(Labels labels, boolean broadcast) {
    Object memo = labels.memo();
    if (!broadcast) {
      return memo instanceof SeriesCursor c && c.owner == this ? c : null;
    }
    if (memo instanceof SeriesCursor[] slots && slots.length == shardCount) {
      SeriesCursor c = slots[shardIndex];
      return c != null && c.owner == this ? c : null;
    }
    return null;
  }

  private void remember(Labels labels, boolean broadcast, SeriesCursor cursor) {
    if (!broadcast) {
      labels.memo(cursor);
      return;
    }
    // Other shards write their slots of the same array; an array another shard replaces loses
    // this slot, which only costs the next sample a map lookup.
    SeriesCursor[] slots = labels.memo() instanceof SeriesCursor[] a && a.length == shardCount
        ? a : null;
    if (slots == null) {
      slots = new SeriesCursor[shardCount];
      labels.memo(slots);
    }
    slots[shardIndex] = cursor;
  }

  private long unjoinedSoFar() {
    return extractor.unjoinedSamples() + extractor.unjoinedContainerSamples();
  }

  /** Marks the end of one request: signals waiting for the rest of their scrape are finalised. */
  public synchronized void endBatch() {
    endBatch(Long.MIN_VALUE);
  }

  /**
   * As {@link #endBatch()}, with the event time raised to at least {@code eventTimeMs}: a shard
   * of a {@link ShardedDetector} ends its batch at the time all shards' samples reached, as one
   * detector that saw them all would.
   */
  public synchronized void endBatch(long eventTimeMs) {
    this.eventTimeMs = Math.max(this.eventTimeMs, eventTimeMs);
    if (this.eventTimeMs != Long.MIN_VALUE) {
      extractor.flush(this.eventTimeMs, observer);
      book.diagnose(this.eventTimeMs);
    }
    publishGauges();
  }

  private void publishGauges() {
    trackedSeriesGauge = series.size();
    baselineGauge = book.size();
    openAnomalyGauge = book.openAnomalyCount();
    jobGauge = book.jobCount();
    unjoinedCounter = unjoinedSoFar() - broadcastUnjoined;
    lateFrameCounter = extractor.lateSamples();
    broadcastSeriesGauge = broadcastSeries;
  }

  /**
   * Node and container samples no job's TaskManagers could be joined to (processed, kept for
   * rates, but no signal), as of the last completed batch; as a shard, those of broadcast series
   * are not in here but in their {@link UnjoinedVotes}.
   */
  public long unjoinedSamples() {
    return unjoinedCounter;
  }

  /** Job samples that arrived after their scrape's frame was evaluated, as of the last batch. */
  public long lateFrameSamples() {
    return lateFrameCounter;
  }

  private void observe(Observation o) {
    stats.observations.incrementAndGet();
    SeriesCursor c = current;
    if (c == null) {
      book.observe(o, null);
    } else {
      c.bookHint = book.observe(o, c.bookHint);
    }
  }

  /** Adds an edge that wants to hear about evaluations, anomalies and diagnoses. */
  public void addListener(DetectorListener listener) {
    listeners.add(listener);
  }

  /** The job's current diagnosis, or empty while it has nothing to explain. */
  public synchronized Optional<Diagnosis> diagnosis(String job) {
    return Optional.ofNullable(book.diagnosis(job));
  }

  /** Event time: the newest sample timestamp seen, or {@code Long.MIN_VALUE} before any. */
  public synchronized long eventTimeMs() {
    return eventTimeMs;
  }

  /** Series with state, as of the last completed batch (never waits for the lock). */
  public int trackedSeries() {
    return trackedSeriesGauge;
  }

  /** Of {@link #trackedSeries()}, those fed by {@link #acceptBroadcast}. */
  int broadcastSeries() {
    return broadcastSeriesGauge;
  }

  /** Baselines, as of the last completed batch (never waits for the lock). */
  public int baselineCount() {
    return baselineGauge;
  }

  /** Open anomalies, as of the last completed batch (never waits for the lock). */
  public int openAnomalyCount() {
    return openAnomalyGauge;
  }

  /** Jobs known, as of the last completed batch (never waits for the lock). */
  public int jobCount() {
    return jobGauge;
  }

  public synchronized List<JobSummary> jobs() {
    return book.jobs();
  }

  public synchronized Optional<JobSummary> job(String job) {
    return book.jobs().stream().filter(j -> j.job().equals(job)).findFirst();
  }

  public synchronized List<BaselineSummary> baselines(String job) {
    return book.baselines(job);
  }

  /**
   * Anomalies, newest first.
   *
   * @param job only this job, or null for all
   * @param open only open (true), only resolved (false), or both (null)
   * @param sinceMs only those active at or after this event time
   */
  public synchronized List<Anomaly> anomalies(String job, Boolean open, long sinceMs) {
    List<Anomaly> out = new ArrayList<>();
    for (Anomaly a : book.anomalies()) {
      if (job != null && !job.equals(a.job())) {
        continue;
      }
      if (open != null && a.open() != open) {
        continue;
      }
      if (!a.open() && a.endedAtMs() < sinceMs) {
        continue;
      }
      out.add(a);
    }
    out.sort(Comparator.comparingLong(Anomaly::startedAtMs).reversed()
        .thenComparing(Comparator.comparingLong(Anomaly::id).reversed()));
    return out;
  }

  /** A consistent copy of everything worth keeping across a restart. */
  public synchronized DetectorState snapshot() {
    return book.snapshot(eventTimeMs);
  }

  /**
   * Per-series cursor: which rule applies, the newest timestamp seen, and where the series' last
   * sample went in the extractor and the book, so the next one needs no lookups there.
   */
  private static final class SeriesCursor {
    /** Final, so a thread that finds this cursor in a label set's memo sees its owner. */
    final Detector owner;
    final MetricRule rule;
    final Labels labels;
    long lastTimestampMs = Long.MIN_VALUE;
    /** Null until the first sample and after the series ended. */
    SignalExtractor.Series extracted;
    /** The book entry the series fed last: almost always the one its next observation feeds. */
    SignalBook.Entry bookHint;

    SeriesCursor(Detector owner, MetricRule rule, Labels labels) {
      this.owner = owner;
      this.rule = rule;
      this.labels = labels;
    }
  }

}
