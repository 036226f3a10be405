package dev.checkpointdoctor.detector.extract;

/**
 * How far each cluster's Flink series have got over all shards of a sharded detector. A shard
 * sees only its own jobs' Flink series; a node, container or TaskManager item waits until the
 * cluster's Flink series are known past it (see {@link PendingJoins}), which the shards learn
 * together here.
 */
public interface FlinkProgressBoard {
  /**
   * Records that a shard's Flink series of {@code cluster} reached {@code newestHere} (NONE:
   * {@code Long.MIN_VALUE}) and returns the newest any shard reported.
   */
  long exchange(String cluster, long newestHere);
}
