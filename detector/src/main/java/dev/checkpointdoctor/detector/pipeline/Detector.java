package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.extract.SignalExtractor;
import dev.checkpointdoctor.detector.facts.MountTable;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.JobIdentity;
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
 * Only per-series order is assumed: sources, Prometheus shards and the replicas of an HA pair
 * (see {@link DeliverySettings}) may interleave as they like within the delivery lag.
 */
public final class Detector {
  /** Bits of the NaN Prometheus uses to mark a series as ended. */
  public static final long STALE_NAN_BITS = 0x7ff0000000000002L;


  private final SignalCatalog catalog;
  private final DetectorSettings settings;
  private final DeliverySettings delivery;
  private final SignalExtractor extractor;
  /** Null unless an HA replica label is set. */
  private final ReplicaElection election;
  private final ReplicaElection.Sink seriesSink = this::acceptSeries;
  private final DetectorStats stats = new DetectorStats();
  private final Map<Labels, SeriesCursor> series = new HashMap<>();
  // Keyed by label sets whose strings are interned (see Labels#interned). The decoder interns the
  // strings of the label sets it builds, so its instances compare to these by reference, string
  // by string, or are these very instances.
  // The cursor whose sample the extractor is working on, so observe() can use its book hint.
  private SeriesCursor current;
  private final SignalBook book;
  private SeriesBudget budget = SeriesBudget.unlimited();
  private MountTable mounts = new MountTable();
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
  private volatile long idleTaskManagerCounter;
  private volatile long ignoredCounter;
  private volatile long pendingGauge;

  private final List<DetectorListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  public Detector(SignalCatalog catalog, DetectorSettings settings) {
    this(catalog, settings, new UnknownCauseDiagnoser());
  }

  public Detector(SignalCatalog catalog, DetectorSettings settings, Diagnoser diagnoser) {
    this(catalog, settings, DeliverySettings.defaults(), diagnoser);
  }

  public Detector(SignalCatalog catalog, DetectorSettings settings, DeliverySettings delivery,
      Diagnoser diagnoser) {
    this.catalog = catalog;
    this.settings = settings;
    this.delivery = delivery;
    this.extractor = new SignalExtractor(catalog, settings, delivery);
    this.election = delivery.haReplicaLabel() == null ? null
        : new ReplicaElection(delivery.haReplicaLabel(),
            delivery.haFailoverTimeout().toMillis(), catalog, extractor.identity(), stats);
    this.book = new SignalBook(settings, diagnoser, listeners);
    book.unjoinedCounts(extractor::unjoinedNodeSamples, extractor::unjoinedContainerSamples);
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
    book.restore(restored);
    eventTimeMs = restored.eventTimeMs();
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
    budget = new SeriesBudget(maxTotal, maxPerJob);
    if (election != null) {
      // both replicas' label sets, and some churn
      election.limit((int) Math.min(Integer.MAX_VALUE, 4L * maxTotal));
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
  public synchronized void accept(Labels labels, long[] timestamps, double[] values, int from,
      int to) {
    if (election != null) {
      election.accept(labels, timestamps, values, from, to, seriesSink);
    } else {
      acceptSeries(labels, timestamps, values, from, to);
    }
  }

  private void acceptSeries(Labels labels, long[] timestamps, double[] values, int from,
      int to) {
    SeriesCursor cursor = series.get(labels);
    if (cursor == null) {
      MetricRule rule = catalog.ruleFor(labels.metricName());
      if (rule == null) {
        stats.unusedMetric.addAndGet(to - from);
        return;
      }
      if (rule.kind().source() == MetricRule.Source.MOUNT) {
        mounts.observe(labels); // a fact about a mount, no signal: no cursor, no budget
        stats.processed.addAndGet(to - from);
        return;
      }
      if (!budget.tryAdd(labels)) {
        stats.cardinalityLimit.addAndGet(to - from);
        return;
      }
      // the detector keeps a label set for as long as the series lives: share its strings
      cursor = new SeriesCursor(rule, labels.interned());
      series.put(cursor.labels, cursor);
    }
    labels = cursor.labels; // the extractor keys its state by the same, long-lived instance
    current = cursor;
    for (int i = from; i < to; i++) {
      long ts = timestamps[i];
      if (ts < cursor.lastTimestampMs) {
        stats.outOfOrder.incrementAndGet();
        continue;
      }
      if (ts == cursor.lastTimestampMs) {
        stats.duplicate.incrementAndGet();
        continue;
      }
      cursor.lastTimestampMs = ts;
      eventTimeMs = Math.max(eventTimeMs, ts);
      if (Double.doubleToRawLongBits(values[i]) == STALE_NAN_BITS) {
        stats.staleMarkers.incrementAndGet();
        extractor.onSeriesEnd(cursor.rule, labels, ts, observer);
        cursor.extracted = null; // the extractor forgot the series; a new sample starts afresh
        continue;
      }
      stats.processed.incrementAndGet();
      if (cursor.extracted == null) {
        cursor.extracted = extractor.track(cursor.rule, labels);
      }
      extractor.onSample(cursor.extracted, ts, values[i], observer);
    }
    current = null;
  }

  /**
   * Marks the end of one request (or a group of them): what the samples so far make complete is
   * observed, and the jobs that received observations are re-diagnosed. Request boundaries
   * decide nothing else: a scrape split over requests and shards is gathered by its timestamp.
   */
  public synchronized void endBatch() {
    if (election != null) {
      election.prune();
    }
    if (eventTimeMs != Long.MIN_VALUE) {
      extractor.flush(observer);
      book.diagnose(eventTimeMs);
    }
    publishGauges();
  }

  private void publishGauges() {
    trackedSeriesGauge = series.size();
    baselineGauge = book.size();
    openAnomalyGauge = book.openAnomalyCount();
    jobGauge = book.jobCount();
    unjoinedCounter = extractor.unjoinedSamples();
    lateFrameCounter = extractor.lateSamples();
    idleTaskManagerCounter = extractor.idleTaskManagerSamples();
    ignoredCounter = extractor.ignoredSamples();
    pendingGauge = extractor.pendingSamples() + (election == null ? 0 : election.held());
  }

  /**
   * Node and container samples no job's TaskManagers could be joined to (processed, kept for
   * rates, but no signal), as of the last completed batch.
   */
  public long unjoinedSamples() {
    return unjoinedCounter;
  }

  /** Job samples that arrived after their scrape's frame was evaluated, as of the last batch. */
  public long lateFrameSamples() {
    return lateFrameCounter;
  }

  /** TaskManager samples from times it ran no job's task, as of the last batch. */
  public long idleTaskManagerSamples() {
    return idleTaskManagerCounter;
  }

  /**
   * Samples of catalog metrics that name nothing to watch (no job_name or tm_id, virtual disks,
   * the pause container), as of the last batch.
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
    final MetricRule rule;
    final Labels labels;
    long lastTimestampMs = Long.MIN_VALUE;
    /** Null until the first sample and after the series ended. */
    SignalExtractor.Series extracted;
    /** The book entry the series fed last: almost always the one its next observation feeds. */
    SignalBook.Entry bookHint;

    SeriesCursor(MetricRule rule, Labels labels) {
      this.rule = rule;
      this.labels = labels;
    }
  }

}
