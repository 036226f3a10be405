package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.Labels;

/**
 * Which shard of a {@link ShardedDetector} a series goes to. A job's series all go to one shard,
 * picked from its job key ({@link JobIdentity#key}: {@code job_name}, or with identity labels
 * e.g. {@code eu-1/orders_etl}, so jobs of the same name in two clusters are routed
 * independently), so its samples stay in order on one thread and its signals, anomalies and
 * diagnosis live in one place. Series without a job key (node_exporter, cAdvisor and
 * TaskManager JVM series, which the extractor joins to jobs by host, pod or TaskManager) go to
 * every shard, {@link #BROADCAST}: each shard joins them to its own jobs.
 */
public final class ShardRouter {
  /** Route of a series every shard receives. */
  public static final int BROADCAST = -1;

  /** Router ids for the label sets' route memo; past 0xFFFF routers route without it. */
  private static final java.util.concurrent.atomic.AtomicInteger IDS =
      new java.util.concurrent.atomic.AtomicInteger();

  private final int shards;
  private final JobIdentity identity;
  /** In the high half of a memo this router wrote; 0 when it writes none. */
  private final int memoId;

  public ShardRouter(int shards) {
    this(shards, JobIdentity.jobNameOnly());
  }

  public ShardRouter(int shards, JobIdentity identity) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be >= 1, got " + shards);
    }
    this.shards = shards;
    this.identity = identity;
    int id = IDS.incrementAndGet();
    this.memoId = id > 0 && id <= 0xFFFF ? id : 0;
  }

  public int shards() {
    return shards;
  }

  /**
   * The key that names a series' job, or null for a series of no single job: the signal
   * extractor's own job key (observations, anomalies and snapshots carry it as the job), so a
   * restored job lands on the shard its series are routed to.
   */
  public String jobKey(Labels labels) {
    return identity.key(labels);
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
    // The decoders hand out one label set instance per series: remember its route there rather
    // than find the job key among the labels and hash it on every request.
    int memo = labels.routeMemo();
    if (memoId != 0 && memo >>> 16 == memoId) {
      return (memo & 0xFFFF) - 1;
    }
    String job = jobKey(labels);
    int route = job == null ? BROADCAST : shardOf(job);
    if (memoId != 0 && route < 0xFFFE) {
      labels.routeMemo(memoId << 16 | (route + 1));
    }
    return route;
  }
}
