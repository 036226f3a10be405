package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.extract.FlinkProgressBoard;
import dev.checkpointdoctor.detector.model.Labels;

/**
 * What a {@link Detector} does differently as one shard of a {@link ShardedDetector}: series
 * without a job key reach every shard, so one shard (index 0) counts their samples in its stats;
 * their join decisions go to the shards' common {@link JoinTally}; joins wait for the Flink
 * progress of all shards ({@link FlinkProgressBoard}); and a decoder's label set, which every
 * shard sees, remembers a cursor per shard.
 */
final class ShardRole {
  static final ShardRole ALONE = new ShardRole(0, 1, null, null);

  final int index;
  final int count;
  /** Null for a detector of its own. */
  final JoinTally tally;
  final JoinTally.Ballot ballot;
  final FlinkProgressBoard board;
  /** Counters of what this shard does not count: written, never read. */
  final DetectorStats uncounted = new DetectorStats();

  ShardRole(int index, int count, JoinTally tally, FlinkProgressBoard board) {
    this.index = index;
    this.count = count;
    this.tally = tally;
    this.ballot = tally == null ? null : tally.ballot();
    this.board = board;
  }

  boolean alone() {
    return tally == null;
  }

  /** Whether this shard counts the samples of series every shard receives. */
  boolean countsBroadcast() {
    return index == 0;
  }

  /** {@code owner}'s cursor from the label set's memo, or null (see {@link Labels#memo()}). */
  SeriesCursor remembered(Labels labels, boolean broadcast, Detector owner) {
    Object memo = labels.memo();
    if (!broadcast) {
      return memo instanceof SeriesCursor c && c.owner == owner ? c : null;
    }
    if (memo instanceof SeriesCursor[] slots && slots.length == count) {
      SeriesCursor c = slots[index];
      return c != null && c.owner == owner ? c : null;
    }
    return null;
  }

  void remember(Labels labels, boolean broadcast, SeriesCursor cursor) {
    if (!broadcast) {
      labels.memo(cursor);
      return;
    }
    // Other shards write their slots of the same array; an array another shard replaces loses
    // this slot, which only costs the next sample a map lookup.
    SeriesCursor[] slots = labels.memo() instanceof SeriesCursor[] a && a.length == count
        ? a : null;
    if (slots == null) {
      slots = new SeriesCursor[count];
      labels.memo(slots);
    }
    slots[index] = cursor;
  }
}
