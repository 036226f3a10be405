package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Labels;

/**
 * Which shard of a {@link ShardedDetector} a series goes to. A job's series all go to one shard,
 * picked from its job key, so its samples stay in order on one thread and its signals, anomalies
 * and diagnosis live in one place. Series without a job key (node_exporter, cAdvisor and
 * TaskManager JVM series, which the extractor joins to jobs by host, pod or TaskManager) go to
 * every shard, {@link #BROADCAST}: each shard joins them to its own jobs.
 */
public final class ShardRouter {
  /** Route of a series every shard receives. */
  public static final int BROADCAST = -1;

  private final int shards;

  public ShardRouter(int shards) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be >= 1, got " + shards);
    }
    this.shards = shards;
  }

  public int shards() {
    return shards;
  }

  /**
   * The key that names a series' job, or null for a series of no single job. It must be what the
   * signal extractor names jobs by (observations, anomalies and snapshots carry it as the job),
   * so a restored job lands on the shard its series are routed to: today the {@code job_name}
   * label. Change it here and only here.
   */
  public static String jobKey(Labels labels) {
    return labels.get("job_name");
  }

  /** The shard of a job, by its key; stable across restarts (String hashes are specified). */
  public int shardOf(String jobKey) {
    if (shards == 1) {
      return 0;
    }
    int h = jobKey.hashCode();
    h ^= h >>> 16; // job names often differ only in a trailing number
    h *= 0x9E3779B9;
    return Math.floorMod(h ^ (h >>> 15), shards);
  }

  /** The shard of a series, or {@link #BROADCAST}; with one shard always shard 0. */
  public int route(Labels labels) {
    if (shards == 1) {
      return 0;
    }
    String job = jobKey(labels);
    return job == null ? BROADCAST : shardOf(job);
  }
}
