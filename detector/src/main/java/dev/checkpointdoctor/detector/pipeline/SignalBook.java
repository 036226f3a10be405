package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.baseline.BaselineView;
import dev.checkpointdoctor.detector.baseline.SignalTracker;
import dev.checkpointdoctor.detector.extract.BusyShare;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.HourlyHistory;
import dev.checkpointdoctor.detector.trend.InputHistories;
import dev.checkpointdoctor.detector.trend.InputLevel;
import dev.checkpointdoctor.detector.trend.LoadTrend;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every (job, signal, scope) the detector has seen: its tracker, its open anomaly, and the
 * recently resolved anomalies. Not thread-safe; {@link Detector} guards it.
 */
final class SignalBook {
  /** Resolved anomalies kept for the API; older ones are forgotten first. */
  static final int RESOLVED_KEPT = 1000;

  private final DetectorSettings settings;
  private final Diagnoser diagnoser;
  private final List<DetectorListener> listeners;
  private final Map<String, Job> jobs = new TreeMap<>();
  private final java.util.Set<Job> touched = new java.util.LinkedHashSet<>();
  private final Deque<Anomaly> resolved = new ArrayDeque<>();
  /** The next anomaly's id; shared by the shards of a {@link ShardedDetector}. */
  private final java.util.concurrent.atomic.AtomicLong anomalyIds;
  /** Set while the detector reads history: baselines note when they first learned from it. */
  private boolean readingHistory;
  private java.util.function.LongSupplier unjoinedNode = () -> -1;
  private java.util.function.LongSupplier unjoinedContainer = () -> -1;
  private int entryCount;
  private int openCount;

  SignalBook(DetectorSettings settings, Diagnoser diagnoser, List<DetectorListener> listeners) {
    this(settings, diagnoser, listeners, new java.util.concurrent.atomic.AtomicLong(1));
  }

  SignalBook(DetectorSettings settings, Diagnoser diagnoser, List<DetectorListener> listeners,
      java.util.concurrent.atomic.AtomicLong anomalyIds) {
    this.settings = settings;
    this.diagnoser = diagnoser;
    this.listeners = listeners;
    this.anomalyIds = anomalyIds;
  }

  /** Where the diagnoser's views read the unjoined node and container sample counts. */
  void unjoinedCounts(java.util.function.LongSupplier node,
      java.util.function.LongSupplier container) {
    this.unjoinedNode = node;
    this.unjoinedContainer = container;
  }

  /**
   * Books one observation.
   *
   * @param hint the entry the same series fed last, or null; used when it is the observation's
   *     (job, signal, scope), which saves the lookups
   * @return the entry the observation went to, the caller's hint for the series' next one
   */
  Entry observe(Observation o, Entry hint) {
    if (o.signal() == Signal.CHECKPOINT_BUSY_SHARE) {
      o = atUsualDuration(o);
    }
    Entry entry;
    // Reference comparisons suffice: the extractor hands out the same job and scope strings for
    // a series every time; a miss only costs the lookup below.
    if (hint != null && hint.jobRef == o.job() && hint.signal == o.signal()
        && hint.scopeRef == o.scope()) {
      entry = hint;
    } else {
      entry = lookup(o);
    }
    Job job = entry.job;
    job.lastSeenMs = Math.max(job.lastSeenMs, o.timestampMs());
    if (entry.history == null) {
      entry.history = new RecentHistory(o.signal(), o.scope());
      job.historyIndex = null;
      entry.hourly = HistorySnapshot.newHourly(o.signal(), o.scope());
      if (TrendWatch.watched(o.signal(), o.scope())) {
        entry.trend = new TrendWatch(o.signal());
      }
    }
    if (entry.hourly != null) {
      entry.hourly.observe(o.timestampMs(), o.value(), entry.history); // before the raw add
    }
    entry.history.add(o.timestampMs(), o.value());
    if (readingHistory && entry.historySinceMs == Long.MIN_VALUE) {
      entry.historySinceMs = o.timestampMs();
    }
    if (o.join() != null) {
      entry.join = o.join();
    }
    if (o.signal() == Signal.CHECKPOINT_DURATION && "job".equals(o.scope())) {
      for (Entry e : job.entries.values()) {
        e.tracker.checkpointCompleted(o.timestampMs());
      }
    }
    if (o.signal() == Signal.RESTARTS && o.value() > 0) {
      boolean deployed = Signal.START_SCOPE.equals(o.scope());
      if (deployed) {
        job.lastStartMs = Math.max(job.lastStartMs, o.timestampMs());
      }
      for (Entry e : job.entries.values()) {
        e.tracker.jobStarted(o.timestampMs(), deployed);
      }
    }
    // a checkpoint longer than the spacing checkpoints are taken at is trouble at any load: a
    // young baseline, which forgives unseen load, must not forgive that
    SignalTracker.Step step;
    if (entry.signal == Signal.CHECKPOINT_DURATION && "job".equals(entry.scope)) {
      step = entry.tracker.observe(o.timestampMs(), o.value(), CheckpointSpacing.of(entry.history));
    } else if (entry.signal == Signal.BUSY && entry.inputs != null) {
      // busy time that rises with the subtask's input is load; see InputLoad
      step = entry.tracker.observe(o.timestampMs(), o.value(), Double.POSITIVE_INFINITY,
          inputLoad(entry));
    } else if (entry.signal == Signal.CHECKPOINT_AGE && "job".equals(entry.scope)) {
      // a checkpoint that runs a few times as long as usual now and then is not stuck; once
      // stuck, the slow ones completing meanwhile must not end the anomaly
      Entry duration = job.entries.get(new Key(Signal.CHECKPOINT_DURATION, "job"));
      step = entry.tracker.observe(o.timestampMs(), o.value(), Double.POSITIVE_INFINITY, 1,
          duration == null ? Double.NEGATIVE_INFINITY : StuckCheckpoint.ageFrom(
              duration.tracker, entry.open == null ? duration.hourly : null, duration.history,
              o.value()));
    } else if (followsInput(entry)) {
      // a state that rises with the job's input over its last hours is load; see InputLevel
      step = entry.tracker.observe(o.timestampMs(), o.value(), Double.POSITIVE_INFINITY,
          stateLoad(job, entry, o));
    } else {
      step = entry.tracker.observe(o.timestampMs(), o.value());
    }
    if (entry.signal == Signal.RECORDS_IN && entry.inputs != null) {
      entry.inputs.version++; // after the tracker learned: the ratio reads its new band
    }
    if (!job.touched) {
      job.touched = true;
      touched.add(job);
    }
    if (!listeners.isEmpty()) {
      Evaluation e = new Evaluation(o.job(), o.signal(), o.scope(), step.timestampMs(),
          step.observed(), step.expected(), step.lower(), step.upper(), step.score(),
          entry.tracker.ready(), step.outside());
      for (DetectorListener l : listeners) {
        l.evaluated(e);
      }
    }
    switch (step.transition()) {
      case OPENED -> {
        Entry holder = openSibling(job, entry);
        if (holder != null) {
          // the task's anomaly already stands for this subtask (see openSibling); it starts
          // with the subtask whose run started first, whatever order the shards delivered the
          // subtasks' samples in
          Anomaly a = holder.open;
          if (step.runStartMs() < a.startedAtMs() || step.runStartMs() == a.startedAtMs()
              && o.scope().compareTo(a.scope()) < 0) {
            entry.open = new Anomaly(a.id(), a.job(), a.signal(), o.scope(), true,
                step.runStartMs(), -1, step.observed(), step.expected(), step.lower(),
                step.upper(), step.score(), a.causes(), null, -1);
            entry.heldEndMs = holder.heldEndMs;
            holder.open = null;
            holder.heldEndMs = Long.MIN_VALUE;
          }
          break;
        }
        entry.heldEndMs = Long.MIN_VALUE;
        entry.open = new Anomaly(anomalyIds.getAndIncrement(), o.job(), o.signal(), o.scope(),
            true, step.runStartMs(), -1, step.observed(), step.expected(), step.lower(),
            step.upper(), step.score(), job.diagnosis == null ? List.of() : job.diagnosis.ranked());
        openCount++;
        for (DetectorListener l : listeners) {
          l.anomalyOpened(entry.open);
        }
      }
      case RESOLVED, NEW_NORMAL -> {
        Entry heir = entry.open == null || step.transition() != SignalTracker.Transition.RESOLVED
            ? null : stillOutSibling(job, entry);
        Entry holder = entry.open == null ? openSibling(job, entry) : null;
        if (holder != null) {
          // a subtask that joined the task's anomaly is back: the anomaly ends no earlier
          holder.heldEndMs = Math.max(holder.heldEndMs, step.timestampMs());
        } else if (heir != null) {
          // a subtask of the task is still out: the task's anomaly lasts until the last is back
          heir.open = entry.open;
          heir.heldEndMs = Math.max(entry.heldEndMs, step.timestampMs());
          entry.open = null;
          entry.heldEndMs = Long.MIN_VALUE;
        } else if (entry.open != null) {
          // the task's anomaly ends when its last subtask is back, in event time: a subtask
          // delivered late may have handed it over after coming back later than this one
          long end = Math.max(step.timestampMs(), entry.heldEndMs);
          Anomaly resolvedAnomaly = step.transition() == SignalTracker.Transition.NEW_NORMAL
              ? entry.open.becameNormalAt(end, step.runStartMs())
              : entry.open.resolvedAt(end);
          remember(resolvedAnomaly);
          entry.open = null;
          openCount--;
          for (DetectorListener l : listeners) {
            l.anomalyResolved(resolvedAnomaly);
          }
        }
      }
      case NONE -> {
        if (entry.open != null && step.outside()) {
          entry.open = entry.open.withLatest(step.observed(), step.expected(), step.lower(),
              step.upper(), step.score());
        }
      }
    }
    if (entry.trend != null) {
      watchTrend(job, entry, o.timestampMs());
    }
    return entry;
  }

  /**
   * The entry of another subtask of the same task whose anomaly on the same signal is open, or
   * null. One anomaly stands for the task: a condition of the whole task (a load peak beyond
   * its capacity delays every subtask's barrier and back-pressures every source subtask) opened
   * one anomaly per subtask and signal, so a 3-subtask job opened 27 for two 15-minute
   * episodes (train seed 79 {@code healthy_rescale}), a 16-subtask job would open a hundred, and
   * an operator reads the same event in each. A subtask alone out of band (a skew's hot one)
   * still opens its own, and the rules read every subtask's series as before.
   */
  private static Entry openSibling(Job job, Key key) {
    return sibling(job, key, true);
  }

  /**
   * Another subtask of the task whose run on the signal is still open without an anomaly of
   * its own (it joined the task's anomaly), or null; the lowest scope, so the choice follows
   * from the data. A tracker's open state is snapshotted, so a restart finds the same ones.
   */
  private static Entry stillOutSibling(Job job, Key key) {
    return sibling(job, key, false);
  }

  private static Entry sibling(Job job, Key key, boolean holdingAnomaly) {
    String task = taskOf(key.scope);
    if (task == null) {
      return null;
    }
    Entry found = null;
    for (Entry e : job.entries.values()) {
      if (e.signal != key.signal || e.scope.equals(key.scope)
          || !task.equals(taskOf(e.scope))) {
        continue;
      }
      boolean match = holdingAnomaly ? e.open != null : e.open == null && e.tracker.open();
      if (match && (found == null || e.compareTo(found) < 0)) {
        found = e;
      }
    }
    return found;
  }

  /** "task:NAME" of a subtask's scope "task:NAME/INDEX"; null for any other scope. */
  private static String taskOf(String scope) {
    int slash = scope.lastIndexOf('/');
    return scope.startsWith("task:") && slash > 0 ? scope.substring(0, slash) : null;
  }

  /**
   * Whether checkpoint durations rise with the state. Once the input's last hours are known
   * ({@code inputHoursKnown}), its trend's slope above 0 suffices: the size's own trend test
   * then takes out a rise the input's lasting rise explains, so the gate only has to keep out a
   * size that grows while checkpoints get faster; a confident rise of the duration, noisier than
   * the size and moved by the load, took hours beside a size growing 3-5 % an hour that was
   * certain within the hour (family 1 seeds 1-10: growth named at all 32/40, within 2 h 9/30;
   * 37/40 and 12/30 with the slope). Before, the size's rise may be the load's, and the duration
   * must rise with one-sided 95 % confidence: the reading's interval is Sen's two-sided 99 % one
   * (z 2.576), narrowed to z 1.645 around its slope.
   */
  private static boolean rising(GrowthReading d, boolean inputHoursKnown) {
    if (inputHoursKnown) {
      return d.rate() > 0;
    }
    return d.rate() - (1.645 / 2.576) * (d.rate() - d.lower()) > 0;
  }

  /**
   * Runs the entry's trend test and keeps its trend anomaly: observed is the signal now,
   * expected and the band are the baseline's, score is the growth in percent per hour, and it
   * starts with the first of the growing readings that opened it (the evidence quotes the
   * window the growth was fitted on, which reaches back before it).
   */
  private void watchTrend(Job job, Entry entry, long nowMs) {
    TrendWatch w = entry.trend;
    // with both sizes reported, the full size speaks for the state; the checkpointed size of
    // incremental checkpoints follows the churn, not the state
    boolean mayOpen = entry.signal != Signal.CHECKPOINT_SIZE
        || !job.entries.containsKey(new Key(Signal.CHECKPOINT_FULL_SIZE, "job"));
    if (entry.signal != Signal.CHECKPOINT_DURATION) {
      // a state that grows is checkpoint trouble once checkpoints take longer with it (the
      // duration's own trend rises): a size that follows the load while checkpoints do not
      // slow down is no growth to warn of
      Entry duration = job.entries.get(new Key(Signal.CHECKPOINT_DURATION, "job"));
      GrowthReading d = duration == null || duration.trend == null ? null
          : duration.trend.reading();
      // a job that reports no records-in has no input to take out: the confident rise then
      mayOpen &= d != null && rising(d, entry.hourly != null
          && LoadTrend.hoursKnown(entry.hourly.firstHourStartMs(), nowMs, job.lastStartMs)
          && !job.histories(Signal.RECORDS_IN).isEmpty());
    }
    TrendWatch.Transition t = w.observe(entry.history, entry.hourly, nowMs, mayOpen,
        job::inputHistories, job.lastStartMs,
        entry.tracker::seasonReached);
    if (t == TrendWatch.Transition.NONE) {
      return;
    }
    GrowthReading r = w.reading();
    BaselineView band = entry.tracker.view();
    switch (t) {
      case OPENED -> {
        w.open = new Anomaly(anomalyIds.getAndIncrement(), job.name, entry.signal,
            TrendWatch.SCOPE, true,
            Math.min(w.growingSinceMs(), nowMs), -1, r.toValue(), band.expected(), band.lower(),
            band.upper(), r.rate() * 100,
            job.diagnosis == null ? List.of() : job.diagnosis.ranked());
        openCount++;
        for (DetectorListener l : listeners) {
          l.anomalyOpened(w.open);
        }
      }
      case RESOLVED -> {
        Anomaly ended = w.open.resolvedAt(Math.max(nowMs, w.open.startedAtMs()));
        remember(ended);
        w.open = null;
        openCount--;
        for (DetectorListener l : listeners) {
          l.anomalyResolved(ended);
        }
      }
      case UPDATED -> w.open = w.open.withLatest(r.toValue(), band.expected(), band.lower(),
          band.upper(), r.rate() * 100);
      default -> { }
    }
  }

  /**
   * The busy share the job's usual checkpoint would have at the spacing measured: the share
   * scaled by the duration baseline's expected value over the newest durations. Checkpoints that
   * take longer (a load peak, a slow store) raise the measured share without any change of the
   * interval, and their own duration anomaly speaks for them; what is left moves only when the
   * checkpoints complete more often, which is what the share is judged for. Unscaled while the
   * duration baseline is learning (right after a deploy it learns the new run's durations).
   */
  private Observation atUsualDuration(Observation o) {
    Job job = jobs.get(o.job());
    Entry d = job == null ? null : job.entries.get(new Key(Signal.CHECKPOINT_DURATION, "job"));
    if (d == null || d.history == null || !d.tracker.ready()) {
      return o;
    }
    int n = Math.min(BusyShare.SPANS, d.history.size());
    double[] newest = new double[n];
    for (int i = 0; i < n; i++) {
      newest[i] = d.history.value(d.history.size() - 1 - i);
    }
    double recent = BusyShare.typicalDuration(newest);
    double usual = d.tracker.band().expected();
    if (!(recent > 0 && usual > 0)) {
      return o;
    }
    return new Observation(o.job(), o.signal(), o.scope(), o.timestampMs(),
        Math.min(1, o.value() * usual / recent), o.join());
  }

  /**
   * The load factor of a busy entry's subtask ({@link InputLoad}): its records-in rate over that
   * baseline's expected value, against its task's lower-median ratio. No load while the
   * subtask's records-in baseline is learning or unknown.
   */
  private double inputLoad(Entry busy) {
    if (busy.input == null) {
      return InputLoad.NONE;
    }
    double own = inputRatio(busy.input);
    if (!(own > 1 + settings.relativeFloor())) {
      return InputLoad.NONE; // the task's ratio could only lower it
    }
    return InputLoad.factor(own, busy.inputs.lowerMedian(), settings.relativeFloor());
  }

  /** The job-level sizes of the checkpointed state, which may follow the job's input. */
  private static boolean followsInput(Key key) {
    return (key.signal == Signal.CHECKPOINT_FULL_SIZE || key.signal == Signal.CHECKPOINT_SIZE)
        && "job".equals(key.scope);
  }

  /**
   * The load factor of a job's state size: the lower median over the job's records-in scopes of
   * their rate now over their last hours' level ({@link InputLevel}), when it exceeds the
   * relative floor. Read only for a value above the baseline's own band (below it the factor
   * changes nothing), so the scan over the job's inputs runs rarely.
   */
  private double stateLoad(Job job, Entry state, Observation o) {
    if (!(o.value() > state.tracker.band().upper())) {
      return InputLoad.NONE;
    }
    List<SeriesHistory> inputs = job.histories(Signal.RECORDS_IN);
    double[] ratios = new double[inputs.size()];
    for (int i = 0; i < ratios.length; i++) {
      SeriesHistory h = inputs.get(i);
      Entry e = job.entries.get(new Key(Signal.RECORDS_IN, h.scope()));
      ratios[i] = e == null ? Double.NaN : InputLevel.ratio(h, e.hourly, o.timestampMs());
    }
    double f = InputLoad.lowerMedian(ratios, ratios.length);
    return InputLoad.factor(f, f, settings.relativeFloor());
  }

  /** An entry's newest records-in rate over its baseline's expected one; NaN while unknown. */
  private static double inputRatio(Entry recordsIn) {
    RecentHistory h = recordsIn.history;
    if (h == null || h.size() == 0 || !recordsIn.tracker.ready()) {
      return Double.NaN;
    }
    return InputLoad.ratio(h.value(h.size() - 1), recordsIn.tracker.band().expected());
  }

  /**
   * The records-in entries of one task (its subtasks), for the task's lower-median ratio;
   * recomputed only after one of them had an observation.
   */
  private static final class TaskInputs {
    final List<Entry> subtasks = new ArrayList<>();
    long version;
    private long computedAt = -1;
    private double lowerMedian = Double.NaN;
    private double[] ratios = new double[0];

    void add(Entry recordsIn) {
      // a restored entry replaces the one of its scope
      subtasks.removeIf(e -> e.equals(recordsIn));
      subtasks.add(recordsIn);
      version++;
    }

    double lowerMedian() {
      if (computedAt != version) {
        if (ratios.length < subtasks.size()) {
          ratios = new double[subtasks.size()];
        }
        for (int i = 0; i < subtasks.size(); i++) {
          ratios[i] = inputRatio(subtasks.get(i));
        }
        lowerMedian = InputLoad.lowerMedian(ratios, subtasks.size());
        computedAt = version;
      }
      return lowerMedian;
    }
  }

  /** Links a new busy or records-in entry to its task's inputs. */
  private static void attachInputs(Entry entry) {
    Signal s = entry.signal;
    if ((s != Signal.BUSY && s != Signal.RECORDS_IN) || !entry.scope.startsWith("task:")) {
      return;
    }
    int slash = entry.scope.lastIndexOf('/');
    String task = slash < 0 ? entry.scope : entry.scope.substring(0, slash);
    entry.inputs = entry.job.tasks.computeIfAbsent(task, t -> new TaskInputs());
    if (s == Signal.RECORDS_IN) {
      entry.inputs.add(entry);
      Entry busy = entry.job.entries.get(new Key(Signal.BUSY, entry.scope));
      if (busy != null) {
        busy.input = entry; // the busy entry came first, or this one replaces its input
      }
    } else {
      entry.input = entry.job.entries.get(new Key(Signal.RECORDS_IN, entry.scope));
    }
  }

  private Entry lookup(Observation o) {
    Job job = jobs.computeIfAbsent(o.job(), Job::new);
    Key key = new Key(o.signal(), o.scope());
    Entry entry = job.entries.get(key);
    if (entry == null) {
      entry = new Entry(job, key, new SignalTracker(o.signal(), settings));
      if (job.lastStartMs != Long.MIN_VALUE) {
        // a series that first reports after the job started is part of that start-up too
        entry.tracker.jobStarted(job.lastStartMs, true);
      }
      job.entries.put(entry, entry);
      attachInputs(entry);
      entryCount++;
    }
    // equal to the entry's job and scope, as the lookup just found: hints compare references
    entry.jobRef = o.job();
    entry.scopeRef = o.scope();
    return entry;
  }

  /**
   * Re-diagnoses the jobs that received observations since the last call and tells listeners
   * when a job's diagnosis opens, changes cause or closes. Each job is diagnosed at its own
   * event time (its newest observation): one source running hours ahead of another must not
   * make a job's recent evidence look old.
   */
  void diagnose(long eventTimeMs) {
    for (Job job : touched) {
      job.touched = false;
      Diagnosis before = job.diagnosis;
      if (before == null && job.openCount() == 0) {
        continue;
      }
      long now = job.lastSeenMs != Long.MIN_VALUE ? job.lastSeenMs : eventTimeMs;
      long since = before == null ? now : before.sinceMs();
      Diagnosis after = diagnoser.diagnose(new View(job, now), since);
      if (after != null && before != null && !after.cause().equals(before.cause())) {
        after = diagnoser.diagnose(new View(job, now), now);
      }
      job.diagnosis = after;
      if (after != null) {
        for (Entry e : job.entries.values()) {
          if (e.open != null) {
            e.open = e.open.withCauses(after.ranked());
          }
          if (e.trend != null && e.trend.open != null) {
            e.trend.open = e.trend.open.withCauses(after.ranked());
          }
        }
      }
      boolean changed = before == null ? after != null
          : after == null || !after.cause().equals(before.cause());
      if (changed) {
        for (DetectorListener l : listeners) {
          l.diagnosisChanged(job.name, before, after, now);
        }
      }
    }
    touched.clear();
  }

  void readingHistory(boolean on) {
    readingHistory = on;
  }

  Diagnosis diagnosis(String jobName) {
    Job j = jobs.get(jobName);
    return j == null ? null : j.diagnosis;
  }

  /** The diagnoser's look at one job. */
  private final class View implements JobView {
    private final Job job;
    private final long eventTimeMs;

    View(Job job, long eventTimeMs) {
      this.job = job;
      this.eventTimeMs = eventTimeMs;
    }

    @Override
    public String job() {
      return job.name;
    }

    @Override
    public long eventTimeMs() {
      return eventTimeMs;
    }

    @Override
    public List<Anomaly> openAnomalies() {
      List<Anomaly> out = new ArrayList<>();
      for (Entry e : job.entries.values()) {
        if (e.open != null) {
          out.add(e.open);
        }
        if (e.trend != null && e.trend.open != null) {
          out.add(e.trend.open);
        }
      }
      return out;
    }

    @Override
    public HourlyHistory hourly(Signal signal) {
      Entry e = job.entries.get(new Key(signal, "job"));
      return e == null ? null : e.hourly;
    }

    @Override
    public GrowthReading growth(Signal signal) {
      Entry e = job.entries.get(new Key(signal, "job"));
      return e == null || e.trend == null ? null : e.trend.reading();
    }

    @Override
    public List<BaselineSummary> baselines() {
      return SignalBook.this.baselines(job.name);
    }

    /** One entry's summary, without summarizing and sorting all of the job's (per rule read). */
    @Override
    public BaselineSummary baseline(Signal signal, String scope) {
      Entry e = job.entries.get(new Key(signal, scope));
      return e == null ? null : summary(job, e, e);
    }

    @Override
    public List<SeriesHistory> history(Signal signal) {
      return job.histories(signal);
    }

    @Override
    public long unjoinedNodeSamples() {
      return unjoinedNode.getAsLong();
    }

    @Override
    public Diagnosis standing() {
      return job.diagnosis;
    }

    @Override
    public long unjoinedContainerSamples() {
      return unjoinedContainer.getAsLong();
    }
  }

  private void remember(Anomaly a) {
    resolved.addFirst(a);
    while (resolved.size() > RESOLVED_KEPT) {
      resolved.removeLast();
    }
  }

  int size() {
    return entryCount;
  }

  int openAnomalyCount() {
    return openCount;
  }

  int jobCount() {
    return jobs.size();
  }

  List<JobSummary> jobs() {
    List<JobSummary> out = new ArrayList<>();
    for (Job j : jobs.values()) {
      TreeSet<String> signals = new TreeSet<>();
      LearningProgress progress = new LearningProgress(settings.minObservations());
      for (Map.Entry<Key, Entry> e : j.entries.entrySet()) {
        signals.add(e.getKey().signal.id());
        progress.add(e.getKey().signal, e.getKey().scope, e.getValue().tracker.view(),
            e.getValue().history);
      }
      out.add(progress.summary(j.name, List.copyOf(signals), j.openCount(), j.lastSeenMs));
    }
    return out;
  }

  List<BaselineSummary> baselines(String jobName) {
    Job j = jobs.get(jobName);
    if (j == null) {
      return List.of();
    }
    List<BaselineSummary> out = new ArrayList<>();
    j.entries.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> out.add(summary(j, e.getKey(), e.getValue())));
    return out;
  }

  private static BaselineSummary summary(Job j, Key key, Entry entry) {
    BaselineView v = entry.tracker.view();
    return new BaselineSummary(j.name, key.signal, key.scope, v.state(), v.expected(), v.lower(),
        v.upper(), v.observations(), v.lastTimestampMs(), v.lastObserved(), entry.join,
        entry.historySinceMs);
  }

  List<Anomaly> anomalies() {
    List<Anomaly> out = new ArrayList<>(resolved);
    for (Job j : jobs.values()) {
      for (Entry e : j.entries.values()) {
        if (e.open != null) {
          out.add(e.open);
        }
        if (e.trend != null && e.trend.open != null) {
          out.add(e.trend.open);
        }
      }
    }
    return out;
  }

  DetectorState snapshot(long eventTimeMs) {
    List<DetectorState.TrackerState> trackers = new ArrayList<>();
    List<DetectorState.HistoryState> histories = new ArrayList<>();
    Map<String, Long> lastSeen = new HashMap<>();
    Map<String, Diagnosis> diagnoses = new HashMap<>();
    for (Job j : jobs.values()) {
      lastSeen.put(j.name, j.lastSeenMs);
      if (j.diagnosis != null) {
        diagnoses.put(j.name, j.diagnosis);
      }
      for (Map.Entry<Key, Entry> e : j.entries.entrySet()) {
        Entry entry = e.getValue();
        trackers.add(new DetectorState.TrackerState(j.name, e.getKey().signal, e.getKey().scope,
            entry.join, serialize(entry.tracker), entry.open));
        if (entry.history != null) {
          histories.add(HistorySnapshot.of(j.name, entry.history, entry.hourly, entry.trend));
        }
      }
    }
    return new DetectorState(eventTimeMs, anomalyIds.get(), trackers, List.copyOf(resolved),
        lastSeen, diagnoses, histories);
  }

  void restore(DetectorState state) {
    anomalyIds.accumulateAndGet(state.nextAnomalyId(), Math::max);
    for (DetectorState.TrackerState t : state.trackers()) {
      Job job = jobs.computeIfAbsent(t.job(), Job::new);
      Key key = new Key(t.signal(), t.scope());
      Entry entry = new Entry(job, key, deserialize(t));
      entry.join = t.join();
      entry.open = t.openAnomaly();
      Entry replaced = job.entries.get(entry);
      if (replaced == null) {
        job.entries.put(entry, entry);
        entryCount++;
      } else {
        job.replace(replaced, entry);
      }
      attachInputs(entry);
      job.historyIndex = null; // a replaced entry's history must not be handed out any more
      if (entry.open != null) {
        openCount++;
      }
    }
    for (DetectorState.HistoryState h : state.histories()) {
      Job job = jobs.get(h.job());
      Entry entry = job == null ? null : job.entries.get(new Key(h.signal(), h.scope()));
      if (entry == null) {
        continue; // a history without its baseline: nothing would read it
      }
      HistorySnapshot.restore(h, entry);
      job.historyIndex = null;
      if (entry.trend != null && entry.trend.open != null) {
        openCount++;
      }
    }
    state.lastSeenMs().forEach((name, ts) -> jobs.computeIfAbsent(name, Job::new).lastSeenMs = ts);
    state.diagnoses().forEach((name, d) -> jobs.computeIfAbsent(name, Job::new).diagnosis = d);
    for (int i = state.resolved().size() - 1; i >= 0; i--) {
      remember(state.resolved().get(i));
    }
  }

  private static byte[] serialize(SignalTracker tracker) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      tracker.writeTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private SignalTracker deserialize(DetectorState.TrackerState t) {
    try {
      return SignalTracker.readFrom(
          new DataInputStream(new ByteArrayInputStream(t.tracker())), t.signal(), settings);
    } catch (IOException e) {
      throw new IllegalStateException(
          "baseline of " + t.job() + "/" + t.signal().id() + "/" + t.scope() + ": "
              + e.getMessage(), e);
    }
  }

  /**
   * A series of a job: its signal and scope. A class rather than a record so that {@link Entry}
   * can be its own key in the job's map (one object a series fewer, 24 bytes); equal keys are
   * equal whichever of the two they are.
   */
  private static class Key implements Comparable<Key> {
    final Signal signal;
    final String scope;

    Key(Signal signal, String scope) {
      this.signal = signal;
      this.scope = scope;
    }

    @Override
    public final boolean equals(Object o) {
      return o instanceof Key k && signal == k.signal && scope.equals(k.scope);
    }

    @Override
    public String toString() {
      return "Key[signal=" + signal + ", scope=" + scope + "]";
    }

    /**
     * From the signal's ordinal, not the enum's identity hash (a record's default), which differs
     * from one JVM run to the next: a job's entries are iterated in hash order (which signal is
     * judged first, which of two equally strong anomalies a diagnosis quotes first), and that
     * order must follow from the data alone.
     */
    @Override
    public final int hashCode() {
      return signal.ordinal() * 31 + scope.hashCode();
    }

    @Override
    public final int compareTo(Key o) {
      int c = signal.compareTo(o.signal);
      return c != 0 ? c : scope.compareTo(o.scope);
    }
  }

  /** Opaque outside the book: see {@link #observe}. */
  static final class Entry extends Key {
    final Job job;
    final SignalTracker tracker;
    /** The job and scope strings of the observation last looked up to this entry. */
    String jobRef;
    String scopeRef;
    Anomaly open;
    /**
     * With {@code open}: the latest event time at which another subtask of the task that held
     * this anomaly came back; not snapshotted.
     */
    long heldEndMs = Long.MIN_VALUE;
    String join;
    /** Snapshotted with its points (see {@link DetectorState.HistoryState}). */
    RecentHistory history;
    /** Hourly summaries and the trend test, for the job-level checkpoint signals only. */
    HourlyHistory hourly;
    TrendWatch trend;
    /** First observation learned from history; not snapshotted (a restart shows live only). */
    long historySinceMs = Long.MIN_VALUE;
    /** Busy and records-in entries of a subtask: its task's records-in entries. */
    TaskInputs inputs;
    /** Busy entries: the subtask's records-in entry, once it exists. */
    Entry input;

    private Entry(Job job, Key key, SignalTracker tracker) {
      super(key.signal, key.scope);
      this.job = job;
      this.tracker = tracker;
    }
  }

  private static final class Job {
    final String name;
    final Map<Key, Entry> entries = new HashMap<>();
    long lastSeenMs = Long.MIN_VALUE;
    /** Event time of the job's last deployment (a new job_id), as RESTARTS reported it. */
    long lastStartMs = Long.MIN_VALUE;
    Diagnosis diagnosis;
    /** Records-in entries by task ("task:" and the task's name), for busy's load factor. */
    final Map<String, TaskInputs> tasks = new HashMap<>();
    /** In {@code touched}: a flag is cheaper than a hash lookup per observation. */
    boolean touched;
    /**
     * The histories per signal, by scope, as the diagnoser reads them; null once an entry gained
     * a history. A diagnosis asks for ~20 signals and scanning all entries for each was a large
     * part of it, while histories are added only when a series first appears.
     */
    Map<Signal, List<SeriesHistory>> historyIndex;

    Job(String name) {
      this.name = name;
    }

    /**
     * Puts {@code by} where {@code old}, an equal key, was. A map keeps the key it holds when a
     * value is put under an equal one, and here the key is the old entry itself: the entries are
     * put again in the order they are iterated in (the table keeps its size), which leaves that
     * order, in which the job's signals are judged, as it was.
     */
    void replace(Entry old, Entry by) {
      List<Entry> inOrder = new ArrayList<>(entries.values());
      entries.clear();
      for (Entry e : inOrder) {
        Entry kept = e == old ? by : e;
        entries.put(kept, kept);
      }
    }

    List<SeriesHistory> histories(Signal signal) {
      if (historyIndex == null) {
        Map<Signal, List<SeriesHistory>> index = new java.util.EnumMap<>(Signal.class);
        for (Map.Entry<Key, Entry> e : entries.entrySet()) {
          // a history holds at least one point from its first observation on, so none is empty
          RecentHistory h = e.getValue().history;
          if (h != null && h.size() > 0) {
            index.computeIfAbsent(e.getKey().signal, k -> new ArrayList<>()).add(h);
          }
        }
        for (Map.Entry<Signal, List<SeriesHistory>> e : index.entrySet()) {
          List<SeriesHistory> list = e.getValue();
          list.sort(java.util.Comparator.comparing(SeriesHistory::scope));
          e.setValue(java.util.Collections.unmodifiableList(list));
        }
        historyIndex = index;
      }
      return historyIndex.getOrDefault(signal, List.of());
    }

    /** The records-in histories the trend test reads, raw and hourly, in scope order. */
    InputHistories inputHistories() {
      List<SeriesHistory> recent = histories(Signal.RECORDS_IN);
      List<HourlyHistory> hourly = new ArrayList<>(recent.size());
      for (SeriesHistory h : recent) {
        Entry e = entries.get(new Key(Signal.RECORDS_IN, h.scope()));
        if (e != null && e.hourly != null) {
          hourly.add(e.hourly);
        }
      }
      return new InputHistories(recent, hourly);
    }

    int openCount() {
      int n = 0;
      for (Entry e : entries.values()) {
        if (e.open != null) {
          n++;
        }
        if (e.trend != null && e.trend.open != null) {
          n++;
        }
      }
      return n;
    }
  }
}
