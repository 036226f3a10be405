package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Cardinality guard: how many series the detector may keep cursors for, in total and per job.
 * A label that explodes (a pod hash, a per-request id) would otherwise grow the detector's memory
 * without bound. Series already tracked keep working when the budget is spent; only new ones are
 * refused, and the caller counts their samples. Each limit logs once, when first hit.
 *
 * <p>One budget may be shared by the shards of a {@link ShardedDetector}, whose threads call it
 * when they first see a series (rare next to samples, hence a plain lock). A series every shard
 * receives (node, TaskManager and container series) is counted once, when the first shard admits
 * it; the others find it admitted.
 */
final class SeriesBudget {
  private static final Logger logger = Logger.getLogger(SeriesBudget.class.getName());

  private final int maxTotal;
  private final int maxPerJob;
  private final Map<String, Integer> perJob = new HashMap<>();
  /** Broadcast series admitted so far: each shard asks for them, one counts them. */
  private final java.util.Set<Labels> broadcast = new java.util.HashSet<>();
  private int total;
  private boolean loggedTotal;
  private boolean loggedJob;

  SeriesBudget(int maxTotal, int maxPerJob) {
    if (maxTotal <= 0 || maxPerJob <= 0) {
      throw new IllegalArgumentException("series limits must be > 0");
    }
    this.maxTotal = maxTotal;
    this.maxPerJob = maxPerJob;
  }

  int maxTotal() {
    return maxTotal;
  }

  static SeriesBudget unlimited() {
    return new SeriesBudget(Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  /** Reserves room for one new series, or returns false (and logs the first time) when full. */
  boolean tryAdd(Labels labels) {
    return tryAdd(labels, false);
  }

  /**
   * As {@link #tryAdd(Labels)}; a {@code broadcast} series that another shard already admitted is
   * admitted again without being counted.
   */
  synchronized boolean tryAdd(Labels labels, boolean broadcast) {
    if (broadcast && this.broadcast.contains(labels)) {
      return true;
    }
    if (total >= maxTotal) {
      if (!loggedTotal) {
        loggedTotal = true;
        logger.warning("tracked series limit of " + maxTotal + " reached; samples of new series "
            + "are dropped and counted as cardinality_limit (raise --max-series)");
      }
      return false;
    }
    String job = jobOf(labels);
    int n = perJob.getOrDefault(job, 0);
    if (n >= maxPerJob) {
      if (!loggedJob) {
        loggedJob = true;
        logger.warning("job \"" + job + "\" reached the limit of " + maxPerJob + " tracked series;"
            + " samples of its new series are dropped and counted as cardinality_limit (raise "
            + "--max-series-per-job; later jobs hitting it are only counted)");
      }
      return false;
    }
    perJob.put(job, n + 1);
    total++;
    if (broadcast) {
      this.broadcast.add(labels.interned()); // the instance the shards keep: nothing extra pinned
    }
    return true;
  }

  // Node and container series carry no job_name; Prometheus' job keeps them apart per exporter.
  private static String jobOf(Labels labels) {
    String job = labels.get("job_name");
    return job != null ? job : labels.getOrDefault("job", "");
  }
}
