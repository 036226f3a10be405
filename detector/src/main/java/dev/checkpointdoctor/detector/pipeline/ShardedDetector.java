package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.extract.FlinkProgressBoard;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Several {@link Detector}s, one per thread, with the jobs spread over them by {@link
 * ShardRouter}, read as one. Each shard is a whole detector for its jobs; node, TaskManager and
 * container series go to every shard, which joins them to its own jobs (and, with an HA
 * replica label, elects their replica as every other shard does). What must be unique or
 * counted once is shared: anomaly ids, the series budget, the unjoined and idle-TaskManager
 * counts ({@link JoinTally}), and how far each cluster's Flink series got, which node,
 * container and TaskManager samples wait for.
 *
 * <p>The service feeds each shard from a thread of its own ({@link #shard}, {@link
 * Detector#acceptBroadcast}, {@link Detector#endBatch(long)}); {@link #accept} and {@link
 * #endBatch()} feed all shards from the caller's thread, as a replay does. Reads take each
 * shard's lock in turn: a job's state is consistent, as it lives in one shard.
 */
public final class ShardedDetector implements DetectorInput {
  private final DetectorSettings settings;
  private final Detector[] shards;
  private final ShardRouter router;
  private final AtomicLong anomalyIds = new AtomicLong(1);
  private final DetectorStats stats;
  private volatile boolean readingHistory;

  public ShardedDetector(SignalCatalog catalog, DetectorSettings settings,
      Supplier<Diagnoser> diagnosers, int shardCount) {
    this(catalog, settings, DeliverySettings.defaults(), diagnosers, shardCount);
  }

  /**
   * @param diagnosers one diagnoser per shard (diagnosers keep per-job caches, so no two
   *     threads may share one)
   */
  public ShardedDetector(SignalCatalog catalog, DetectorSettings settings,
      DeliverySettings delivery, Supplier<Diagnoser> diagnosers, int shardCount) {
    this.settings = settings;
    this.router = new ShardRouter(shardCount, delivery.jobIdentity());
    this.shards = new Detector[shardCount];
    JoinTally tally = shardCount == 1 ? null : new JoinTally(shardCount);
    FlinkProgressBoard board = shardCount == 1 ? null : new SharedFlinkProgress();
    List<DetectorStats> parts = new ArrayList<>();
    for (int i = 0; i < shardCount; i++) {
      ShardRole role = shardCount == 1 ? ShardRole.ALONE
          : new ShardRole(i, shardCount, tally, board);
      shards[i] = new Detector(catalog, settings, delivery, diagnosers.get(), anomalyIds, role);
      parts.add(shards[i].stats());
    }
    this.stats = DetectorStats.sumOf(parts);
  }

  public ShardedDetector(SignalCatalog catalog, DetectorSettings settings,
      Supplier<Diagnoser> diagnosers, int shardCount, DetectorState restored) {
    this(catalog, settings, DeliverySettings.defaults(), diagnosers, shardCount, restored);
  }

  /** Restores a snapshot taken by {@link #snapshot()} or {@link Detector#snapshot()}, of any
   * number of shards: each job goes to the shard its key routes to now. */
  public ShardedDetector(SignalCatalog catalog, DetectorSettings settings,
      DeliverySettings delivery, Supplier<Diagnoser> diagnosers, int shardCount,
      DetectorState restored) {
    this(catalog, settings, delivery, diagnosers, shardCount);
    List<DetectorState> parts = ShardedState.split(restored, router);
    for (int i = 0; i < shards.length; i++) {
      shards[i].restore(parts.get(i));
    }
  }

  public DetectorSettings settings() {
    return settings;
  }

  public DeliverySettings delivery() {
    return shards[0].delivery();
  }

  /** What makes a job key; also what routes a series to its shard. */
  public JobIdentity jobIdentity() {
    return shards[0].jobIdentity();
  }

  public int shardCount() {
    return shards.length;
  }

  public Detector shard(int i) {
    return shards[i];
  }

  public ShardRouter router() {
    return router;
  }

  /** Caps the series tracked, in total over all shards and per job (call before any sample). */
  public void limitSeries(int maxTotal, int maxPerJob) {
    SeriesBudget budget = new SeriesBudget(maxTotal, maxPerJob);
    for (Detector d : shards) {
      d.useBudget(budget);
    }
  }

  /** Adds a listener to every shard: it is called from every shard's thread. */
  /**
   * Where node_exporter's file systems are recorded (a table the cause rankers read). Mount
   * series have no job key, so every shard receives them and records them in the one table.
   */
  public void recordMountsIn(dev.checkpointdoctor.detector.facts.MountTable table) {
    for (Detector d : shards) {
      d.recordMountsIn(table);
    }
  }

  public void addListener(DetectorListener listener) {
    for (Detector d : shards) {
      d.addListener(listener);
    }
  }

  // ------------------------------------------------------------ feeding from one thread

  /** Routes one series' samples to its shard, or to every shard; see {@link Detector#accept}. */
  public void accept(Labels labels, long[] timestamps, double[] values) {
    accept(labels, timestamps, values, 0, timestamps.length);
  }

  @Override
  public void accept(Labels labels, long[] timestamps, double[] values, int from, int to) {
    int route = router.route(labels);
    if (route != ShardRouter.BROADCAST) {
      shards[route].accept(labels, timestamps, values, from, to);
      return;
    }
    for (Detector d : shards) {
      d.acceptBroadcast(labels, timestamps, values, from, to);
    }
  }

  /**
   * Ends the batch on every shard at the event time all of them reached, once every shard told
   * the others how far its Flink series got (as one detector would know at this point).
   */
  @Override
  public void endBatch() {
    long t = eventTimeMs();
    for (Detector d : shards) {
      d.shareProgress();
    }
    for (Detector d : shards) {
      d.endBatch(t);
    }
  }

  /**
   * Marks what every shard accepts until {@link #endHistory()} as read from history; see {@link
   * Detector#beginHistory()}. Called from the one thread that feeds while the shard threads wait.
   */
  @Override
  public void beginHistory() {
    readingHistory = true;
    for (Detector d : shards) {
      d.beginHistory();
    }
  }

  @Override
  public void endHistory() {
    for (Detector d : shards) {
      d.endHistory();
    }
    readingHistory = false;
  }

  /** True between {@link #beginHistory()} and {@link #endHistory()} (all shards alike). */
  @Override
  public boolean readingHistory() {
    // no shard's lock: listeners ask this on any shard's thread, holding that shard's lock
    return readingHistory;
  }

  // ------------------------------------------------------------ reads

  public DetectorStats stats() {
    return stats;
  }

  public long eventTimeMs() {
    long t = Long.MIN_VALUE;
    for (Detector d : shards) {
      t = Math.max(t, d.eventTimeMs());
    }
    return t;
  }

  private Detector of(String job) {
    return shards[router.shardOf(job)];
  }

  public Optional<Diagnosis> diagnosis(String job) {
    return of(job).diagnosis(job);
  }

  public Optional<JobSummary> job(String job) {
    return of(job).job(job);
  }

  public List<BaselineSummary> baselines(String job) {
    return of(job).baselines(job);
  }

  /** Every job, by name. */
  public List<JobSummary> jobs() {
    if (shards.length == 1) {
      return shards[0].jobs();
    }
    List<JobSummary> out = new ArrayList<>();
    for (Detector d : shards) {
      out.addAll(d.jobs());
    }
    out.sort(Comparator.comparing(JobSummary::job));
    return out;
  }

  /**
   * Anomalies newest first, as {@link Detector#anomalies}; of the resolved ones the {@link
   * SignalBook#RESOLVED_KEPT} that ended last, as one detector keeps them.
   */
  public List<Anomaly> anomalies(String job, Boolean open, long sinceMs) {
    if (job != null) {
      return of(job).anomalies(job, open, sinceMs);
    }
    if (shards.length == 1) {
      return shards[0].anomalies(null, open, sinceMs);
    }
    List<Anomaly> all = new ArrayList<>();
    for (Detector d : shards) {
      all.addAll(d.anomalies(null, open, sinceMs));
    }
    List<Anomaly> out = ShardedState.keepResolved(all);
    out.sort(Comparator.comparingLong(Anomaly::startedAtMs).reversed()
        .thenComparing(Comparator.comparingLong(Anomaly::id).reversed()));
    return out;
  }

  /** One state of all shards, restorable into any number of shards. */
  public DetectorState snapshot() {
    List<DetectorState> parts = new ArrayList<>();
    for (Detector d : shards) {
      parts.add(d.snapshot());
    }
    // read after the shards' snapshots: above every id any of them handed out
    return ShardedState.merge(parts, anomalyIds.get());
  }

  /** Series with state, each broadcast series counted once (as of the last batches). */
  public int trackedSeries() {
    int n = 0;
    for (int i = 0; i < shards.length; i++) {
      n += shards[i].trackedSeries() - (i == 0 ? 0 : shards[i].broadcastSeries());
    }
    return n;
  }

  public int baselineCount() {
    int n = 0;
    for (Detector d : shards) {
      n += d.baselineCount();
    }
    return n;
  }

  public int openAnomalyCount() {
    int n = 0;
    for (Detector d : shards) {
      n += d.openAnomalyCount();
    }
    return n;
  }

  public int jobCount() {
    int n = 0;
    for (Detector d : shards) {
      n += d.jobCount();
    }
    return n;
  }

  /** Node and container samples no shard could join to a job; see {@link JoinTally}. */
  public long unjoinedSamples() {
    return shards[0].unjoinedSamples();
  }

  /** TaskManager samples of times no shard's job ran a task on it; see {@link JoinTally}. */
  public long idleTaskManagerSamples() {
    return shards[0].idleTaskManagerSamples();
  }

  /** See {@link Detector#ignoredSeriesSamples()}. */
  public long ignoredSeriesSamples() {
    long n = 0;
    for (Detector d : shards) {
      n += d.ignoredSeriesSamples();
    }
    return n;
  }

  /**
   * Samples held (see {@link Detector#pendingSamples()}): those of each shard's jobs, and of the
   * series every shard receives as many as the shard that holds most.
   */
  public long pendingSamples() {
    long own = 0;
    long broadcast = 0;
    for (Detector d : shards) {
      own += d.pendingSamples() - d.pendingBroadcastSamples();
      broadcast = Math.max(broadcast, d.pendingBroadcastSamples());
    }
    return own + broadcast;
  }

  public long lateFrameSamples() {
    long n = 0;
    for (Detector d : shards) {
      n += d.lateFrameSamples();
    }
    return n;
  }

  /** The newest Flink sample per cluster over all shards, written and read by their threads. */
  private static final class SharedFlinkProgress implements FlinkProgressBoard {
    private final ConcurrentHashMap<String, AtomicLong> newest = new ConcurrentHashMap<>();

    @Override
    public long exchange(String cluster, long newestHere) {
      AtomicLong n = newest.get(cluster);
      if (n == null) {
        n = newest.computeIfAbsent(cluster, k -> new AtomicLong(Long.MIN_VALUE));
      }
      return n.accumulateAndGet(newestHere, Math::max);
    }
  }
}
