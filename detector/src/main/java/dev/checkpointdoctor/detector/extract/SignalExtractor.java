package dev.checkpointdoctor.detector.extract;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.catalog.MetricRule.Source;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Turns raw samples (already matched to a {@link MetricRule}) into unit-normalised {@link
 * Observation}s per Flink {@code job_name}. Samples of one series arrive in timestamp order;
 * series interleave arbitrarily. Not thread-safe.
 *
 * <p>Scopes: {@code job}, {@code task:<task_name>/<subtask_index>}, {@code tm:<tm_id>}, {@code
 * operator:<operator_name>/<subtask_index>/<column_family>}, {@code
 * operator:<operator_name>/<subtask_index>}, {@code node:<node>/<device>}, {@code
 * container:<pod>/<container>}. Joins: {@code host_label}, {@code instance_host}, {@code
 * pod_tm_id}, {@code config}.
 */
public final class SignalExtractor {
  public static final String JOIN_HOST_LABEL = "host_label";
  public static final String JOIN_INSTANCE_HOST = "instance_host";
  public static final String JOIN_POD_TM_ID = "pod_tm_id";
  public static final String JOIN_CONFIG = "config";

  static final long NONE = Long.MIN_VALUE;
  private static final long STALE_NAN_BITS = 0x7ff0000000000002L;
  private static final Pattern SKIPPED_DEVICE = Pattern.compile("^(ram|loop|fd|zram|sr)\\d*");
  private static final int JOB_KINDS = 10;
  private static final int MAX_RESTART_HISTORY = 16;
  private static final int MAX_FAILURE_EVENTS = 4096;

  private final SignalCatalog catalog;
  private final DetectorSettings settings;
  private final long failureWindowMs;
  private final Map<Labels, Series> series = new HashMap<>();
  private final Map<String, JobState> jobs = new HashMap<>();
  private final Map<String, TmState> tms = new HashMap<>();
  private final Map<String, DiskState> disks = new HashMap<>();
  private final Map<String, ContainerState> containers = new HashMap<>();
  /** tm_id to job_name, from task and operator series. */
  private final RefIndex tmJobs = new RefIndex();
  /** Flink host to job_name, from task and operator series with a non-empty host. */
  private final RefIndex hostJobs = new RefIndex();
  /** Flink host to tm_id, from TaskManager JVM series with a non-empty host. */
  private final RefIndex hostTms = new RefIndex();
  /** Node or pod name to the Flink hosts that {@code hostAliases} maps to it. */
  private final Map<String, List<String>> aliasTargets = new HashMap<>();
  private final ArrayList<String> scratchJobs = new ArrayList<>();
  private long unjoinedSamples;
  private long unjoinedContainerSamples;
  private long lateSamples;

  public SignalExtractor(SignalCatalog catalog, DetectorSettings settings) {
    this.catalog = catalog;
    this.settings = settings;
    this.failureWindowMs = settings.failureWindow().toMillis();
    settings.hostAliases().forEach(
        (flinkHost, node) -> aliasTargets.computeIfAbsent(node, k -> new ArrayList<>())
            .add(sanitize(flinkHost)));
  }

  public SignalCatalog catalog() {
    return catalog;
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
      return;
    }
    switch (s.rule.kind().source()) {
      case JOB -> onJob(s, tsMs, value, out);
      case TASK -> onTask(s, tsMs, value, out);
      case ROCKSDB_CF -> {
        if (value >= 0) {
          out.accept(new Observation(s.job, cfSignal(s.rule.kind()), s.scope, tsMs, value));
        }
      }
      case ROCKSDB_OPERATOR -> {
        double rate = rate(s, tsMs, value);
        if (!Double.isNaN(rate)) {
          out.accept(new Observation(s.job, Signal.ROCKSDB_STALL, s.scope, tsMs, rate));
        }
      }
      case TM -> onTm(s, tsMs, value, out);
      case NODE -> onNode(s, tsMs, value, out);
      case CONTAINER -> onContainer(s, tsMs, value, out);
      default -> { }
    }
  }

  public void onSeriesEnd(MetricRule rule, Labels labels, long tsMs, Consumer<Observation> out) {
    Series s = series.remove(labels);
    if (s != null) {
      s.ended = true;
    }
    if (s == null || s.skip) {
      return;
    }
    switch (s.rule.kind().source()) {
      case JOB -> {
        JobState j = jobs.get(s.job);
        if (j != null) {
          JobRun run = j.run(s.jobId);
          if (run != null) {
            int bit = 1 << s.rule.kind().ordinal();
            run.prevMask &= ~bit;
            if (s.rule.kind() == Kind.CP_FAILED_COUNT) {
              run.lastFailed = Double.NaN;
            } else if (s.rule.kind() == Kind.NUM_RESTARTS) {
              run.lastRestarts = Double.NaN;
            }
          }
          if (--j.liveSeries <= 0) {
            j.liveSeries = 0;
            j.current = null;
            j.previous = null;
          }
        }
      }
      case TASK, ROCKSDB_CF, ROCKSDB_OPERATOR -> unregisterFlinkPlacement(s);
      case TM -> {
        TmState tm = s.tm;
        if (s.rule.kind() == Kind.GC_COLLECTOR_TIME) {
          tm.collectors--;
          tm.gcReported = -1; // the frame in flight can no longer be complete
        } else if (s.rule.kind() == Kind.HEAP_USED) {
          tm.heapUsedTs = NONE;
        } else if (s.rule.kind() == Kind.HEAP_MAX) {
          tm.heapMaxTs = NONE;
        }
        if (--tm.refs <= 0) {
          tms.remove(tm.tmId);
          if (tm.host != null) {
            hostTms.remove(tm.host, tm.tmId);
          }
        }
      }
      case NODE -> {
        s.disk.latMask = -1;
        if (--s.disk.refs <= 0) {
          disks.remove(s.disk.key);
        }
      }
      case CONTAINER -> {
        s.container.mask = -1;
        if (--s.container.refs <= 0) {
          containers.remove(s.container.key);
        }
      }
      default -> { }
    }
  }

  /** Finalises job frames older than {@code eventTimeMs}. */
  public void flush(long eventTimeMs, Consumer<Observation> out) {
    for (JobState j : jobs.values()) {
      for (JobRun run : new JobRun[] {j.previous, j.current}) {
        if (run != null && run.frameTs != NONE && run.frameTs < eventTimeMs) {
          finishFrame(j, run, out);
        }
      }
    }
  }

  /** Every job_name seen so far. */
  public Set<String> jobs() {
    return Collections.unmodifiableSet(new TreeSet<>(jobs.keySet()));
  }

  public Optional<String> currentJobId(String jobName) {
    JobState j = jobs.get(jobName);
    return j == null ? Optional.empty() : Optional.ofNullable(j.currentJobId);
  }

  /** The job_ids seen for {@code jobName}, oldest first (bounded); more than one = restarts. */
  public List<String> restarts(String jobName) {
    JobState j = jobs.get(jobName);
    return j == null ? List.of() : List.copyOf(j.jobIds);
  }

  /** Series, jobs, TaskManagers, disks and containers with state. */
  public int trackedEntities() {
    return series.size() + jobs.size() + tms.size() + disks.size() + containers.size();
  }

  /** node_exporter samples that could not be tied to any job. */
  public long unjoinedSamples() {
    return unjoinedSamples;
  }

  /** cAdvisor samples that could not be tied to any job. */
  public long unjoinedContainerSamples() {
    return unjoinedContainerSamples;
  }

  /** Job samples that arrived for a frame already processed. */
  public long lateSamples() {
    return lateSamples;
  }

  // ---------------------------------------------------------------- series creation

  private Series create(MetricRule rule, Labels labels) {
    Series s = new Series(rule);
    Kind kind = rule.kind();
    switch (kind.source()) {
      case JOB -> {
        s.job = labels.get("job_name");
        if (s.job == null || kind.ordinal() >= JOB_KINDS) {
          s.skip = true;
          break;
        }
        s.scope = "job";
        s.jobId = labels.getOrDefault("job_id", "");
        jobs.computeIfAbsent(s.job, JobState::new).liveSeries++;
      }
      case TASK -> {
        s.job = labels.get("job_name");
        if (s.job == null) {
          s.skip = true;
          break;
        }
        // interned: the many series of one subtask share one scope string
        s.scope = ("task:" + labels.getOrDefault("task_name", "") + "/"
            + labels.getOrDefault("subtask_index", "")).intern();
        registerFlinkPlacement(s, labels);
      }
      case ROCKSDB_CF, ROCKSDB_OPERATOR -> {
        s.job = labels.get("job_name");
        if (s.job == null) {
          s.skip = true;
          break;
        }
        String base = "operator:" + labels.getOrDefault("operator_name", "") + "/"
            + labels.getOrDefault("subtask_index", "");
        if (kind.source() == Source.ROCKSDB_CF) {
          String cf = rule.columnFamily() != null
              ? rule.columnFamily() : labels.getOrDefault("column_family", "");
          base = base + "/" + cf;
        }
        s.scope = base.intern();
        registerFlinkPlacement(s, labels);
      }
      case TM -> {
        String tmId = labels.get("tm_id");
        if (tmId == null || tmId.isEmpty()) {
          s.skip = true;
          break;
        }
        TmState tm = tms.get(tmId);
        if (tm == null) {
          tm = new TmState(tmId);
          tms.put(tmId, tm);
        }
        String host = labels.get("host");
        if (tm.host == null && host != null && !host.isEmpty()) {
          tm.host = host;
          hostTms.add(host, tmId);
        }
        tm.refs++;
        if (kind == Kind.GC_COLLECTOR_TIME) {
          tm.collectors++;
        }
        s.tm = tm;
        s.scope = tm.scope;
      }
      case NODE -> {
        String device = labels.getOrDefault("device", "");
        if (SKIPPED_DEVICE.matcher(device).lookingAt()) {
          s.skip = true;
          break;
        }
        String nodeLabel = nonEmpty(labels.get("node"));
        if (nodeLabel == null) {
          nodeLabel = nonEmpty(labels.get("nodename"));
        }
        String instanceHost = nonEmpty(instanceHost(labels.get("instance")));
        String node = nodeLabel != null ? nodeLabel : instanceHost;
        if (node == null) {
          s.skip = true;
          break;
        }
        String key = node + "/" + device;
        DiskState d = disks.get(key);
        if (d == null) {
          d = new DiskState(key, nodeLabel, instanceHost);
          disks.put(key, d);
        }
        d.refs++;
        s.disk = d;
        s.scope = d.scope;
      }
      case CONTAINER -> {
        String pod = nonEmpty(labels.get("pod"));
        if (pod == null) {
          pod = nonEmpty(labels.get("pod_name"));
        }
        String container = labels.get("container");
        if (container == null) {
          container = labels.getOrDefault("container_name", "");
        }
        if (pod == null || container.equals("POD")) {
          s.skip = true;
          break;
        }
        String key = pod + "/" + container;
        ContainerState c = containers.get(key);
        if (c == null) {
          c = new ContainerState(key, pod);
          containers.put(key, c);
        }
        c.refs++;
        s.container = c;
        s.scope = c.scope;
      }
      default -> s.skip = true;
    }
    return s;
  }

  private void registerFlinkPlacement(Series s, Labels labels) {
    s.tmId = nonEmpty(labels.get("tm_id"));
    s.host = nonEmpty(labels.get("host"));
    if (s.tmId != null) {
      tmJobs.add(s.tmId, s.job);
    }
    if (s.host != null) {
      hostJobs.add(s.host, s.job);
    }
  }

  private void unregisterFlinkPlacement(Series s) {
    if (s.tmId != null) {
      tmJobs.remove(s.tmId, s.job);
    }
    if (s.host != null) {
      hostJobs.remove(s.host, s.job);
    }
  }

  // ---------------------------------------------------------------- job scope

  private void onJob(Series s, long ts, double v, Consumer<Observation> out) {
    JobState j = jobs.get(s.job);
    if (j == null) { // the job state outlived no series; recreate it
      j = new JobState(s.job);
      j.liveSeries = 1;
      jobs.put(s.job, j);
    }
    String jobId = s.jobId;
    JobRun run = j.run(jobId);
    if (run == null) {
      run = j.startRun(jobId);
    }
    int bit = 1 << s.rule.kind().ordinal();
    if (run.frameTs != NONE && ts > run.frameTs) {
      finishFrame(j, run, out);
    }
    if (run.lastFrameTs != NONE && ts <= run.lastFrameTs) {
      if (ts == run.lastFrameTs) {
        run.prevMask |= bit; // a series new to this job: wait for it from the next frame on
      }
      lateSamples++;
      return;
    }
    if (run.frameTs == NONE) {
      run.frameTs = ts;
    }
    run.vals[s.rule.kind().ordinal()] = v;
    run.mask |= bit;
    if (run.prevMask != 0 && (run.mask & run.prevMask) == run.prevMask) {
      finishFrame(j, run, out);
    }
  }

  private void finishFrame(JobState j, JobRun run, Consumer<Observation> out) {
    final long t = run.frameTs;
    final int m = run.mask;
    final double[] v = run.vals;
    final String job = j.name;
    // completion marker: lastCompletedCheckpointId (1.17+) else numberOfCompletedCheckpoints
    boolean hasId = has(m, Kind.CP_COMPLETED_ID);
    boolean hasCount = has(m, Kind.CP_COMPLETED_COUNT);
    boolean hasMarker = hasId || hasCount;
    if (run.firstFrameTs == NONE) {
      run.firstFrameTs = t;
      boolean noneCompletedYet = hasId ? v[Kind.CP_COMPLETED_ID.ordinal()] < 0
          : hasCount && v[Kind.CP_COMPLETED_COUNT.ordinal()] == 0;
      if (run.resubmitted || noneCompletedYet) {
        // the job runs under a new job_id (resubmitted, redeployed), or has not completed a
        // checkpoint yet (just submitted): either way it is starting now
        out.accept(new Observation(job, Signal.RESTARTS, "job", t, 1));
      }
    }
    if (hasMarker) {
      double marker = hasId ? v[Kind.CP_COMPLETED_ID.ordinal()]
          : v[Kind.CP_COMPLETED_COUNT.ordinal()];
      boolean exists = hasId ? marker >= 0 : marker > 0;
      boolean completed = false;
      if (Double.isNaN(run.lastMarker)) {
        completed = exists; // first look at this job_id: report the last completion once
      } else if (marker > run.lastMarker) {
        completed = exists;
        run.markerAdvanceTs = t;
      }
      // marker < lastMarker: the statistics were reset (JobManager failover), not a completion
      run.lastMarker = marker;
      run.everMarker = true;
      if (completed) {
        emitIfData(out, job, Signal.CHECKPOINT_DURATION, t, m, v, Kind.CP_DURATION);
        emitIfData(out, job, Signal.CHECKPOINT_SIZE, t, m, v, Kind.CP_SIZE);
        emitIfData(out, job, Signal.CHECKPOINT_FULL_SIZE, t, m, v, Kind.CP_FULL_SIZE);
        emitIfData(out, job, Signal.CHECKPOINT_PERSISTED_DATA, t, m, v, Kind.CP_PERSISTED_DATA);
      }
    }
    // checkpoint age
    double completedTs = has(m, Kind.CP_COMPLETED_TIMESTAMP)
        ? v[Kind.CP_COMPLETED_TIMESTAMP.ordinal()] : Double.NaN;
    if (completedTs > 0) {
      out.accept(new Observation(job, Signal.CHECKPOINT_AGE, "job", t,
          Math.max(0, (t - completedTs) / 1000.0)));
    } else if (run.everMarker) {
      long since = run.markerAdvanceTs != NONE ? run.markerAdvanceTs : run.firstFrameTs;
      out.accept(new Observation(job, Signal.CHECKPOINT_AGE, "job", t, (t - since) / 1000.0));
    }
    emitIfData(out, job, Signal.CHECKPOINT_IN_PROGRESS, t, m, v, Kind.CP_IN_PROGRESS);
    // failed checkpoints in the trailing window
    if (has(m, Kind.CP_FAILED_COUNT) && v[Kind.CP_FAILED_COUNT.ordinal()] >= 0) {
      double failed = v[Kind.CP_FAILED_COUNT.ordinal()];
      double inc = increment(run.lastFailed, failed);
      run.lastFailed = failed;
      if (inc > 0) {
        if (j.failures.size() >= MAX_FAILURE_EVENTS) {
          j.failures.pollFirst();
        }
        j.failures.addLast(new long[] {t, (long) inc});
      }
      long sum = 0;
      while (!j.failures.isEmpty() && j.failures.peekFirst()[0] <= t - failureWindowMs) {
        j.failures.pollFirst();
      }
      for (long[] f : j.failures) {
        if (f[0] <= t) {
          sum += f[1];
        }
      }
      out.accept(new Observation(job, Signal.CHECKPOINT_FAILURES, "job", t, sum));
    }
    if (has(m, Kind.NUM_RESTARTS) && v[Kind.NUM_RESTARTS.ordinal()] >= 0) {
      double restarts = v[Kind.NUM_RESTARTS.ordinal()];
      double inc = increment(run.lastRestarts, restarts);
      run.lastRestarts = restarts;
      if (inc > 0) {
        out.accept(new Observation(job, Signal.RESTARTS, "job", t, inc));
      }
    }
    run.lastFrameTs = t;
    run.prevMask = m;
    run.mask = 0;
    run.frameTs = NONE;
  }

  /** Reset-aware increment: no previous value or a decrease (reset) gives 0. */
  private static double increment(double previous, double current) {
    if (Double.isNaN(previous) || current < previous) {
      return 0;
    }
    return current - previous;
  }

  private static boolean has(int mask, Kind k) {
    return (mask & (1 << k.ordinal())) != 0;
  }

  private static void emitIfData(Consumer<Observation> out, String job, Signal signal, long t,
      int mask, double[] v, Kind k) {
    if (has(mask, k) && v[k.ordinal()] >= 0) { // -1 = no data yet; NaN fails too
      out.accept(new Observation(job, signal, "job", t, v[k.ordinal()]));
    }
  }

  // ---------------------------------------------------------------- task / operator scope

  private void onTask(Series s, long ts, double v, Consumer<Observation> out) {
    if (Double.isNaN(v)) {
      return;
    }
    switch (s.rule.kind()) {
      case START_DELAY_NANOS, ALIGNMENT_NANOS -> {
        if (v < 0) {
          return;
        }
        double ms = v / 1e6;
        if (ms != s.last) { // the gauge repeats the last checkpoint's value every scrape
          s.last = ms;
          Signal sig = s.rule.kind() == Kind.START_DELAY_NANOS
              ? Signal.CHECKPOINT_START_DELAY : Signal.CHECKPOINT_ALIGNMENT;
          out.accept(new Observation(s.job, sig, s.scope, ts, ms));
        }
      }
      case BACKPRESSURED_MS_PER_S ->
          out.accept(new Observation(s.job, Signal.BACKPRESSURE, s.scope, ts, v));
      case BUSY_MS_PER_S -> out.accept(new Observation(s.job, Signal.BUSY, s.scope, ts, v));
      case RECORDS_IN_PER_S ->
          out.accept(new Observation(s.job, Signal.RECORDS_IN, s.scope, ts, v));
      default -> { }
    }
  }

  private static Signal cfSignal(Kind k) {
    return switch (k) {
      case RDB_PENDING_COMPACTION -> Signal.ROCKSDB_PENDING_COMPACTION;
      case RDB_DELAYED_WRITE_RATE -> Signal.ROCKSDB_DELAYED_WRITE_RATE;
      case RDB_WRITE_STOPPED -> Signal.ROCKSDB_WRITE_STOPPED;
      case RDB_L0_FILES -> Signal.ROCKSDB_L0_FILES;
      default -> throw new IllegalArgumentException(k.name());
    };
  }

  /**
   * Per-second rate of a cumulative counter since the series' previous sample; NaN when there is
   * no previous sample or the counter went down (reset). Updates the series' last value.
   */
  private static double rate(Series s, long ts, double v) {
    double r = Double.NaN;
    if (s.lastTs != NONE && ts > s.lastTs && v >= s.last) {
      r = (v - s.last) / ((ts - s.lastTs) / 1000.0);
    }
    s.last = v;
    s.lastTs = ts;
    return r;
  }

  // ---------------------------------------------------------------- TaskManager scope

  private void onTm(Series s, long ts, double v, Consumer<Observation> out) {
    TmState tm = s.tm;
    switch (s.rule.kind()) {
      case GC_ALL_MS_PER_S -> {
        tm.hasAllRate = true;
        if (v >= 0) {
          emitTm(tm, Signal.GC_TIME, ts, v, out);
        }
      }
      case GC_COLLECTOR_TIME -> {
        long prevTs = s.lastTs;
        double prev = s.last;
        s.last = v;
        s.lastTs = ts;
        if (tm.gcFrameTs != NONE && ts < tm.gcFrameTs) {
          return; // belongs to a frame already given up
        }
        if (ts != tm.gcFrameTs) {
          tm.gcFrameTs = ts;
          tm.gcPrevTs = prevTs;
          tm.gcReported = 0;
          tm.gcDelta = 0;
          tm.gcBad = false;
        }
        if (tm.gcReported < 0) {
          return;
        }
        if (prevTs == NONE || prevTs != tm.gcPrevTs || !(v >= prev)) {
          tm.gcBad = true; // first sample, misaligned timestamps or a reset
        } else {
          tm.gcDelta += v - prev;
        }
        if (++tm.gcReported == tm.collectors) {
          tm.gcReported = -1;
          if (!tm.gcBad && !tm.hasAllRate && ts > tm.gcPrevTs) {
            emitTm(tm, Signal.GC_TIME, ts, tm.gcDelta / ((ts - tm.gcPrevTs) / 1000.0), out);
          }
        }
      }
      case HEAP_USED, HEAP_MAX -> {
        if (s.rule.kind() == Kind.HEAP_USED) {
          tm.heapUsed = v;
          tm.heapUsedTs = ts;
        } else {
          tm.heapMax = v;
          tm.heapMaxTs = ts;
        }
        if (tm.heapUsedTs == ts && tm.heapMaxTs == ts && tm.heapEmittedTs != ts) {
          tm.heapEmittedTs = ts;
          if (tm.heapMax > 0 && tm.heapUsed >= 0) {
            emitTm(tm, Signal.HEAP_USAGE, ts, tm.heapUsed / tm.heapMax, out);
          }
        }
      }
      default -> { }
    }
  }

  private void emitTm(TmState tm, Signal signal, long ts, double value,
      Consumer<Observation> out) {
    for (String job : tmJobs.get(tm.tmId)) {
      out.accept(new Observation(job, signal, tm.scope, ts, value));
    }
  }

  // ---------------------------------------------------------------- node_exporter

  private void onNode(Series s, long ts, double v, Consumer<Observation> out) {
    DiskState d = s.disk;
    long prevTs = s.lastTs;
    double prev = s.last;
    double rate = rate(s, ts, v);
    String join = joinNode(d);
    if (join == null) {
      unjoinedSamples++;
    }
    Kind k = s.rule.kind();
    switch (k) {
      case DISK_READS -> emitNode(out, Signal.DISK_READ_IOPS, d, ts, rate, join);
      case DISK_WRITES -> emitNode(out, Signal.DISK_WRITE_IOPS, d, ts, rate, join);
      case DISK_WRITTEN_BYTES -> emitNode(out, Signal.DISK_WRITE_BYTES, d, ts, rate, join);
      case DISK_IO_TIME -> emitNode(out, Signal.DISK_UTILIZATION, d, ts, rate, join);
      default -> { }
    }
    int bit = switch (k) {
      case DISK_READS -> 1;
      case DISK_WRITES -> 2;
      case DISK_READ_TIME -> 4;
      case DISK_WRITE_TIME -> 8;
      default -> 0;
    };
    if (bit == 0) {
      return;
    }
    if (ts != d.latTs) {
      if (d.latTs != NONE && ts < d.latTs) {
        return;
      }
      d.latTs = ts;
      d.latPrevTs = prevTs;
      d.latMask = 0;
      d.latOps = 0;
      d.latTime = 0;
    }
    if (d.latMask < 0) {
      return;
    }
    if (Double.isNaN(rate) || prevTs != d.latPrevTs) {
      d.latMask = -1; // reset or misaligned: no latency for this interval
      return;
    }
    if ((bit & 3) != 0) {
      d.latOps += v - prev;
    } else {
      d.latTime += v - prev;
    }
    d.latMask |= bit;
    if (d.latMask == 15) {
      d.latMask = -1;
      if (d.latOps > 0) {
        emitNode(out, Signal.DISK_LATENCY, d, ts, d.latTime * 1000.0 / d.latOps, join);
      }
    }
  }

  private void emitNode(Consumer<Observation> out, Signal signal, DiskState d, long ts,
      double value, String join) {
    if (join == null || Double.isNaN(value)) {
      return;
    }
    for (int i = 0; i < scratchJobs.size(); i++) {
      out.accept(new Observation(scratchJobs.get(i), signal, d.scope, ts, value, join));
    }
  }

  /** Fills {@link #scratchJobs} with the jobs running on this node; returns the join or null. */
  private String joinNode(DiskState d) {
    scratchJobs.clear();
    if (d.nodeLabel != null && collectJobsOnHost(d.nodeLabelAsHost)) {
      return JOIN_HOST_LABEL;
    }
    if (d.instanceHost != null && collectJobsOnHost(d.instanceHostAsHost)) {
      return JOIN_INSTANCE_HOST;
    }
    if (collectAliased(d.nodeLabel) | collectAliased(d.instanceHost)) {
      return JOIN_CONFIG;
    }
    return null;
  }

  private boolean collectAliased(String node) {
    List<String> flinkHosts = node == null ? null : aliasTargets.get(node);
    boolean any = false;
    if (flinkHosts != null) {
      for (int i = 0; i < flinkHosts.size(); i++) {
        any |= collectJobsOnHost(flinkHosts.get(i));
      }
    }
    return any;
  }

  /** Adds the jobs whose task series or TaskManagers carry this Flink host. */
  private boolean collectJobsOnHost(String host) {
    int before = scratchJobs.size();
    for (String job : hostJobs.get(host)) {
      addJob(job);
    }
    for (String tmId : hostTms.get(host)) {
      for (String job : tmJobs.get(tmId)) {
        addJob(job);
      }
    }
    return scratchJobs.size() > before;
  }

  private void addJob(String job) {
    if (!scratchJobs.contains(job)) {
      scratchJobs.add(job);
    }
  }

  // ---------------------------------------------------------------- cAdvisor

  private void onContainer(Series s, long ts, double v, Consumer<Observation> out) {
    ContainerState c = s.container;
    long prevTs = s.lastTs;
    double prev = s.last;
    double rate = rate(s, ts, v);
    if (ts != c.ts) {
      if (c.ts != NONE && ts < c.ts) {
        return;
      }
      c.ts = ts;
      c.prevTs = prevTs;
      c.mask = 0;
      c.dPeriods = 0;
      c.dThrottled = 0;
    }
    if (c.mask < 0) {
      return;
    }
    if (Double.isNaN(rate) || prevTs != c.prevTs) {
      c.mask = -1;
      return;
    }
    if (s.rule.kind() == Kind.CFS_PERIODS) {
      c.dPeriods = v - prev;
      c.mask |= 1;
    } else {
      c.dThrottled = v - prev;
      c.mask |= 2;
    }
    if (c.mask == 3) {
      c.mask = -1;
      String join = joinContainer(c);
      if (join == null) {
        unjoinedContainerSamples++;
        return;
      }
      if (c.dPeriods > 0) {
        double ratio = c.dThrottled / c.dPeriods;
        for (int i = 0; i < scratchJobs.size(); i++) {
          out.accept(new Observation(scratchJobs.get(i), Signal.CPU_THROTTLING, c.scope, ts,
              ratio, join));
        }
      }
    }
  }

  private String joinContainer(ContainerState c) {
    scratchJobs.clear();
    for (String job : tmJobs.get(c.podAsTmId)) {
      addJob(job);
    }
    if (!scratchJobs.isEmpty()) {
      return JOIN_POD_TM_ID;
    }
    String aliased = settings.hostAliases().get(c.pod);
    boolean any = aliased != null && collectJobsOnHost(sanitize(aliased));
    any |= collectAliased(c.pod);
    return any ? JOIN_CONFIG : null;
  }

  // ---------------------------------------------------------------- helpers and state

  /** Host part of a Prometheus {@code instance}: strips {@code :port} and IPv6 brackets. */
  static String instanceHost(String instance) {
    if (instance == null || instance.isEmpty()) {
      return null;
    }
    if (instance.charAt(0) == '[') {
      int close = instance.indexOf(']');
      return close > 0 ? instance.substring(1, close) : instance;
    }
    int colon = instance.indexOf(':');
    if (colon >= 0 && colon == instance.lastIndexOf(':')) {
      return instance.substring(0, colon);
    }
    return instance; // no port, or a bare IPv6 address
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

  private static String nonEmpty(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  /**
   * State of one label set; small and reused for every sample of the series. Opaque outside the
   * extractor: see {@link #track}.
   */
  public static final class Series {
    final MetricRule rule;
    String job;
    /** The job_id label of a job-scope series ("" when absent); label sets never change. */
    String jobId;
    /** Set when the series ends; a new sample of the label set needs a fresh state. */
    boolean ended;
    String scope;
    String tmId;
    String host;
    boolean skip;
    double last = Double.NaN;
    long lastTs = NONE;
    TmState tm;
    DiskState disk;
    ContainerState container;

    private Series(MetricRule rule) {
      this.rule = rule;
    }
  }

  private static final class JobState {
    final String name;
    final ArrayList<String> jobIds = new ArrayList<>();
    final ArrayDeque<long[]> failures = new ArrayDeque<>();
    String currentJobId;
    JobRun current;
    JobRun previous;
    int liveSeries;

    JobState(String name) {
      this.name = name;
    }

    JobRun run(String jobId) {
      if (current != null && current.jobId.equals(jobId)) {
        return current;
      }
      if (previous != null && previous.jobId.equals(jobId)) {
        return previous;
      }
      return null;
    }

    JobRun startRun(String jobId) {
      boolean restart = currentJobId != null && !currentJobId.equals(jobId);
      previous = current;
      current = new JobRun(jobId, restart);
      if (!jobId.equals(currentJobId)) {
        currentJobId = jobId;
        if (jobIds.size() >= MAX_RESTART_HISTORY) {
          jobIds.remove(0);
        }
        jobIds.add(jobId);
      }
      return current;
    }
  }

  /** Trackers of one job_id; a restart under a new job_id starts a fresh one. */
  private static final class JobRun {
    final String jobId;
    final double[] vals = new double[JOB_KINDS];
    long frameTs = NONE;
    long lastFrameTs = NONE;
    long firstFrameTs = NONE;
    int mask;
    int prevMask;
    double lastMarker = Double.NaN;
    boolean everMarker;
    long markerAdvanceTs = NONE;
    double lastFailed;
    double lastRestarts;
    final boolean resubmitted;

    JobRun(String jobId, boolean restart) {
      this.jobId = jobId;
      this.resubmitted = restart;
      // counters of a restarted job start from 0; on first sight of a job we only get a baseline
      this.lastFailed = restart ? 0 : Double.NaN;
      this.lastRestarts = restart ? 0 : Double.NaN;
    }
  }

  private static final class TmState {
    final String tmId;
    final String scope;
    String host;
    int refs;
    int collectors;
    boolean hasAllRate;
    long gcFrameTs = NONE;
    long gcPrevTs = NONE;
    int gcReported;
    double gcDelta;
    boolean gcBad;
    double heapUsed = Double.NaN;
    long heapUsedTs = NONE;
    double heapMax = Double.NaN;
    long heapMaxTs = NONE;
    long heapEmittedTs = NONE;

    TmState(String tmId) {
      this.tmId = tmId;
      this.scope = "tm:" + tmId;
    }
  }

  private static final class DiskState {
    final String key;
    final String scope;
    /** Raw names, matched against hostAliases values. */
    final String nodeLabel;
    final String instanceHost;
    /** Sanitized like Flink label values, matched against Flink's host label. */
    final String nodeLabelAsHost;
    final String instanceHostAsHost;
    int refs;
    long latTs = NONE;
    long latPrevTs = NONE;
    int latMask;
    double latOps;
    double latTime;

    DiskState(String key, String nodeLabel, String instanceHost) {
      this.key = key;
      this.scope = "node:" + key;
      this.nodeLabel = nodeLabel;
      this.instanceHost = instanceHost;
      this.nodeLabelAsHost = nodeLabel == null ? null : sanitize(nodeLabel);
      this.instanceHostAsHost = instanceHost == null ? null : sanitize(instanceHost);
    }
  }

  private static final class ContainerState {
    final String key;
    final String scope;
    final String pod;
    final String podAsTmId;
    int refs;
    long ts = NONE;
    long prevTs = NONE;
    int mask;
    double dPeriods;
    double dThrottled;

    ContainerState(String key, String pod) {
      this.key = key;
      this.scope = "container:" + key;
      this.pod = pod;
      this.podAsTmId = sanitize(pod);
    }
  }
}
