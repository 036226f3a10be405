package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.extract.JoinVotes;

/**
 * Counts, over the shards of a {@link ShardedDetector}, the node and container samples no job
 * could be joined to and the TaskManager samples of times it ran no job's task. Every shard
 * receives those samples and decides each of them for its own jobs only, at its own pace; an item
 * (numbered alike in every shard, see {@link JoinVotes}) counts once, when every shard decided it
 * and none joined it, as one detector seeing every job would count it.
 *
 * <p>Each shard's decisions collect in its {@link Ballot} without locking and are cast once per
 * batch. Items of no sample (values derived from other items) need no vote.
 */
final class JoinTally {
  private static final JoinVotes.Outcome[] OUTCOMES = JoinVotes.Outcome.values();

  private final int shards;
  /** Items some shards decided, the others not yet: number -> packed votes (see #pack). */
  private final ItemVotes open = new ItemVotes();
  private volatile long unjoinedNode;
  private volatile long unjoinedContainer;
  private volatile long idleTaskManager;

  JoinTally(int shards) {
    if (shards < 2 || shards > 255) {
      throw new IllegalArgumentException("a tally is for 2 to 255 shards, got " + shards);
    }
    this.shards = shards;
  }

  /** One shard's ballot. */
  Ballot ballot() {
    return new Ballot();
  }

  long unjoinedNode() {
    return unjoinedNode;
  }

  long unjoinedContainer() {
    return unjoinedContainer;
  }

  long unjoined() {
    return unjoinedNode + unjoinedContainer;
  }

  long idleTaskManager() {
    return idleTaskManager;
  }

  /** Items some shard decided and another has not yet. */
  synchronized int undecided() {
    return open.size();
  }

  // votes (bits 0-7), joined by some shard (bit 8), outcome when unjoined (bits 9-10), samples
  // (bits 16-23): the outcome and samples of an item are the same in every shard
  private static int pack(int votes, boolean joined, JoinVotes.Outcome outcome, int samples) {
    return votes | (joined ? 1 << 8 : 0) | outcome.ordinal() << 9 | samples << 16;
  }

  private synchronized void cast(long[] items, int[] votes, int n) {
    long node = unjoinedNode;
    long container = unjoinedContainer;
    long idle = idleTaskManager;
    for (int i = 0; i < n; i++) {
      int v = votes[i];
      int before = open.get(items[i]);
      if (before != ItemVotes.ABSENT) {
        v = (before & 0xff) + 1 | (before | v) & (1 << 8) | v & ~0x1ff;
      }
      if ((v & 0xff) < shards) {
        open.put(items[i], v);
        continue;
      }
      if (before != ItemVotes.ABSENT) {
        open.remove(items[i]);
      }
      if ((v & (1 << 8)) == 0) {
        int samples = v >>> 16 & 0xff;
        switch (OUTCOMES[v >>> 9 & 3]) {
          case UNJOINED_NODE -> node += samples;
          case UNJOINED_CONTAINER -> container += samples;
          case IDLE_TASKMANAGER -> idle += samples;
          default -> { }
        }
      }
    }
    unjoinedNode = node;
    unjoinedContainer = container;
    idleTaskManager = idle;
  }

  /** Collects one shard's decisions between two batches; used by that shard's thread only. */
  final class Ballot implements JoinVotes {
    private long[] items = new long[256];
    private int[] votes = new int[256];
    private int n;

    @Override
    public void decided(long item, Outcome outcome, int samples) {
      if (samples == 0) {
        return;
      }
      if (n == items.length) {
        items = java.util.Arrays.copyOf(items, n * 2);
        votes = java.util.Arrays.copyOf(votes, n * 2);
      }
      items[n] = item;
      votes[n++] = pack(1, outcome == Outcome.JOINED, outcome, samples);
    }

    /** Adds this shard's decisions since the last cast to the tally. */
    void cast() {
      if (n > 0) {
        JoinTally.this.cast(items, votes, n);
        n = 0;
      }
    }
  }

  /** Open addressing from item numbers to packed votes, with removal by backward shift. */
  static final class ItemVotes {
    static final int ABSENT = -1;
    private long[] keys = new long[64];
    private int[] values = new int[64];
    private boolean[] used = new boolean[64];
    private int size;

    int size() {
      return size;
    }

    private int slot(long key) {
      long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h >>> 40) & (keys.length - 1);
    }

    int get(long key) {
      int mask = keys.length - 1;
      for (int i = slot(key); used[i]; i = (i + 1) & mask) {
        if (keys[i] == key) {
          return values[i];
        }
      }
      return ABSENT;
    }

    void put(long key, int value) {
      int mask = keys.length - 1;
      int i = slot(key);
      for (; used[i]; i = (i + 1) & mask) {
        if (keys[i] == key) {
          values[i] = value;
          return;
        }
      }
      used[i] = true;
      keys[i] = key;
      values[i] = value;
      if (++size * 2 > keys.length) {
        grow();
      }
    }

    void remove(long key) {
      int mask = keys.length - 1;
      int i = slot(key);
      while (used[i] && keys[i] != key) {
        i = (i + 1) & mask;
      }
      if (!used[i]) {
        return;
      }
      size--;
      // shift later entries of the run back so every key stays reachable from its slot
      int gap = i;
      for (int j = (gap + 1) & mask; used[j]; j = (j + 1) & mask) {
        int home = slot(keys[j]);
        boolean movable = gap <= j ? home <= gap || home > j : home <= gap && home > j;
        if (movable) {
          keys[gap] = keys[j];
          values[gap] = values[j];
          gap = j;
        }
      }
      used[gap] = false;
    }

    private void grow() {
      long[] k = keys;
      int[] v = values;
      boolean[] u = used;
      keys = new long[k.length * 2];
      values = new int[k.length * 2];
      used = new boolean[k.length * 2];
      size = 0;
      for (int i = 0; i < k.length; i++) {
        if (u[i]) {
          put(k[i], v[i]);
        }
      }
    }
  }
}
