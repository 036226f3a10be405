package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.pipeline.Diagnoser;
import dev.checkpointdoctor.detector.pipeline.JobView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The diagnoser of last resort: names no cause, but lists the open anomalies as evidence so an
 * operator still sees what departed from normal.
 */
public final class UnknownCauseDiagnoser implements Diagnoser {
  public static final String UNKNOWN = "unknown";

  @Override
  public Diagnosis diagnose(JobView job, long sinceMs) {
    List<Anomaly> open = new ArrayList<>(job.openAnomalies());
    if (open.isEmpty()) {
      return null;
    }
    // equal scores in the order of the signal and scope, never in the order the book holds them
    open.sort(Comparator.comparingDouble((Anomaly a) -> Math.abs(a.score())).reversed()
        .thenComparing(a -> a.signal().id()).thenComparing(Anomaly::scope));
    List<CauseHypothesis.Evidence> evidence = new ArrayList<>();
    for (Anomaly a : open) {
      evidence.add(new CauseHypothesis.Evidence(a.signal().id(), a.scope(), a.observed(),
          a.expected(), sentence(a)));
    }
    CauseHypothesis unknown = new CauseHypothesis(UNKNOWN, 0.0, evidence,
        "No known cause matches the evidence; compare the anomalous signals above with the "
            + "job's checkpoint details in the Flink web UI.",
        "docs/causes/unknown.md");
    boolean failing = open.stream().anyMatch(a -> a.signal().id().equals("checkpoint_failures"));
    return new Diagnosis(job.job(), UNKNOWN, 0.0, sinceMs, open.get(0).signal().id(), failing,
        null, List.of(unknown));
  }

  static String sentence(Anomaly a) {
    return String.format(Locale.ROOT, "%s at %s is %s %s, expected %s (normal up to %s).",
        a.signal().id(), a.scope(), fmt(a.observed()), a.signal().unit(), fmt(a.expected()),
        fmt(a.upper()));
  }

  static String fmt(double v) {
    if (!Double.isFinite(v)) {
      return "?";
    }
    return Math.abs(v) >= 100 || v == Math.rint(v)
        ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3g", v);
  }
}
