package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;
import java.util.Map;

/**
 * What survives a restart: every baseline with its anomaly state, the recently resolved anomalies
 * and when each job was last seen. Per-series extraction state is not kept: it is rebuilt from the
 * next scrape.
 */
public record DetectorState(
    long eventTimeMs,
    long nextAnomalyId,
    List<TrackerState> trackers,
    List<Anomaly> resolved,
    Map<String, Long> lastSeenMs,
    Map<String, Diagnosis> diagnoses) {

  public DetectorState {
    trackers = List.copyOf(trackers);
    resolved = List.copyOf(resolved);
    lastSeenMs = Map.copyOf(lastSeenMs);
    diagnoses = Map.copyOf(diagnoses);
  }

  public DetectorState(long eventTimeMs, long nextAnomalyId, List<TrackerState> trackers,
      List<Anomaly> resolved, Map<String, Long> lastSeenMs) {
    this(eventTimeMs, nextAnomalyId, trackers, resolved, lastSeenMs, Map.of());
  }

  public static DetectorState empty() {
    return new DetectorState(Long.MIN_VALUE, 1, List.of(), List.of(), Map.of(), Map.of());
  }

  /**
   * @param tracker the tracker's own serialised form ({@code SignalTracker.writeTo})
   * @param openAnomaly the open anomaly of this signal, or null
   */
  public record TrackerState(
      String job, Signal signal, String scope, String join, byte[] tracker, Anomaly openAnomaly) {}
}
