package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.extract.SignalExtractor;
import dev.checkpointdoctor.detector.facts.MountTable;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pipeline in one place: samples (in event time) → signal extraction → per (job, signal,
 * scope) baseline and anomaly state. Callers hand in whole decoded requests; reads take the same
 * lock, so the API sees a consistent state between two requests.
 *
 * <p>Time is the samples' own: nothing here reads a clock, so a recorded history replays exactly.
 * Only per-series order is assumed: sources, Prometheus shards and the replicas of an HA pair
 * (see {@link DeliverySettings}) may interleave as they like within the delivery lag.
 */
public final class Detector implements DetectorInput {
  /** Bits of the NaN Prometheus uses to mark a series as ended. */
  public static final long STALE_NAN_BITS = 0x7ff0000000000002L;
  /** Event time between flushes of finished frames within a batch: about one scrape apart. */
  static final long FRAME_FLUSH_MS = 1_000;

  private final SignalCatalog catalog;
  private final DetectorSettings settings;
  private final DeliverySettings delivery;
  private final SignalExtractor extractor;
  private final ShardRole shard;
  /** Null unless an HA replica label is set. */
  private final ReplicaElection election;
  private final ReplicaElection.Sink seriesSink = (l, t, v, from, to) ->
      acceptSeries(l, t, v, from, to, false);
  private final ReplicaElection.Sink broadcastSink = (l, t, v, from, to) ->
      acceptSeries(l, t, v, from, to, true);
  private final DetectorStats stats = new DetectorStats();
  // Keyed by label sets whose strings are interned (see Labels#interned). The decoder interns the
  // strings of the label sets it builds, so its instances compare to these by reference, string
  // by string, or are these very instances.
  private final CursorTable series = new CursorTable();
  // The cursor whose sample the extractor is working on, so observe() can use its book hint.
  private SeriesCursor current;
  private final SignalBook book;
  private SeriesBudget budget = SeriesBudget.unlimited();
  private MountTable mounts = new MountTable();
  private long eventTimeMs = Long.MIN_VALUE;
  // Event time of the last flush of finished frames. Samples of task, TaskManager and node
  // series are observed on arrival while a job's frames wait for a flush: when a request ends,
  // and as the samples' time moves on (FRAME_FLUSH_MS), so that a backlog coalesced into one
  // big batch does not run those series hours ahead of the job's checkpoint signals (rules and
  // trend tests read one beside the other, and the raw history keeps only its last two hours).
  private long framesFlushedAtMs = Long.MIN_VALUE;
  private int broadcastSeries;
  private boolean readingHistory;
  // One instance instead of a new method reference per sample.
  private final java.util.function.Consumer<Observation> observer = this::observe;
  // Published after every batch so /metrics can read them without waiting for the lock.
  private volatile int trackedSeriesGauge;
  private volatile int broadcastSeriesGauge;
  private volatile int baselineGauge;
  private volatile int openAnomalyGauge;
  private volatile int jobGauge;
  private volatile long lateFrameCounter;
  private volatile long ignoredCounter;
  private volatile long pendingGauge;
  private volatile long pendingBroadcastGauge;
  // of a detector of its own (a shard reads the shards' JoinTally instead)
  private volatile long unjoinedCounter;
  private volatile long idleTaskManagerCounter;

  private final List<DetectorListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  public Detector(SignalCatalog catalog, DetectorSettings settings) {
    this(catalog, settings, new UnknownCauseDiagnoser());
  }

  public Detector(SignalCatalog catalog, DetectorSettings settings, Diagnoser diagnoser) {
    this(catalog, settings, DeliverySettings.defaults(), diagnoser);
  }

  public Detector(SignalCatalog catalog, DetectorSettings settings, DeliverySettings delivery,
      Diagnoser diagnoser) {
    this(catalog, settings, delivery, diagnoser, new AtomicLong(1), ShardRole.ALONE);
  }

  /** One shard of a {@link ShardedDetector}: anomaly ids come from the shards' common counter. */
  Detector(SignalCatalog catalog, DetectorSettings settings, DeliverySettings delivery,
      Diagnoser diagnoser, AtomicLong anomalyIds, ShardRole shard) {
    this.catalog = catalog;
    this.settings = settings;
    this.delivery = delivery;
    this.shard = shard;
    this.extractor = new SignalExtractor(catalog, settings, delivery);
    this.election = delivery.haReplicaLabel() == null ? null
        : new ReplicaElection(delivery.haReplicaLabel(),
            delivery.haFailoverTimeout().toMillis(), catalog, extractor.identity(), stats,
            shard.countsBroadcast() ? stats : shard.uncounted);
    this.book = new SignalBook(settings, diagnoser, listeners, anomalyIds);
    if (shard.alone()) {
      book.unjoinedCounts(extractor::unjoinedNodeSamples, extractor::unjoinedContainerSamples);
    } else {
      extractor.shareJoins(shard.ballot, shard.board);
      book.unjoinedCounts(shard.tally::unjoinedNode, shard.tally::unjoinedContainer);
    }
  }

  /** Restores baselines and anomalies from a snapshot taken by {@link #snapshot()}. */
  public Detector(SignalCatalog catalog, DetectorSettings settings, DetectorState restored) {
    this(catalog, settings, new UnknownCauseDiagnoser(), restored);
  }

  public Detector(SignalCatalog catalog, DetectorSettings settings, Diagnoser diagnoser,
      DetectorState restored) {
    this(catalog, settings, DeliverySettings.defaults(), diagnoser, restored);
  }

  public Detector(SignalCatalog catalog, DetectorSettings settings, DeliverySettings delivery,
      Diagnoser diagnoser, DetectorState restored) {
    this(catalog, settings, delivery, diagnoser);
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

  public DeliverySettings delivery() {
    return delivery;
  }

  /** What makes a job key (job_name, or identity labels and job_name). */
  public JobIdentity jobIdentity() {
    return extractor.identity();
  }

  /**
   * Caps the series the detector keeps state for (call before the first sample; series that are
   * already tracked are not counted).
   */
  public synchronized void limitSeries(int maxTotal, int maxPerJob) {
    useBudget(new SeriesBudget(maxTotal, maxPerJob));
  }

  /** Uses a budget (shared with other shards; call before the first sample). */
  synchronized void useBudget(SeriesBudget budget) {
    this.budget = budget;
    if (election != null) {
      // both replicas' label sets, and some churn
      election.limit((int) Math.min(Integer.MAX_VALUE, 4L * budget.maxTotal()));
    }
  }

  /** Where node_exporter's file systems are recorded (a table the cause ranker reads). */
  public synchronized void recordMountsIn(MountTable table) {
    mounts = table;
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
  @Override
  public synchronized void accept(Labels labels, long[] timestamps, double[] values, int from,
      int to) {
    if (election != null) {
      election.accept(labels, timestamps, values, from, to, seriesSink);
    } else {
      acceptSeries(labels, timestamps, values, from, to, false);
    }
  }

  /**
   * As {@link #accept(Labels, long[], double[], int, int)} for a series that every shard of a
   * {@link ShardedDetector} receives (a series without a job key: node, TaskManager and container
   * series, which each shard joins to its own jobs). Its samples are counted in the stats of one
   * shard only, and its join decisions in the shards' common tally.
   */
  public synchronized void acceptBroadcast(Labels labels, long[] timestamps, double[] values,
      int from, int to) {
    if (election != null) {
      election.accept(labels, timestamps, values, from, to, broadcastSink);
    } else {
      acceptSeries(labels, timestamps, values, from, to, true);
    }
  }

  private void acceptSeries(Labels labels, long[] timestamps, double[] values, int from, int to,
      boolean broadcast) {
    // The decoders hand out one instance per series and event loop: its memo finds the cursor
    // without comparing label contents.
    SeriesCursor cursor = shard.remembered(labels, broadcast, this);
    if (cursor == null) {
      cursor = series.get(labels);
      if (cursor != null) {
        shard.remember(labels, broadcast, cursor);
      }
    }
    DetectorStats counted = broadcast && !shard.countsBroadcast() ? shard.uncounted : stats;
    if (cursor == null) {
      MetricRule rule = catalog.ruleFor(labels.metricName());
      if (rule == null) {
        counted.unusedMetric.addAndGet(to - from);
        return;
      }
      if (rule.kind().source() == MetricRule.Source.MOUNT) {
        mounts.observe(labels); // a fact about a mount, no signal: no cursor, no budget
        counted.processed.addAndGet(to - from);
        return;
      }
      if (!budget.tryAdd(labels, broadcast)) {
        counted.cardinalityLimit.addAndGet(to - from);
        return;
      }
      // the detector keeps a label set for as long as the series lives: share its strings
      cursor = new SeriesCursor(this, rule, labels.interned());
      series.add(cursor);
      shard.remember(labels, broadcast, cursor);
      if (broadcast) {
        broadcastSeries++;
      }
    }
    labels = cursor.labels; // the extractor keys its state by the same, long-lived instance
    current = cursor;
    for (int i = from; i < to; i++) {
      long ts = timestamps[i];
      if (ts < cursor.lastTimestampMs) {
        counted.outOfOrder.incrementAndGet();
        continue;
      }
      if (ts == cursor.lastTimestampMs) {
        counted.duplicate.incrementAndGet();
        continue;
      }
      cursor.lastTimestampMs = ts;
      if (ts > eventTimeMs) {
        eventTimeMs = ts;
        if (framesFlushedAtMs == Long.MIN_VALUE || ts - framesFlushedAtMs >= FRAME_FLUSH_MS) {
          flushFrames(cursor);
        }
      }
      if (Double.doubleToRawLongBits(values[i]) == STALE_NAN_BITS) {
        counted.staleMarkers.incrementAndGet();
        if (cursor.extracted != null) {
          extractor.onSeriesEnd(cursor.extracted, ts, observer);
          cursor.extracted = null; // the series ended; a new sample starts afresh
        }
        continue;
      }
      counted.processed.incrementAndGet();
      if (cursor.extracted == null) {
        // the cursor is the state of the series' first life: once that ended, a new one
        cursor.extracted = cursor.ended()
            ? extractor.open(cursor.rule(), labels) : extractor.open(cursor, labels);
      }
      extractor.onSample(cursor.extracted, ts, values[i], observer);
    }
    current = null;
  }

  /** Observes the frames finished so far, before a sample of a newer time is taken. */
  private void flushFrames(SeriesCursor taking) {
    if (framesFlushedAtMs != Long.MIN_VALUE) {
      current = null; // the frames are other series' observations: no book hint of this one
      extractor.flush(observer);
      current = taking;
    }
    framesFlushedAtMs = eventTimeMs;
  }

  /**
   * Marks the samples accepted until {@link #endHistory()} as read from history (a Prometheus
   * query at start-up) rather than received live: baselines note since when they learned from
   * history, and listeners, called on this thread, can ask {@link #readingHistory()} to tell
   * what happened in the past from what happens now. Nothing else changes: history goes through
   * {@link #accept} and {@link #endBatch} like live samples.
   */
  @Override
  public synchronized void beginHistory() {
    readingHistory = true;
    book.readingHistory(true);
  }

  /** Ends {@link #beginHistory()}. */
  @Override
  public synchronized void endHistory() {
    readingHistory = false;
    book.readingHistory(false);
  }

  /** True between {@link #beginHistory()} and {@link #endHistory()}. */
  @Override
  public synchronized boolean readingHistory() {
    return readingHistory;
  }

  /**
   * Marks the end of one request (or a group of them): what the samples so far make complete is
   * observed, and the jobs that received observations are re-diagnosed. Request boundaries
   * decide nothing else: a scrape split over requests and shards is gathered by its timestamp.
   */
  @Override
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
    if (election != null) {
      election.prune();
    }
    if (this.eventTimeMs != Long.MIN_VALUE) {
      extractor.flush(observer);
      framesFlushedAtMs = this.eventTimeMs;
      if (shard.ballot != null) {
        shard.ballot.cast(); // before diagnosing: a diagnosis quotes the unjoined counts
      }
      book.diagnose(this.eventTimeMs);
    }
    publishGauges();
  }

  /** Tells the shards how far this shard's Flink series got (also done by each batch's end). */
  synchronized void shareProgress() {
    if (shard.board != null) {
      extractor.shareProgress(shard.board);
    }
  }

  private void publishGauges() {
    trackedSeriesGauge = series.size();
    broadcastSeriesGauge = broadcastSeries;
    baselineGauge = book.size();
    openAnomalyGauge = book.openAnomalyCount();
    jobGauge = book.jobCount();
    lateFrameCounter = extractor.lateSamples();
    ignoredCounter = shard.countsBroadcast() ? extractor.ignoredSamples()
        : extractor.ignoredSamples() - extractor.ignoredSamplesWithoutJobKey();
    pendingGauge = extractor.pendingSamples() + (election == null ? 0 : election.held());
    pendingBroadcastGauge = extractor.heldForJoins()
        + (election == null ? 0 : election.heldOfBroadcastSources());
    unjoinedCounter = extractor.unjoinedSamples();
    idleTaskManagerCounter = extractor.idleTaskManagerSamples();
  }

  /**
   * Node and container samples no job's TaskManagers could be joined to (processed, kept for
   * rates, but no signal), as of the last completed batch; of a shard, those no shard joined.
   */
  public long unjoinedSamples() {
    return shard.alone() ? unjoinedCounter : shard.tally.unjoined();
  }

  /** Job samples that arrived after their scrape's frame was evaluated, as of the last batch. */
  public long lateFrameSamples() {
    return lateFrameCounter;
  }

  /**
   * TaskManager samples from times it ran no job's task, as of the last batch; of a shard, those
   * no shard joined.
   */
  public long idleTaskManagerSamples() {
    return shard.alone() ? idleTaskManagerCounter : shard.tally.idleTaskManager();
  }

  /**
   * Samples of catalog metrics that name nothing to watch (no job_name or tm_id, virtual disks,
   * the pause container), as of the last batch; of the shards, only shard 0 counts those of
   * series without a job key (every shard receives them).
   */
  public long ignoredSeriesSamples() {
    return ignoredCounter;
  }

  /**
   * Samples held for now, as of the last batch: in scrapes waiting for the rest of their series,
   * node/container/TaskManager values waiting to learn which jobs ran there, standby-replica
   * samples kept for a failover. Bounded by the delivery lag and fixed caps.
   */
  public long pendingSamples() {
    return pendingGauge;
  }

  /** Of {@link #pendingSamples()}, those of series every shard receives. */
  long pendingBroadcastSamples() {
    return pendingBroadcastGauge;
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
}
