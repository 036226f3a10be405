package dev.checkpointdoctor.detector.pipeline;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * Counters the detector keeps about what it did with samples. Written by the detector thread, read
 * by the metrics endpoint, hence atomics rather than plain longs. {@link #sumOf} reads several as
 * one, for the shards of a {@link ShardedDetector}.
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
  /** Null for a detector's own counters; the counters read by a sum. */
  private final List<DetectorStats> parts;

  DetectorStats() {
    this.parts = null;
  }

  private DetectorStats(List<DetectorStats> parts) {
    this.parts = List.copyOf(parts);
  }

  /** A live sum of {@code parts}: each read adds up their current values. */
  static DetectorStats sumOf(List<DetectorStats> parts) {
    return new DetectorStats(parts);
  }

  private long read(AtomicLong own, ToLongFunction<DetectorStats> part) {
    if (parts == null) {
      return own.get();
    }
    long n = 0;
    for (DetectorStats p : parts) {
      n += part.applyAsLong(p);
    }
    return n;
  }

  /** Samples that reached signal extraction. */
  public long processed() {
    return read(processed, DetectorStats::processed);
  }

  /** Samples older than the newest one already seen for their series. */
  public long outOfOrder() {
    return read(outOfOrder, DetectorStats::outOfOrder);
  }

  /** Samples with the same timestamp as the newest one already seen for their series. */
  public long duplicate() {
    return read(duplicate, DetectorStats::duplicate);
  }

  /** Prometheus stale markers, each of which ended a series. */
  public long staleMarkers() {
    return read(staleMarkers, DetectorStats::staleMarkers);
  }

  /** Samples of series the catalog has no rule for (normally filtered before the detector). */
  public long unusedMetric() {
    return read(unusedMetric, DetectorStats::unusedMetric);
  }

  /** Signal observations produced from samples. */
  public long observations() {
    return read(observations, DetectorStats::observations);
  }

  /** Samples of new series refused because a tracked-series limit was reached. */
  public long cardinalityLimit() {
    return read(cardinalityLimit, DetectorStats::cardinalityLimit);
  }

  /** Samples of an HA pair's standby replica (see --ha-replica-label): not learned from. */
  public long haStandby() {
    return read(haStandby, DetectorStats::haStandby);
  }

  /** Times a source switched to the other replica of its HA pair. */
  public long haFailovers() {
    return read(haFailovers, DetectorStats::haFailovers);
  }
}
