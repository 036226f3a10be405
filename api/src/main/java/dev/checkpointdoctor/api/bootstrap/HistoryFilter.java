package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the edges hear while the detector reads history. Anomalies found in history are kept (the
 * API and UI show them, with their event times) but never alerted: a job's diagnosis reaches
 * Alertmanager only once an anomaly of that job opened on live samples, and from then until it
 * closes. InfluxDB gets nothing from history: it already lives in Prometheus, and a week of a
 * fleet would flood the writer's buffer.
 *
 * <p>Called on the detector thread (listeners are), where {@link Detector#readingHistory()} says
 * whether the event comes from history.
 */
public final class HistoryFilter {
  private HistoryFilter() {}

  /**
   * Passes to {@code alerts} only diagnoses of jobs with an anomaly opened on live samples.
   *
   * @param alreadyAnnounced jobs whose diagnosis was restored from a snapshot and re-announced
   */
  public static DetectorListener liveAlerts(DetectorListener alerts, Detector detector,
      Set<String> alreadyAnnounced) {
    return new LiveAlerts(alerts, detector, alreadyAnnounced);
  }

  /** Passes to {@code target} only what happens on live samples. */
  public static DetectorListener liveOnly(DetectorListener target, Detector detector) {
    return new DetectorListener() {
      @Override
      public void evaluated(Evaluation e) {
        if (!detector.readingHistory()) {
          target.evaluated(e);
        }
      }

      @Override
      public void anomalyOpened(Anomaly a) {
        if (!detector.readingHistory()) {
          target.anomalyOpened(a);
        }
      }

      @Override
      public void anomalyResolved(Anomaly a) {
        if (!detector.readingHistory()) {
          target.anomalyResolved(a);
        }
      }

      @Override
      public void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long t) {
        if (!detector.readingHistory()) {
          target.diagnosisChanged(job, before, after, t);
        }
      }
    };
  }

  private static final class LiveAlerts implements DetectorListener {
    private final DetectorListener alerts;
    private final Detector detector;
    /** Open anomalies that opened on live samples, by job. */
    private final Map<String, Set<Long>> liveOpen = new HashMap<>();
    /** Jobs whose diagnosis was passed on (alert firing) until it closes. */
    private final Set<String> announced = new HashSet<>();
    /** The diagnosis of a job kept back because its anomalies came from history. */
    private final Map<String, Diagnosis> heldBack = new HashMap<>();

    LiveAlerts(DetectorListener alerts, Detector detector, Set<String> alreadyAnnounced) {
      this.alerts = alerts;
      this.detector = detector;
      this.announced.addAll(alreadyAnnounced);
    }

    @Override
    public void anomalyOpened(Anomaly a) {
      if (detector.readingHistory()) {
        return;
      }
      liveOpen.computeIfAbsent(a.job(), j -> new HashSet<>()).add(a.id());
      Diagnosis waiting = heldBack.remove(a.job());
      if (waiting != null && announced.add(a.job())) {
        // the job's trouble began in history and continues now: announce it from here on
        alerts.diagnosisChanged(a.job(), null, waiting, a.startedAtMs());
      }
    }

    @Override
    public void anomalyResolved(Anomaly a) {
      Set<Long> open = liveOpen.get(a.job());
      if (open != null && open.remove(a.id()) && open.isEmpty()) {
        liveOpen.remove(a.job());
      }
    }

    @Override
    public void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long t) {
      if (after == null) {
        heldBack.remove(job);
        if (announced.remove(job)) {
          alerts.diagnosisChanged(job, before, null, t);
        }
        return;
      }
      if (announced.contains(job) || liveOpen.containsKey(job)) {
        announced.add(job);
        alerts.diagnosisChanged(job, before, after, t);
      } else {
        heldBack.put(job, after);
      }
    }
  }
}
