package dev.checkpointdoctor.detector.extract;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Turns raw samples (already matched to a {@link MetricRule}) into unit-normalised {@link
 * Observation}s per job. Samples of one series arrive in timestamp order; series interleave
 * arbitrarily: requests of different Prometheus shards and servers, sources minutes apart. Each
 * source has its own class: {@link JobFrames} (JobManager gauges per scrape), {@link TaskSignals}
 * (task, operator and RocksDB series), {@link TmSignals} (TaskManager JVM), {@link NodeSignals}
 * (node_exporter disks) and {@link ContainerSignals} (cAdvisor); the last three are joined to
 * jobs by their own timestamps through {@link Placement} and {@link PendingJoins}. Not
 * thread-safe.
 *
 * <p>Scopes: {@code job}, {@code task:<task_name>/<subtask_index>}, {@code tm:<tm_id>}, {@code
 * operator:<operator_name>/<subtask_index>/<column_family>}, {@code
 * operator:<operator_name>/<subtask_index>}, {@code node:<node>/<device>}, {@code
 * container:<pod>/<container>}. Joins: {@code host_label}, {@code instance_host}, {@code
 * pod_tm_id}, {@code config}. A job is its {@link JobIdentity} key.
 */
public final class SignalExtractor {
  public static final String JOIN_HOST_LABEL = NodeSignals.JOIN_HOST_LABEL;
  public static final String JOIN_INSTANCE_HOST = NodeSignals.JOIN_INSTANCE_HOST;
  public static final String JOIN_POD_TM_ID = ContainerSignals.JOIN_POD_TM_ID;
  public static final String JOIN_CONFIG = NodeSignals.JOIN_CONFIG;

  static final long NONE = Long.MIN_VALUE;
  private static final long STALE_NAN_BITS = 0x7ff0000000000002L;
  /** Node, container and TaskManager items that may wait for their jobs at once. */
  static final long MAX_HELD_ITEMS = 2_000_000;
  private static final int PRUNE_EVERY_FLUSHES = 1024;

  private final SignalCatalog catalog;
  private final JobIdentity identity;
  private final Map<Labels, Series> series = new HashMap<>();
  // series handed out by open(), which their callers keep instead of this map
  private int openedByCaller;
  private final Placement placement;
  private final PendingJoins joins;
  private final JobFrames jobFrames;
  private final TaskSignals tasks;
  private final TmSignals tms;
  private final NodeSignals nodes;
  private final ContainerSignals containers;
  private long ignoredSamples;
  private long ignoredUnkeyed;
  private int flushes;
  private FlinkProgressBoard board;

  public SignalExtractor(SignalCatalog catalog, DetectorSettings settings) {
    this(catalog, settings, DeliverySettings.defaults());
  }

  public SignalExtractor(SignalCatalog catalog, DetectorSettings settings,
      DeliverySettings delivery) {
    this.catalog = catalog;
    this.identity = delivery.jobIdentity();
    long lag = delivery.maxDeliveryLag().toMillis();
    this.placement = new Placement(lag);
    this.joins = new PendingJoins(placement, MAX_HELD_ITEMS);
    HostAliases aliases = new HostAliases(settings.hostAliases());
    this.jobFrames = new JobFrames(lag, settings.failureWindow().toMillis());
    this.tasks = new TaskSignals(placement);
    this.tms = new TmSignals(placement, joins);
    this.nodes = new NodeSignals(placement, joins, aliases);
    this.containers = new ContainerSignals(placement, joins, aliases);
  }

  public SignalCatalog catalog() {
    return catalog;
  }

  /**
   * Makes this extractor a shard's: its join decisions go to {@code votes} as well, and its joins
   * wait for the clusters' Flink progress over all shards, from {@code board} at each {@link
   * #flush}.
   */
  public void shareJoins(JoinVotes votes, FlinkProgressBoard board) {
    joins.voteWith(votes);
    this.board = board;
  }

  public JobIdentity identity() {
    return identity;
  }

  // ---------------------------------------------------------------- public API

  public void onSample(MetricRule rule, Labels labels, long tsMs, double value,
      Consumer<Observation> out) {
    if (Double.doubleToRawLongBits(value) == STALE_NAN_BITS) {
      onSeriesEnd(rule, labels, tsMs, out);
      return;
    }
    process(track(rule, labels), tsMs, value, out);
  }

  /**
   * The state of a series, created on first sight: a caller that keeps it per series and hands it
   * to {@link #onSample(Series, long, double, Consumer)} saves a lookup by label set per sample.
   * It is valid until {@link #onSeriesEnd} ends the series; track the series again after that.
   */
  public Series track(MetricRule rule, Labels labels) {
    Series s = series.get(labels);
    if (s == null) {
      s = create(rule, labels);
      series.put(labels, s);
    }
    return s;
  }

  /**
   * The state of a new series that the caller keeps for it (as the detector does, in its cursor
   * per series) instead of this extractor keeping it by label set: a map entry per series fewer
   * (~40 bytes). Hand it to {@link #onSample(Series, long, double, Consumer)} and end it with
   * {@link #onSeriesEnd(Series, long, Consumer)}; a series must be opened or tracked, not both.
   */
  public Series open(MetricRule rule, Labels labels) {
    openedByCaller++;
    return create(rule, labels);
  }

  /**
   * As {@link #open(MetricRule, Labels)} with a state the caller made (of its {@link
   * Series#rule() rule}), never opened before: the detector's cursor is the state of its series'
   * first life, one object per series instead of two.
   */
  public Series open(Series fresh, Labels labels) {
    if (fresh.opened || fresh.ended || fresh.source != null) {
      throw new IllegalStateException("a series state is opened once");
    }
    openedByCaller++;
    return init(fresh, labels);
  }

  /**
   * As {@link #onSample(MetricRule, Labels, long, double, Consumer)} for a series tracked by
   * {@link #track}; the value must not be a stale marker (end the series with {@link
   * #onSeriesEnd} instead).
   */
  public void onSample(Series s, long tsMs, double value, Consumer<Observation> out) {
    if (s.ended) {
      throw new IllegalStateException("the series ended; track it again");
    }
    process(s, tsMs, value, out);
  }

  private void process(Series s, long tsMs, double value, Consumer<Observation> out) {
    if (s.skip) {
      ignoredSamples++;
      if (s.unkeyed) {
        ignoredUnkeyed++;
      }
      return;
    }
    switch (s.rule.kind().source()) {
      case JOB -> jobFrames.onSample(s, tsMs, value);
      case TASK, ROCKSDB_CF, ROCKSDB_OPERATOR -> tasks.onSample(s, tsMs, value, out);
      case TM -> tms.onSample(s, tsMs, value, out);
      case NODE -> nodes.onSample(s, tsMs, value, out);
      case CONTAINER -> containers.onSample(s, tsMs, value, out);
      default -> ignoredSamples++;
    }
  }

  public void onSeriesEnd(MetricRule rule, Labels labels, long tsMs, Consumer<Observation> out) {
    Series s = series.remove(labels);
    if (s != null) {
      end(s, tsMs, out);
    }
  }

  /** Ends a series {@link #open opened} by the caller; it must not be used after. */
  public void onSeriesEnd(Series s, long tsMs, Consumer<Observation> out) {
    if (s.ended) {
      throw new IllegalStateException("the series ended already");
    }
    openedByCaller--;
    end(s, tsMs, out);
  }

  private void end(Series s, long tsMs, Consumer<Observation> out) {
    s.ended = true;
    if (s.skip) {
      return;
    }
    switch (s.rule.kind().source()) {
      case JOB -> jobFrames.onSeriesEnd(s, tsMs);
      case TASK, ROCKSDB_CF, ROCKSDB_OPERATOR -> tasks.onSeriesEnd(s, tsMs);
      case TM -> tms.onSeriesEnd(s, out);
      case NODE -> nodes.onSeriesEnd(s, out);
      case CONTAINER -> containers.onSeriesEnd(s, out);
      default -> { }
    }
  }

  /**
   * Finishes what the samples so far make complete: job frames all of whose series have passed
   * them, and node, container and TaskManager values whose jobs are now known. Call after each
   * batch of samples; what waits for other series stays held.
   */
  public void flush(Consumer<Observation> out) {
    if (board != null) {
      placement.share(board);
    }
    jobFrames.flush(out);
    joins.flush(out);
    if (++flushes % PRUNE_EVERY_FLUSHES == 0) {
      placement.prune();
    }
  }

  /**
   * As {@link #flush(Consumer)}. The event time is not used: what is complete follows from each
   * job's and source's own samples, never from other sources' timestamps.
   */
  public void flush(long eventTimeMs, Consumer<Observation> out) {
    flush(out);
  }

  /** Every job (key) seen so far. */
  public Set<String> jobs() {
    return jobFrames.jobs();
  }

  public Optional<String> currentJobId(String job) {
    return jobFrames.currentJobId(job);
  }

  /** The job_ids seen for {@code job}, oldest first (bounded); more than one = restarts. */
  public List<String> restarts(String job) {
    return jobFrames.restarts(job);
  }

  /** Series, jobs, TaskManagers, disks, containers and job placements with state. */
  public int trackedEntities() {
    return series.size() + openedByCaller + jobFrames.size() + tms.size() + nodes.size() + containers.size()
        + placement.size();
  }

  /** Node and container samples no job was running on at their time. */
  public long unjoinedSamples() {
    return joins.unjoined();
  }

  /** Node (node_exporter) samples no job was running on at their time. */
  public long unjoinedNodeSamples() {
    return joins.unjoined() - joins.unjoinedContainer();
  }

  /** Container (cAdvisor) samples no job was running on at their time. */
  public long unjoinedContainerSamples() {
    return joins.unjoinedContainer();
  }

  /** TaskManager samples from times no job's task ran on the TaskManager. */
  public long idleTaskManagerSamples() {
    return joins.idleTaskManager();
  }

  /** Job samples that arrived after their scrape's frame was finished. */
  public long lateSamples() {
    return jobFrames.lateSamples();
  }

  /**
   * Samples of series the catalog knows that name nothing to watch: a job gauge without
   * job_name, a TaskManager series without tm_id, virtual disks (loop, ram, ...), the pause
   * container, a node series without a node name.
   */
  public long ignoredSamples() {
    return ignoredSamples;
  }

  /**
   * Of {@link #ignoredSamples()}, those of series without a job key, which a sharded detector
   * hands to every shard.
   */
  public long ignoredSamplesWithoutJobKey() {
    return ignoredUnkeyed;
  }

  /** Job samples in unfinished frames plus node/container/TaskManager items awaiting jobs. */
  public long pendingSamples() {
    return jobFrames.pendingSamples() + joins.held();
  }

  /** Of {@link #pendingSamples()}, the node/container/TaskManager items awaiting jobs. */
  public long heldForJoins() {
    return joins.held();
  }

  /**
   * Tells {@code board} how far this extractor's Flink series of each cluster got and learns how
   * far those of all shards got (also done by each {@link #flush}).
   */
  public void shareProgress(FlinkProgressBoard board) {
    placement.share(board);
  }

  // ---------------------------------------------------------------- series creation

  private Series create(MetricRule rule, Labels labels) {
    return init(new Series(rule), labels);
  }

  private Series init(Series s, Labels labels) {
    MetricRule rule = s.rule;
    MetricRule.Kind kind = rule.kind();
    String cluster = identity.prefix(labels);
    boolean keep = switch (kind.source()) {
      case JOB -> {
        String key = identity.key(labels);
        if (key == null || kind.ordinal() >= JobRun.JOB_KINDS) {
          yield false;
        }
        jobFrames.create(s, key, labels.getOrDefault("job_id", ""));
        yield true;
      }
      case TASK, ROCKSDB_CF, ROCKSDB_OPERATOR ->
          tasks.create(s, labels, identity.key(labels), cluster);
      case TM -> tms.create(s, labels, cluster);
      case NODE -> nodes.create(s, labels, cluster);
      case CONTAINER -> containers.create(s, labels, cluster);
      case MOUNT -> false; // a fact about a file system the Detector records, never a signal
    };
    s.skip = !keep;
    s.unkeyed = !keep && identity.key(labels) == null;
    return s;
  }

  // ---------------------------------------------------------------- helpers

  /** Host part of a Prometheus {@code instance}: strips {@code :port} and IPv6 brackets. */
  static String instanceHost(String instance) {
    return NodeSignals.instanceHost(instance);
  }

  /** Flink's label value filter: every character outside [a-zA-Z0-9:_] becomes '_'. */
  static String sanitize(String s) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == ':' || c == '_';
      if (!ok && b == null) {
        b = new StringBuilder(s);
      }
      if (!ok) {
        b.setCharAt(i, '_');
      }
    }
    return b == null ? s : b.toString();
  }

  static String nonEmpty(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  /**
   * State of one label set; small and reused for every sample of the series. Opaque outside the
   * extractor: see {@link #track}. A caller may extend it to keep its own state of the series in
   * the same object ({@link #open(Series, Labels)}).
   */
  public static class Series {
    final MetricRule rule;
    /** The job key (job-scope, task and operator series). */
    String job;
    /** The job_id label of a job-scope series ("" when absent); label sets never change. */
    String jobId;
    /** The cluster prefix of the series' identity labels ("" without identity labels). */
    String cluster;
    String scope;
    /** Set when the series ends; a new sample of the label set needs a fresh state. */
    boolean ended;
    boolean skip;
    /** Skipped, and without a job key. */
    boolean unkeyed;
    /** Has sent a sample (and is counted where its source counts live series). */
    boolean opened;
    double last = Double.NaN;
    long lastTs = NONE;
    /** A job-scope series currently holding its run's frames. */
    boolean member;
    /**
     * What its source keeps of the series' job, TaskManager, disk or container: a series comes
     * from one source only, so one field serves all four (three references fewer, 16 B a series).
     */
    private Object source;
    JobRun run;
    /** How far its cluster's sources have got (task and operator series update it). */
    Placement.Progress progress;
    /** Where a task or operator series places its job. */
    Stay tmStay;
    Stay hostStay;
    /** The series' slot among its TaskManager's GC collectors. */
    int part = -1;

    protected Series(MetricRule rule) {
      this.rule = rule;
    }

    /** The catalog rule of the series. */
    public final MetricRule rule() {
      return rule;
    }

    /** Whether this state's series ended: a new sample of its label set needs another state. */
    public final boolean ended() {
      return ended;
    }

    /** A job-scope series' job. */
    JobFrames.JobState jobState() {
      return (JobFrames.JobState) source;
    }

    void jobState(JobFrames.JobState j) {
      source = j;
    }

    /** A TaskManager series' TaskManager. */
    TmSignals.Tm tm() {
      return (TmSignals.Tm) source;
    }

    void tm(TmSignals.Tm tm) {
      source = tm;
    }

    /** A node series' disk. */
    NodeSignals.Disk disk() {
      return (NodeSignals.Disk) source;
    }

    void disk(NodeSignals.Disk d) {
      source = d;
    }

    /** A container series' container. */
    ContainerSignals.Container container() {
      return (ContainerSignals.Container) source;
    }

    void container(ContainerSignals.Container c) {
      source = c;
    }

    /**
     * Per-second rate of a cumulative counter since the series' previous sample; NaN when there
     * is no previous sample or the counter went down (reset). Updates the last value.
     */
    double rate(long ts, double v) {
      double r = Double.NaN;
      if (lastTs != NONE && ts > lastTs && v >= last) {
        r = (v - last) / ((ts - lastTs) / 1000.0);
      }
      last = v;
      lastTs = ts;
      return r;
    }
  }
}
