package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.facts.JobFacts;
import dev.checkpointdoctor.detector.facts.JobFactsSource;
import dev.checkpointdoctor.detector.facts.MountTable;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.MissingSource;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import dev.checkpointdoctor.detector.pipeline.JobView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Ranks the causes of a job's open anomalies: every rule scores its cause from the job's own
 * evidence; below {@link #MIN_CONFIDENCE} the answer is {@code unknown} rather than a guess. A
 * consequence never outranks a present cause that explains it ({@link CausalModel}).
 */
public final class CauseRanker implements Diagnoser {
  /**
   * Below this the top cause is not named. A rule reaches it only with its main sign plus at
   * least one corroborating one (e.g. a flat disk ceiling and the disk ~100 % busy).
   */
  public static final double MIN_CONFIDENCE = 0.35;
  /** Preferred alert signals per cause, strongest first; the first open one is named. */
  private static final List<Signal> CHECKPOINT_SIGNALS = List.of(Signal.CHECKPOINT_FAILURES,
      Signal.CHECKPOINT_DURATION, Signal.CHECKPOINT_AGE, Signal.CHECKPOINT_SIZE,
      Signal.CHECKPOINT_FULL_SIZE, Signal.CHECKPOINT_PERSISTED_DATA,
      Signal.CHECKPOINT_START_DELAY, Signal.CHECKPOINT_ALIGNMENT, Signal.CHECKPOINT_BUSY_SHARE);

  private final DetectorSettings settings;
  private final List<CauseRule> rules = List.of(new DiskThrottlingRule(), new LocalDiskSlowRule(),
      new StateGrowthRule(),
      new BackpressureRule(), new UnalignedInflationRule(), new RocksDbWriteStallRule(),
      new GcPressureRule(), new CheckpointStorageSlowRule(), new DataSkewRule(),
      new CpuThrottlingRule(), new CheckpointIntervalTooShortRule());
  private final UnknownCauseDiagnoser unknown = new UnknownCauseDiagnoser();
  /**
   * Per job with something to explain, what its last diagnosis kept of its histories for the
   * next one (see {@link SliceCache}); dropped when the job has nothing left to explain.
   */
  private final Map<String, SliceCache> slices = new HashMap<>();

  private final JobFactsSource facts;
  private final MountTable mounts;

  public CauseRanker(DetectorSettings settings) {
    this(settings, JobFactsSource.NONE, new MountTable());
  }

  /**
   * @param facts what Flink's REST API told about each job (read at diagnosis time)
   * @param mounts node_exporter's file systems (where RocksDB's local dir lives)
   */
  public CauseRanker(DetectorSettings settings, JobFactsSource facts, MountTable mounts) {
    this.settings = settings;
    this.facts = facts;
    this.mounts = mounts;
  }

  /**
   * Synchronized because of the kept slices; the detector calls it under its own lock anyway, so
   * the lock is uncontended.
   */
  @Override
  public synchronized Diagnosis diagnose(JobView view, long sinceMs) {
    List<Anomaly> open = view.openAnomalies();
    if (open.isEmpty()) {
      slices.remove(view.job());
      return null;
    }
    SliceCache kept = slices.computeIfAbsent(view.job(), k -> new SliceCache());
    kept.beginDiagnosis();
    JobFacts known = facts.facts(view.job());
    JobEvidence job = new JobEvidence(view, RestEvidence.settingsFor(settings, known), kept);
    RestEvidence.attach(job, known);
    List<Finding> findings = new ArrayList<>();
    for (CauseRule rule : rules) {
      Finding f = rule.assess(job);
      if (f.confidence() > 0 || f.pendingWhy() != null) {
        findings.add(f);
      }
    }
    dateOnsets(job, findings);
    kept.endDiagnosis();
    RestEvidence rest = RestEvidence.weigh(job, known, mounts, findings);
    CausalModel.FLINK.apply(findings, MIN_CONFIDENCE, standing(view));
    findings.removeIf(f -> f.confidence() == 0); // pending with nothing found yet
    findings.sort(Comparator.comparingDouble(Finding::confidence).reversed());
    List<MissingSource> missing = SourceCheck.check(job);
    if (findings.isEmpty() || findings.get(0).confidence() < MIN_CONFIDENCE) {
      // built only when used: its sentences are formatted per open anomaly
      Diagnosis fallback = unknown.diagnose(view, sinceMs);
      List<CauseHypothesis> ranked = new ArrayList<>(fallback.ranked());
      if (rest != null) {
        ranked.set(0, rest.explain(ranked.get(0)));
      }
      findings.forEach(f -> ranked.add(f.hypothesis()));
      return new Diagnosis(view.job(), Cause.UNKNOWN.id(), 0.0, sinceMs, fallback.signal(),
          failing(job), null, ranked, missing);
    }
    Finding top = findings.get(0);
    if (rest != null) {
      rest.explain(top);
    }
    List<CauseHypothesis> ranked = new ArrayList<>();
    findings.forEach(f -> ranked.add(f.hypothesis()));
    return new Diagnosis(view.job(), top.cause().id(), top.confidence(), sinceMs,
        signal(open, top), failing(job), top.hoursToTimeout(), ranked, missing);
  }

  /**
   * When each finding's own sign left its normal, for the causal ordering: the rule's own
   * onset when it set one, else the departure of its main evidence's series (from the raw
   * history against the baseline), else the start of an open anomaly on that series.
   */
  private static void dateOnsets(JobEvidence job, List<Finding> findings) {
    for (Finding f : findings) {
      if (f.onsetMs() >= 0) {
        continue;
      }
      long first = -1;
      double resolution = 0;
      String what = null;
      for (CauseHypothesis.Evidence e : f.own()) {
        Signal s = Signal.byId(e.signal()).orElse(null);
        if (s == null) {
          continue;
        }
        boolean up = !CauseHypothesis.Evidence.LOWER.equals(e.relation());
        for (SeriesHistory h : job.histories(s)) {
          if (!h.scope().equals(e.scope())) {
            continue;
          }
          long at = job.onset(h, up);
          if (at < 0) {
            for (Anomaly a : job.openAnomalies()) {
              if (a.signal() == s && a.scope().equals(e.scope())) {
                at = a.startedAtMs();
              }
            }
          }
          if (at >= 0 && (first < 0 || at < first)) {
            first = at;
            resolution = JobEvidence.spacing(h);
            what = s.id();
          }
        }
      }
      if (first >= 0) {
        f.onset(first, resolution, what);
      }
    }
  }

  /** The cause the job's diagnosis names now, or null (none, or unknown). */
  private static Cause standing(JobView view) {
    Diagnosis d = view.standing();
    if (d == null) {
      return null;
    }
    for (Cause c : Cause.values()) {
      if (c != Cause.UNKNOWN && c.id().equals(d.cause())) {
        return c;
      }
    }
    return null;
  }

  private static boolean failing(JobEvidence job) {
    return job.failuresNow() > 0 || job.isOpen(Signal.CHECKPOINT_FAILURES);
  }

  /** The open anomaly that best shows the trouble: the cause's own evidence, else checkpoints. */
  private static String signal(List<Anomaly> open, Finding top) {
    for (CauseHypothesis.Evidence e : top.evidence()) {
      for (Anomaly a : open) {
        if (a.signal().id().equals(e.signal())) {
          return e.signal();
        }
      }
    }
    for (Signal s : CHECKPOINT_SIGNALS) {
      for (Anomaly a : open) {
        if (a.signal() == s) {
          return s.id();
        }
      }
    }
    return open.stream().max(Comparator.comparingDouble(a -> Math.abs(a.score()))).orElseThrow()
        .signal().id();
  }
}
