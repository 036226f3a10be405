package dev.checkpointdoctor.detector.pipeline;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the broadcast samples of one request that no shard could join to a job. Every shard of a
 * {@link ShardedDetector} receives node, TaskManager and container series and joins them to its
 * own jobs only, so a sample one shard cannot join may well belong to another shard's job: it is
 * unjoined, as one detector seeing every job would count it, only when all shards voted so. The
 * shards vote from their own threads in any order; the last vote counts the sample once.
 */
public final class UnjoinedVotes {
  private final int shards;
  private final int base;
  private final int size;
  private final AtomicLong unjoined;
  // Created by the first vote: most requests of a fleet whose hosts all run jobs get none.
  private volatile AtomicIntegerArray votes;

  /**
   * @param base index of the first sample that may be voted on
   * @param size samples from {@code base} on that may be voted on
   * @param unjoined where samples every shard voted for are counted
   */
  UnjoinedVotes(int shards, int base, int size, AtomicLong unjoined) {
    this.shards = shards;
    this.base = base;
    this.size = size;
    this.unjoined = unjoined;
  }

  /** One shard found no job for sample {@code index}. */
  void vote(int index) {
    if (shards == 1) {
      unjoined.incrementAndGet();
      return;
    }
    AtomicIntegerArray v = votes;
    if (v == null) {
      synchronized (this) {
        v = votes;
        if (v == null) {
          v = new AtomicIntegerArray(size);
          votes = v;
        }
      }
    }
    if (v.incrementAndGet(index - base) == shards) {
      unjoined.incrementAndGet();
    }
  }
}
