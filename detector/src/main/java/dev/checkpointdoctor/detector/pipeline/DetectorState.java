package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;
import java.util.Map;

/**
 * What survives a restart: every baseline with its anomaly state, the recently resolved anomalies,
 * when each job was last seen, and the histories the cause rules and the trend test read (raw
 * recent points, hourly summaries, trend state), so a restart does not change a diagnosis.
 * Per-series extraction state is not kept: it is rebuilt from the next scrape.
 */
public record DetectorState(
    long eventTimeMs,
    long nextAnomalyId,
    List<TrackerState> trackers,
    List<Anomaly> resolved,
    Map<String, Long> lastSeenMs,
    Map<String, Diagnosis> diagnoses,
    List<HistoryState> histories) {

  public DetectorState {
    trackers = List.copyOf(trackers);
    resolved = List.copyOf(resolved);
    lastSeenMs = Map.copyOf(lastSeenMs);
    diagnoses = Map.copyOf(diagnoses);
    histories = histories == null ? List.of() : List.copyOf(histories);
  }

  /** A state without histories (as snapshots written before they were kept). */
  public DetectorState(long eventTimeMs, long nextAnomalyId, List<TrackerState> trackers,
      List<Anomaly> resolved, Map<String, Long> lastSeenMs, Map<String, Diagnosis> diagnoses) {
    this(eventTimeMs, nextAnomalyId, trackers, resolved, lastSeenMs, diagnoses, List.of());
  }

  public DetectorState(long eventTimeMs, long nextAnomalyId, List<TrackerState> trackers,
      List<Anomaly> resolved, Map<String, Long> lastSeenMs) {
    this(eventTimeMs, nextAnomalyId, trackers, resolved, lastSeenMs, Map.of());
  }

  public static DetectorState empty() {
    return new DetectorState(Long.MIN_VALUE, 1, List.of(), List.of(), Map.of(), Map.of(),
        List.of());
  }

  /**
   * @param tracker the tracker's own serialised form ({@code SignalTracker.writeTo})
   * @param openAnomaly the open anomaly of this signal, or null
   */
  public record TrackerState(
      String job, Signal signal, String scope, String join, byte[] tracker, Anomaly openAnomaly) {}

  /**
   * The histories of one (job, signal, scope).
   *
   * @param timesMs the raw recent points' event times, oldest first
   * @param values their values
   * @param hourly the hourly summaries' own serialised form, or null when not kept for the signal
   * @param trend the trend watch's own serialised form, or null
   * @param trendAnomaly the open trend anomaly of this signal, or null
   */
  public record HistoryState(String job, Signal signal, String scope, long[] timesMs,
      double[] values, byte[] hourly, byte[] trend, Anomaly trendAnomaly) {
    public HistoryState {
      if (timesMs.length != values.length) {
        throw new IllegalArgumentException("times and values differ in length");
      }
    }
  }
}
