package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.api.shard.ShardSpec;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The shard screen at the ingest edge, before a request is queued for the detector: takes out
 * the series of jobs that belong to another shard ({@code --shard I/N}). With Prometheus'
 * relabelling set up as {@code deploy remote-write} writes it none arrive; when some do, the
 * relabelling and {@code --shard} disagree, and the first sample of each such job is logged (so a
 * misconfiguration shows at once) and every one is counted. Series of no job (node_exporter,
 * cAdvisor) are always kept: the detector keeps those it can join to its own jobs.
 */
public final class ShardFilter {
  private static final Logger logger = Logger.getLogger(ShardFilter.class.getName());
  /** Decisions remembered (the hashed text of a job is a few dozen bytes). */
  static final int MAX_REMEMBERED = 100_000;
  /** Jobs named in the log; beyond, one line says further ones are not. */
  static final int MAX_LOGGED = 1_000;

  private final ShardSpec spec;
  private final Map<String, Boolean> decided = new ConcurrentHashMap<>();
  private final Set<String> logged = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean loggedEnough = new AtomicBoolean();

  public ShardFilter(ShardSpec spec) {
    this.spec = spec;
  }

  /** Keeps everything: one instance holds every job. */
  public static ShardFilter none() {
    return new ShardFilter(ShardSpec.unsharded());
  }

  public ShardSpec spec() {
    return spec;
  }

  /** Removes, in place, the series of other shards' jobs; returns how many samples went. */
  public int apply(DecodedWrite write) {
    if (!spec.sharded()) {
      return 0;
    }
    return write.removeSeries(this::keeps);
  }

  boolean keeps(Labels series) {
    if (series.get(ShardSpec.JOB_NAME) == null) {
      return true;
    }
    String key = spec.hashKey(series);
    Boolean keep = decided.get(key);
    if (keep == null) {
      int shard = spec.shardOfKey(key);
      keep = shard == spec.index();
      if (decided.size() >= MAX_REMEMBERED) {
        decided.clear();
      }
      decided.put(key, keep);
      if (!keep) {
        logOnce(key, shard);
      }
    }
    return keep;
  }

  private void logOnce(String key, int shard) {
    if (logged.size() >= MAX_LOGGED) {
      if (loggedEnough.compareAndSet(false, true)) {
        logger.warning("more than " + MAX_LOGGED + " jobs of other shards arrived; further ones "
            + "are counted but not logged");
      }
      return;
    }
    if (logged.add(key)) {
      logger.warning(String.format("job \"%s\" (hashmod of %s) belongs to shard %d/%d, this "
              + "instance is shard %s (--shard): its samples are dropped and counted in "
              + "checkpoint_doctor_samples_dropped_total{reason=\"not_this_shard\"}. Prometheus' "
              + "remote_write relabelling and --shard disagree: compare it with the output of "
              + "'deploy remote-write --shards %d'", key, String.join(",", spec.labels()), shard,
          spec.count(), spec.label(), spec.count()));
    }
  }
}
