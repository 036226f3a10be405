package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.facts.CheckpointConfig;
import dev.checkpointdoctor.detector.facts.CheckpointDetail;
import dev.checkpointdoctor.detector.facts.CheckpointTimeout;
import dev.checkpointdoctor.detector.facts.JobFacts;
import dev.checkpointdoctor.detector.facts.Mount;
import dev.checkpointdoctor.detector.facts.MountTable;
import dev.checkpointdoctor.detector.facts.SubtaskTiming;
import dev.checkpointdoctor.detector.facts.SubtaskTiming.Phase;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What Flink's REST API adds to a diagnosis ({@link JobFacts}): the phase in which the slowest
 * subtask spent the last remarkable checkpoint, the subtasks that never acknowledged it, its
 * failure message, where checkpoints are stored and whether RocksDB's local dir is on a network
 * mount. It corroborates the causes the metrics already point at (a little weight where the
 * phase says the same), never invents one; without facts it changes nothing.
 */
final class RestEvidence {
  /** Evidence scopes from REST facts start with this, so readers can tell them apart. */
  static final String SCOPE = "flink-rest";
  private static final String MEMO = "flink_rest_facts";
  /** A barrier this late, or this share of the checkpoint, means it queued behind data. */
  private static final double LATE_BARRIER_MS = 5_000;
  private static final double LATE_BARRIER_SHARE = 0.5;
  /** Back-pressure (ms/s) at which a never-acknowledging subtask's barrier is held up. */
  private static final double PRESSED_MS_PER_S = 500;

  private final JobEvidence job;
  private final JobFacts facts;
  private final MountTable mounts;
  private final List<Finding> extra = new ArrayList<>();
  private String failureSentence;

  private RestEvidence(JobEvidence job, JobFacts facts, MountTable mounts) {
    this.job = job;
    this.facts = facts;
    this.mounts = mounts;
  }

  /** The settings a job is judged with: its own checkpoint timeout when Flink reported one. */
  static DetectorSettings settingsFor(DetectorSettings settings, JobFacts facts) {
    CheckpointTimeout t = CheckpointTimeout.of(facts, settings.checkpointTimeout());
    return t.source().equals(CheckpointTimeout.FLINK_REST)
        ? settings.withCheckpointTimeout(Duration.ofMillis(t.ms())) : settings;
  }

  /** Makes the facts readable by the rules of this diagnosis (see {@link #intervalMs}). */
  static void attach(JobEvidence job, JobFacts facts) {
    if (facts != null) {
      job.memo(MEMO, () -> facts);
    }
  }

  /** Whether Flink reported the job's checkpoints unaligned: null when it did not say. */
  static Boolean unalignedCheckpoints(JobEvidence job) {
    JobFacts f = job.memo(MEMO, () -> null);
    return f == null || f.config() == null ? null : f.config().unaligned();
  }

  /** The configured checkpoint interval when Flink reported one, else what the cadence inferred. */
  static double intervalMs(JobEvidence job, double inferred) {
    JobFacts f = job.memo(MEMO, () -> null);
    long configured = f == null ? -1 : f.config().intervalMs();
    // Flink reports Long.MAX_VALUE for a job without periodic checkpoints
    return configured > 0 && configured < 365L * 86_400_000L ? configured : inferred;
  }

  /**
   * Adds the facts' evidence to the findings of the rules, before they are ranked; returns what
   * to add to the top finding once it is known ({@link #explain}), or null without facts.
   */
  static RestEvidence weigh(JobEvidence job, JobFacts facts, MountTable mounts,
      List<Finding> findings) {
    if (facts == null) {
      return null;
    }
    RestEvidence r = new RestEvidence(job, facts, mounts == null ? new MountTable() : mounts);
    r.checkpoint(findings);
    r.storage(findings);
    r.interval(findings);
    r.localDir(findings);
    return r;
  }

  /**
   * Gives the top finding the checkpoint's facts (slowest phase, unacknowledged subtasks,
   * failure message, network local dir) that it did not get as corroboration, as plain evidence.
   */
  void explain(Finding top) {
    for (Finding f : extra) {
      for (var e : f.evidence()) {
        if (top.evidence().stream().noneMatch(t -> t.sentence().startsWith(e.sentence()))) {
          top.evidence().add(e);
        }
      }
    }
  }

  /** The same for an {@code unknown} answer: the facts are evidence even when no cause fits. */
  CauseHypothesis explain(CauseHypothesis unknown) {
    Finding f = new Finding(Cause.UNKNOWN);
    explain(f);
    if (f.evidence().isEmpty()) {
      return unknown;
    }
    List<CauseHypothesis.Evidence> all = new ArrayList<>(unknown.evidence());
    all.addAll(f.evidence());
    return new CauseHypothesis(unknown.cause(), unknown.confidence(), all, unknown.remedy(),
        unknown.docsUrl());
  }

  // ------------------------------------------------------------------------- the checkpoint

  private void checkpoint(List<Finding> findings) {
    CheckpointDetail c = facts.checkpoint();
    long timeout = job.settings().checkpointTimeout().toMillis();
    if (c == null || !(c.inProgress() || c.triggerMs() + Math.max(0, c.endToEndMs())
        >= job.onset() - timeout - 60_000)) {
      return; // nothing remarkable, or a checkpoint from before this trouble
    }
    Finding said = new Finding(Cause.UNKNOWN);
    extra.add(said);
    String which = describe(c);
    if (c.failureMessage() != null && !c.failureMessage().isBlank()) {
      String message = c.failureMessage().strip();
      failureSentence = "Flink says checkpoint " + c.id() + " failed: \""
          + (message.length() > 300 ? message.substring(0, 300) + "…" : message) + "\"";
      said.support(0, Signal.CHECKPOINT_FAILURES, SCOPE, c.endToEndMs(), timeout,
          failureSentence + (message.endsWith(".") ? "" : "."));
    }
    List<SubtaskTiming> pending = new ArrayList<>();
    SubtaskTiming slowest = null;
    for (SubtaskTiming s : c.subtasks()) {
      if (!s.acknowledged()) {
        pending.add(s);
      } else if (slowest == null || s.endToEndMs() > slowest.endToEndMs()) {
        slowest = s;
      }
    }
    Phase phase = null;
    String phaseSentence = null;
    String phaseScope = SCOPE;
    double phaseMs = Double.NaN;
    if (!pending.isEmpty()) {
      said.support(0, Signal.CHECKPOINT_FAILURES, SCOPE, pending.size(), c.numSubtasks(),
          String.format(Locale.ROOT, "%d of %d subtasks never acknowledged %s: %s.",
              pending.size(), c.numSubtasks(), which, grouped(pending)));
      Inferred in = infer(pending, c);
      if (in != null) {
        phase = in.phase;
        phaseMs = c.endToEndMs();
        phaseScope = scopeOf(in.subtask);
        phaseSentence = in.sentence;
      }
    }
    if (phase == null && slowest != null && slowest.longestPhase() != null
        && slowest.phaseMs(slowest.longestPhase()) >= Math.max(1_000, 0.25 * c.endToEndMs())) {
      // the phase that held the checkpoint up; milliseconds beside a stuck subtask say nothing
      phase = slowest.longestPhase();
      phaseMs = slowest.phaseMs(phase);
      phaseScope = scopeOf(slowest);
      phaseSentence = String.format(Locale.ROOT, "In %s the %s of %s took %s of the %s timeout "
              + "(barrier after %s, alignment %s, sync %s, async %s).", which, phase.words(),
          name(slowest), dur(phaseMs), dur(timeout), dur(slowest.startDelayMs()),
          dur(slowest.alignmentMs()), dur(slowest.syncMs()), dur(slowest.asyncMs()));
      if (phaseMs < 0.2 * timeout && !c.failed() && !c.inProgress()) {
        phase = null; // a slow checkpoint far from the timeout: context, not a sign
      }
    }
    if (phaseSentence == null) {
      return;
    }
    said.support(0, Signal.CHECKPOINT_DURATION, phaseScope, phaseMs, timeout, phaseSentence);
    if (phase == null) {
      return;
    }
    switch (phase) {
      case ASYNC -> {
        corroborate(findings, Cause.CHECKPOINT_STORAGE_SLOW, 0.15, phaseScope, phaseMs, timeout,
            phaseSentence.contains("checkpoint storage") ? phaseSentence
                : phaseSentence + " The async phase writes the state to checkpoint storage.");
        corroborate(findings, Cause.STATE_GROWTH, 0.05, phaseScope, phaseMs, timeout,
            phaseSentence);
      }
      case SYNC -> {
        corroborate(findings, Cause.ROCKSDB_WRITE_STALL, 0.1, phaseScope, phaseMs, timeout,
            phaseSentence + " The sync phase flushes RocksDB's memtables to its local dir.");
        corroborate(findings, Cause.DISK_THROTTLING, 0.1, phaseScope, phaseMs, timeout,
            phaseSentence + " The sync phase flushes RocksDB's memtables to its local dir.");
        corroborate(findings, Cause.LOCAL_DISK_SLOW, 0.1, phaseScope, phaseMs, timeout,
            phaseSentence + " The sync phase flushes RocksDB's memtables to its local dir.");
      }
      case START_DELAY, ALIGNMENT -> {
        corroborate(findings, Cause.BACKPRESSURE, 0.1, phaseScope, phaseMs, timeout,
            phaseSentence + " The barrier queued behind records.");
        corroborate(findings, Cause.DATA_SKEW, 0.1, phaseScope, phaseMs, timeout,
            phaseSentence + " The barrier queued behind records.");
        for (Finding f : findings) {
          if (f.cause() == Cause.CHECKPOINT_STORAGE_SLOW && f.confidence() > 0) {
            f.against(0.7, Signal.CHECKPOINT_DURATION, phaseScope, phaseMs, timeout,
                "But Flink's checkpoint details show the time before the upload: "
                    + phaseSentence);
          }
        }
      }
      default -> { }
    }
  }

  /** "checkpoint 41 (expired after 30 s at 12:01 UTC)". */
  private static String describe(CheckpointDetail c) {
    if (c.failed()) {
      return "checkpoint " + c.id() + " (failed after " + dur(c.endToEndMs())
          + (c.failureMs() > 0 ? " at " + JobEvidence.clock(c.failureMs()) : "") + ")";
    }
    if (c.inProgress()) {
      return "checkpoint " + c.id() + " (in progress for " + dur(c.endToEndMs()) + ")";
    }
    return "checkpoint " + c.id() + " (completed in " + dur(c.endToEndMs()) + ")";
  }

  private record Inferred(Phase phase, SubtaskTiming subtask, String sentence) {}

  /**
   * Flink details no phase of a subtask that never acknowledged; the metrics tell which it was
   * in. A barrier that arrived promptly at a subtask that kept processing records means the sync
   * part (which holds the task thread) was over: the subtask was in its async phase. A barrier
   * that arrived late, or a back-pressured subtask, means it was still on its way.
   */
  private Inferred infer(List<SubtaskTiming> pending, CheckpointDetail c) {
    Inferred late = null;
    Inferred async = null;
    for (SubtaskTiming s : pending) {
      String scope = "task:" + sanitize(s.vertexName()) + "/" + s.index();
      double delay = latest(Signal.CHECKPOINT_START_DELAY, scope);
      double pressed = latest(Signal.BACKPRESSURE, scope);
      double records = latest(Signal.RECORDS_IN, scope);
      if (pressed >= PRESSED_MS_PER_S || delay >= LATE_BARRIER_MS
          && delay >= LATE_BARRIER_SHARE * c.endToEndMs()) {
        if (late == null) {
          late = new Inferred(Phase.START_DELAY, s, String.format(Locale.ROOT,
              "The barrier of %s never got through in time: %s (back-pressured %s ms/s, last "
                  + "barrier after %s).", name(s), describe(c), Fmt.num(pressed), dur(delay)));
        }
      } else if (delay >= 0 && records > 0 && async == null) {
        async = new Inferred(Phase.ASYNC, s, String.format(Locale.ROOT,
            "The async phase of %s took %s of the %s timeout in %s without finishing: its "
                + "barrier arrived after %s and it kept processing records (%s/s), so the sync "
                + "phase was over and the time went into writing its state to checkpoint "
                + "storage.", name(s), dur(c.endToEndMs()),
            dur(job.settings().checkpointTimeout().toMillis()), describe(c), dur(delay),
            Fmt.num(records)));
      }
    }
    return late != null ? late : async;
  }

  /** The latest value of a signal at exactly this scope, or NaN. */
  private double latest(Signal s, String scope) {
    for (SeriesHistory h : job.histories(s)) {
      if (h.scope().equals(scope)) {
        for (int i = h.size() - 1; i >= 0; i--) {
          if (Double.isFinite(h.value(i))) {
            return h.value(i);
          }
        }
      }
    }
    return Double.NaN;
  }

  // ------------------------------------------------------------------------- configuration

  private void storage(List<Finding> findings) {
    CheckpointConfig c = facts.config();
    if (c.storageScheme() == null) {
      return;
    }
    String where = c.checkpointDir() == null ? c.storageScheme() : c.checkpointDir();
    String hint = switch (c.storageScheme()) {
      case "s3", "s3a", "s3n", "s3p" -> "S3's request rate limits (503 Slow Down), request "
          + "latency and the network to it decide the upload time";
      case "hdfs", "viewfs" -> "NameNode RPC latency and the DataNodes' write pipelines decide "
          + "the upload time";
      case "gs" -> "GCS request rates and the network to it decide the upload time";
      case "abfs", "abfss", "wasb", "wasbs" -> "Azure storage throttling and the network to it "
          + "decide the upload time";
      case "oss" -> "OSS request rates and the network to it decide the upload time";
      case "file" -> "a path that every TaskManager reaches: when that is a shared mount (NFS), "
          + "its server decides the upload time";
      default -> "that store decides the upload time";
    };
    for (Finding f : findings) {
      if (f.cause() == Cause.CHECKPOINT_STORAGE_SLOW && f.confidence() > 0) {
        f.support(0, Signal.CHECKPOINT_DURATION, SCOPE, Double.NaN, Double.NaN,
            "Checkpoints are stored on " + c.storageScheme() + " (" + where + "): " + hint + ".");
      }
    }
  }

  private void interval(List<Finding> findings) {
    CheckpointConfig c = facts.config();
    if (c.intervalMs() <= 0) {
      return;
    }
    for (Finding f : findings) {
      if (f.cause() == Cause.CHECKPOINT_INTERVAL_TOO_SHORT && f.confidence() > 0) {
        f.support(0, Signal.CHECKPOINT_DURATION, SCOPE, c.intervalMs(), c.minPauseMs(),
            String.format(Locale.ROOT, "Flink's checkpoint configuration: interval %s, min pause "
                    + "%s, at most %s concurrent, timeout %s%s.", dur(c.intervalMs()),
                dur(Math.max(0, c.minPauseMs())), c.maxConcurrent() > 0 ? c.maxConcurrent() : "?",
                dur(c.timeoutMs()), c.minPauseMs() <= 0 ? ": nothing keeps checkpoints apart"
                    : ""));
      }
    }
  }

  private void localDir(List<Finding> findings) {
    List<String> dirs = facts.config().rocksDbLocalDirs();
    if (dirs.isEmpty() || mounts.isEmpty()) {
      return;
    }
    Set<String> nodes = jobNodes();
    if (nodes.isEmpty()) {
      nodes.addAll(mounts.nodes()); // no node joined to the job: the same path on every node
    }
    Map<String, List<String>> found = new LinkedHashMap<>();
    Mount example = null;
    String exampleDir = null;
    for (String dir : dirs) {
      for (String node : nodes) {
        Mount m = mounts.mountOf(node, dir);
        if (m != null && m.network()) {
          found.computeIfAbsent(dir, k -> new ArrayList<>()).add(node);
          if (example == null) {
            example = m;
            exampleDir = dir;
          }
        }
      }
    }
    if (example == null) {
      return;
    }
    String sentence = String.format(Locale.ROOT, "RocksDB's local dir %s "
            + "(state.backend.rocksdb.localdir) is on a %s network mount (%s at %s on %s): every "
            + "flush, compaction and checkpoint upload of the state goes over the network. Move it "
            + "to a local SSD or ephemeral storage (e.g. an emptyDir or a local NVMe volume).",
        exampleDir, example.fstype(), example.device().isEmpty() ? "?" : example.device(),
        example.mountpoint(), String.join(", ", found.get(exampleDir)));
    String scope = SCOPE + ":localdir";
    corroborate(findings, Cause.ROCKSDB_WRITE_STALL, 0.15, scope, Double.NaN, Double.NaN,
        sentence);
    corroborate(findings, Cause.DISK_THROTTLING, 0.1, scope, Double.NaN, Double.NaN, sentence);
    corroborate(findings, Cause.LOCAL_DISK_SLOW, 0.2, scope, Double.NaN, Double.NaN, sentence);
    corroborate(findings, Cause.CHECKPOINT_STORAGE_SLOW, 0.1, scope, Double.NaN, Double.NaN,
        sentence);
    Finding said = new Finding(Cause.UNKNOWN);
    said.support(0, Signal.DISK_LATENCY, scope, Double.NaN, Double.NaN, sentence);
    extra.add(said);
  }

  /** The nodes whose disks are joined to the job ({@code node:<node>/<device>} scopes). */
  private Set<String> jobNodes() {
    Set<String> nodes = new LinkedHashSet<>();
    for (Signal s : new Signal[] {Signal.DISK_UTILIZATION, Signal.DISK_WRITE_IOPS,
        Signal.DISK_WRITE_BYTES, Signal.DISK_LATENCY, Signal.DISK_READ_IOPS}) {
      for (SeriesHistory h : job.histories(s)) {
        String scope = h.scope();
        int slash = scope.lastIndexOf('/');
        if (scope.startsWith("node:") && slash > 5) {
          nodes.add(scope.substring(5, slash));
        }
      }
    }
    return nodes;
  }

  // ------------------------------------------------------------------------- helpers

  /** Adds weight to a cause the metrics already point at (never to one they do not). */
  private static void corroborate(List<Finding> findings, Cause cause, double weight,
      String scope, double observed, double expected, String sentence) {
    for (Finding f : findings) {
      if (f.cause() == cause && f.confidence() > 0) {
        f.support(weight, Signal.CHECKPOINT_DURATION, scope, observed, expected, sentence);
      }
    }
  }

  private static String scopeOf(SubtaskTiming s) {
    return SCOPE + ":" + s.vertexName() + "/" + s.index();
  }

  private static String name(SubtaskTiming s) {
    return s.vertexName() + " subtask " + s.index();
  }

  /** "count -> map 0, 1; Sink: out 3". */
  private static String grouped(List<SubtaskTiming> subtasks) {
    Map<String, List<String>> byVertex = new LinkedHashMap<>();
    for (SubtaskTiming s : subtasks) {
      byVertex.computeIfAbsent(s.vertexName(), k -> new ArrayList<>())
          .add(String.valueOf(s.index()));
    }
    List<String> parts = new ArrayList<>();
    byVertex.forEach((v, idx) -> parts.add(v + " " + (idx.size() > 8
        ? String.join(", ", idx.subList(0, 8)) + " and " + (idx.size() - 8) + " more"
        : String.join(", ", idx))));
    return String.join("; ", parts);
  }

  /** Flink's label value filter: every character outside [a-zA-Z0-9:_] becomes '_'. */
  static String sanitize(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
          || (ch >= '0' && ch <= '9') || ch == ':' || ch == '_';
      b.append(ok ? ch : '_');
    }
    return b.toString();
  }

  /** "3 ms", "2.5 s", "58 min", "1.5 h": short, as in a sentence. */
  static String dur(double ms) {
    if (!(ms >= 0)) {
      return "?";
    }
    if (ms < 1000) {
      return String.format(Locale.ROOT, "%.0f ms", ms);
    }
    if (ms < 100_000) {
      double s = ms / 1000;
      return s == Math.rint(s) || s >= 10 ? String.format(Locale.ROOT, "%.0f s", s)
          : String.format(Locale.ROOT, "%.1f s", s);
    }
    if (ms < 600_000) {
      return String.format(Locale.ROOT, "%.1f min", ms / 60_000).replace(".0 ", " ");
    }
    if (ms < 180 * 60_000) {
      return String.format(Locale.ROOT, "%.0f min", ms / 60_000);
    }
    return String.format(Locale.ROOT, "%.1f h", ms / 3_600_000);
  }
}
