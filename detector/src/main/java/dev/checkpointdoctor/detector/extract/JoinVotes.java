package dev.checkpointdoctor.detector.extract;

/**
 * Where a shard of a sharded detector reports how it decided each node, container and TaskManager
 * item it held (see {@link PendingJoins}). Every shard receives those samples and holds the same
 * items, numbered alike, but knows only its own jobs: an item is unjoined (or an idle
 * TaskManager's) only when no shard joined it, which only the tally of all shards can tell.
 */
public interface JoinVotes {
  /** How one shard decided an item. */
  enum Outcome { JOINED, UNJOINED_NODE, UNJOINED_CONTAINER, IDLE_TASKMANAGER }

  /**
   * @param item the item's number, the same in every shard
   * @param samples the samples it stands for (0 for values derived from other items)
   */
  void decided(long item, Outcome outcome, int samples);
}
