package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.facts.JobFacts;
import dev.checkpointdoctor.detector.facts.JobFactsSource;
import dev.checkpointdoctor.detector.facts.MountTable;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import dev.checkpointdoctor.detector.pipeline.JobView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ranks the causes of a job's open anomalies: every rule scores its cause from the job's own
 * evidence; below {@link #MIN_CONFIDENCE} the answer is {@code unknown} rather than a guess.
 */
public final class CauseRanker implements Diagnoser {
  /**
   * Below this the top cause is not named. A rule reaches it only with its main sign plus at
   * least one corroborating one (e.g. a flat disk ceiling and the disk ~100 % busy).
   */
  public static final double MIN_CONFIDENCE = 0.35;
  /** Causes that produce back-pressure themselves; when one is clear, back-pressure is its echo. */
  private static final Set<Cause> RESOURCE_CAUSES = EnumSet.of(Cause.DISK_THROTTLING,
      Cause.ROCKSDB_WRITE_STALL, Cause.GC_PRESSURE, Cause.CPU_THROTTLING);
  /** Preferred alert signals per cause, strongest first; the first open one is named. */
  private static final List<Signal> CHECKPOINT_SIGNALS = List.of(Signal.CHECKPOINT_FAILURES,
      Signal.CHECKPOINT_DURATION, Signal.CHECKPOINT_AGE, Signal.CHECKPOINT_SIZE,
      Signal.CHECKPOINT_FULL_SIZE, Signal.CHECKPOINT_PERSISTED_DATA,
      Signal.CHECKPOINT_START_DELAY, Signal.CHECKPOINT_ALIGNMENT);

  private final DetectorSettings settings;
  private final List<CauseRule> rules = List.of(new DiskThrottlingRule(), new StateGrowthRule(),
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
      if (f.confidence() > 0) {
        findings.add(f);
      }
    }
    kept.endDiagnosis();
    RestEvidence rest = RestEvidence.weigh(job, known, mounts, findings);
    discountEchoes(findings);
    findings.sort(Comparator.comparingDouble(Finding::confidence).reversed());
    if (findings.isEmpty() || findings.get(0).confidence() < MIN_CONFIDENCE) {
      // built only when used: its sentences are formatted per open anomaly
      Diagnosis fallback = unknown.diagnose(view, sinceMs);
      List<CauseHypothesis> ranked = new ArrayList<>(fallback.ranked());
      if (rest != null) {
        ranked.set(0, rest.explain(ranked.get(0)));
      }
      findings.forEach(f -> ranked.add(f.hypothesis()));
      return new Diagnosis(view.job(), Cause.UNKNOWN.id(), 0.0, sinceMs, fallback.signal(),
          failing(job), null, ranked);
    }
    Finding top = findings.get(0);
    if (rest != null) {
      rest.explain(top);
    }
    List<CauseHypothesis> ranked = new ArrayList<>();
    findings.forEach(f -> ranked.add(f.hypothesis()));
    return new Diagnosis(view.job(), top.cause().id(), top.confidence(), sinceMs,
        signal(open, top), failing(job), top.hoursToTimeout(), ranked);
  }

  /**
   * Some causes are often the consequence of another: back-pressure of a starved resource, and
   * back-to-back checkpoints of whatever made them slow. When the other is clear, the
   * consequence ranks below it.
   */
  private static void discountEchoes(List<Finding> findings) {
    Finding strongestOther = null;
    for (Finding f : findings) {
      if (f.cause() != Cause.CHECKPOINT_INTERVAL_TOO_SHORT && f.confidence() >= 0.5
          && (strongestOther == null || f.confidence() > strongestOther.confidence())) {
        strongestOther = f;
      }
    }
    if (strongestOther != null) {
      for (Finding f : findings) {
        if (f.cause() == Cause.CHECKPOINT_INTERVAL_TOO_SHORT) {
          f.against(0.6, Signal.CHECKPOINT_DURATION, "job", strongestOther.confidence(), 0,
              "Checkpoints run back to back because they got slower: "
                  + strongestOther.cause().id() + " scores "
                  + Fmt.pct(strongestOther.confidence()) + ".");
        }
      }
    }
    Finding resource = null;
    for (Finding f : findings) {
      if (RESOURCE_CAUSES.contains(f.cause()) && f.confidence() >= 0.5
          && (resource == null || f.confidence() > resource.confidence())) {
        resource = f;
      }
    }
    if (resource == null) {
      return;
    }
    for (Finding f : findings) {
      if (f.cause() == Cause.BACKPRESSURE) {
        f.against(0.7, Signal.BACKPRESSURE, "job", resource.confidence(), 0,
            "Likely a consequence of " + resource.cause().id() + ", which scores "
                + Fmt.pct(resource.confidence()) + ".");
      }
    }
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
