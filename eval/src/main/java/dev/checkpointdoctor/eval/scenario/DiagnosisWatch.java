package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.cause.Cause;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.util.HashSet;
import java.util.Set;

/**
 * Looks at one job's diagnosis after every batch of a replay, for what the timeline's change
 * events do not show: a forecast that appears without a change of cause, whether an alert would
 * fire ({@link AlertPredicate}), and evidence quoting windows older than the job.
 */
final class DiagnosisWatch {
  private static final String STATE_GROWTH = Cause.STATE_GROWTH.id();

  private final Detector detector;
  private final String job;
  private final long jobStartMs;
  private Diagnosis last;
  private boolean alerting;
  private String alertCause;
  private final Set<String> seenSentences = new HashSet<>();
  int diagnosesOpened;
  int alertsStarted;
  int alertsStartedBefore;
  long faultStartMs = Long.MAX_VALUE;
  long stateGrowthAtMs = -1;
  long forecastAtMs = -1;
  int staleEvidence;
  String staleExample;

  DiagnosisWatch(Detector detector, ScenarioManifest.Entry truth) {
    this.detector = detector;
    this.job = truth.job();
    this.jobStartMs = truth.startMs();
    if (truth.faultStartMs() >= 0) {
      this.faultStartMs = truth.faultStartMs();
    }
  }

  void afterBatch(long atMs) {
    see(detector == null ? null : detector.diagnosis(job).orElse(null), atMs);
  }

  /** The job's diagnosis (or none) as of the batch at {@code atMs}. */
  void see(Diagnosis d, long atMs) {
    if (d == last) {
      return;
    }
    if (last == null && d != null) {
      diagnosesOpened++;
    }
    last = d;
    boolean alerts = AlertPredicate.alerts(d);
    if (alerts && (!alerting || !d.cause().equals(alertCause))) {
      alertsStarted++;
      if (atMs < faultStartMs) {
        alertsStartedBefore++;
      }
    }
    alerting = alerts;
    alertCause = alerts ? d.cause() : null;
    if (d == null) {
      return;
    }
    if (d.cause().equals(STATE_GROWTH) && atMs >= faultStartMs) {
      if (stateGrowthAtMs < 0) {
        stateGrowthAtMs = atMs;
      }
      if (forecastAtMs < 0 && d.hoursToTimeout() != null) {
        forecastAtMs = atMs;
      }
    }
    long age = atMs - jobStartMs;
    for (CauseHypothesis.Evidence e : d.top().evidence()) {
      if (seenSentences.size() < 10_000 && seenSentences.add(e.sentence())
          && EvidenceWindows.longestMs(e.sentence()) > age) {
        staleEvidence++;
        if (staleExample == null) {
          staleExample = e.sentence();
        }
      }
    }
  }
}
