package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Snapshots of a {@link ShardedDetector}: the shards' states merged into one {@link
 * DetectorState}, the same a single detector writes, and one state split by job over however
 * many shards run now. Everything in a state belongs to one job except the event time and the
 * anomaly id counter, which all shards share. A field added to {@link DetectorState} must be
 * merged and split here too.
 */
final class ShardedState {
  /** Newest resolution first, then the newer anomaly: the order a single book keeps them in. */
  private static final Comparator<Anomaly> NEWEST_RESOLVED_FIRST =
      Comparator.comparingLong(Anomaly::endedAtMs).reversed()
          .thenComparing(Comparator.comparingLong(Anomaly::id).reversed());

  private ShardedState() {}

  static DetectorState merge(List<DetectorState> parts, long nextAnomalyId) {
    long eventTime = Long.MIN_VALUE;
    List<DetectorState.TrackerState> trackers = new ArrayList<>();
    List<Anomaly> resolved = new ArrayList<>();
    Map<String, Long> lastSeen = new HashMap<>();
    Map<String, Diagnosis> diagnoses = new HashMap<>();
    for (DetectorState p : parts) {
      eventTime = Math.max(eventTime, p.eventTimeMs());
      nextAnomalyId = Math.max(nextAnomalyId, p.nextAnomalyId());
      trackers.addAll(p.trackers());
      resolved.addAll(p.resolved());
      lastSeen.putAll(p.lastSeenMs());
      diagnoses.putAll(p.diagnoses());
    }
    if (parts.size() > 1) {
      resolved.sort(NEWEST_RESOLVED_FIRST);
      if (resolved.size() > SignalBook.RESOLVED_KEPT) {
        resolved = resolved.subList(0, SignalBook.RESOLVED_KEPT);
      }
    }
    return new DetectorState(eventTime, nextAnomalyId, trackers, resolved, lastSeen, diagnoses);
  }

  /** One state per shard; each carries the whole state's event time and id counter. */
  static List<DetectorState> split(DetectorState state, ShardRouter router) {
    int n = router.shards();
    List<List<DetectorState.TrackerState>> trackers = new ArrayList<>();
    List<List<Anomaly>> resolved = new ArrayList<>();
    List<Map<String, Long>> lastSeen = new ArrayList<>();
    List<Map<String, Diagnosis>> diagnoses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      trackers.add(new ArrayList<>());
      resolved.add(new ArrayList<>());
      lastSeen.add(new HashMap<>());
      diagnoses.add(new HashMap<>());
    }
    for (DetectorState.TrackerState t : state.trackers()) {
      trackers.get(router.shardOf(t.job())).add(t);
    }
    for (Anomaly a : state.resolved()) { // order kept: newest first within each shard too
      resolved.get(router.shardOf(a.job())).add(a);
    }
    state.lastSeenMs().forEach((job, ts) -> lastSeen.get(router.shardOf(job)).put(job, ts));
    state.diagnoses().forEach((job, d) -> diagnoses.get(router.shardOf(job)).put(job, d));
    List<DetectorState> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new DetectorState(state.eventTimeMs(), state.nextAnomalyId(), trackers.get(i),
          resolved.get(i), lastSeen.get(i), diagnoses.get(i)));
    }
    return out;
  }

  /**
   * Of the resolved anomalies among {@code all}, keeps the {@link SignalBook#RESOLVED_KEPT} that
   * ended last (each shard keeps that many of its own); open ones all stay.
   */
  static List<Anomaly> keepResolved(List<Anomaly> all) {
    List<Anomaly> resolved = new ArrayList<>();
    List<Anomaly> out = new ArrayList<>();
    for (Anomaly a : all) {
      (a.open() ? out : resolved).add(a);
    }
    if (resolved.size() > SignalBook.RESOLVED_KEPT) {
      resolved.sort(NEWEST_RESOLVED_FIRST);
      resolved = resolved.subList(0, SignalBook.RESOLVED_KEPT);
    }
    out.addAll(resolved);
    return out;
  }
}
