package dev.checkpointdoctor.detector.pipeline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters the detector keeps about what it did with samples. Written by the detector thread, read
 * by the metrics endpoint, hence atomics rather than plain longs.
 */
public final class DetectorStats {
  final AtomicLong processed = new AtomicLong();
  final AtomicLong outOfOrder = new AtomicLong();
  final AtomicLong duplicate = new AtomicLong();
  final AtomicLong staleMarkers = new AtomicLong();
  final AtomicLong unusedMetric = new AtomicLong();
  final AtomicLong observations = new AtomicLong();
  final AtomicLong cardinalityLimit = new AtomicLong();
  final AtomicLong haStandby = new AtomicLong();
  final AtomicLong haFailovers = new AtomicLong();

  /** Samples that reached signal extraction. */
  public long processed() {
    return processed.get();
  }

  /** Samples older than the newest one already seen for their series. */
  public long outOfOrder() {
    return outOfOrder.get();
  }

  /** Samples with the same timestamp as the newest one already seen for their series. */
  public long duplicate() {
    return duplicate.get();
  }

  /** Prometheus stale markers, each of which ended a series. */
  public long staleMarkers() {
    return staleMarkers.get();
  }

  /** Samples of series the catalog has no rule for (normally filtered before the detector). */
  public long unusedMetric() {
    return unusedMetric.get();
  }

  /** Signal observations produced from samples. */
  public long observations() {
    return observations.get();
  }

  /** Samples of new series refused because a tracked-series limit was reached. */
  public long cardinalityLimit() {
    return cardinalityLimit.get();
  }

  /** Samples of an HA pair's standby replica (see --ha-replica-label): not learned from. */
  public long haStandby() {
    return haStandby.get();
  }

  /** Times a source switched to the other replica of its HA pair. */
  public long haFailovers() {
    return haFailovers.get();
  }
}
