package dev.checkpointdoctor.api.shard;

import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * Which shard this instance is ({@code --shard I/N}) and which labels decide a job's shard
 * ({@code --shard-labels}, {@code job_name} by default). A job's series go to shard
 * {@code hashmod(values of the labels, N)}, exactly what the Prometheus relabelling that
 * {@code deploy remote-write} writes computes; series without {@code job_name} (node_exporter,
 * cAdvisor) belong to no shard and go to every one.
 *
 * <p>{@link #shardOf(List)} is the one place that decides; everything else asks it.
 */
public record ShardSpec(int index, int count, List<String> labels) {
  public static final String JOB_NAME = "job_name";
  /** Most shards accepted; far beyond what one Prometheus' remote-write queues would carry. */
  public static final int MAX_SHARDS = 1024;
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  public ShardSpec {
    labels = List.copyOf(labels);
    if (count < 1 || count > MAX_SHARDS) {
      throw new IllegalArgumentException("must have a number of shards N between 1 and "
          + MAX_SHARDS + ", got " + count);
    }
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException("must have a shard I between 0 and " + (count - 1)
          + " (shards are counted from 0), got " + index + "/" + count);
    }
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("at least one label must decide the shard");
    }
    for (String l : labels) {
      if (!LABEL_NAME.matcher(l).matches() || l.startsWith("__")) {
        throw new IllegalArgumentException("\"" + l + "\" is not a label name a shard can be "
            + "hashed from");
      }
    }
  }

  /** One instance holding every job. */
  public static ShardSpec unsharded() {
    return new ShardSpec(0, 1, List.of(JOB_NAME));
  }

  /** Parses {@code I/N} (e.g. {@code 0/4}); the message of the exception says what is wrong. */
  public static ShardSpec parse(String spec, List<String> labels) {
    String s = spec.trim();
    int slash = s.indexOf('/');
    if (slash <= 0 || slash == s.length() - 1) {
      throw new IllegalArgumentException("must be I/N, shard I of N counted from 0 (e.g. 0/4), "
          + "got \"" + spec + "\"");
    }
    try {
      return new ShardSpec(Integer.parseInt(s.substring(0, slash).trim()),
          Integer.parseInt(s.substring(slash + 1).trim()), labels);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be I/N with whole numbers (e.g. 0/4), got \""
          + spec + "\"");
    }
  }

  /** Parses a comma-separated label list such as {@code cluster,job_name}. */
  public static List<String> parseLabels(String list) {
    List<String> out = new ArrayList<>();
    for (String part : list.split(",")) {
      if (!part.isBlank()) {
        out.add(part.trim());
      }
    }
    return out;
  }

  public boolean sharded() {
    return count > 1;
  }

  /**
   * The shard of the job whose values of {@link #labels()} (in that order; null for a missing
   * label) are given: Prometheus' hashmod of them.
   */
  public int shardOf(List<String> values) {
    return shardOfKey(Hashmod.join(values));
  }

  /** The same for the values already joined by {@link #hashKey}. */
  public int shardOfKey(String joined) {
    return count == 1 ? 0 : (int) Hashmod.of(joined, count);
  }

  /** The shard of a series, or -1 for a series of no job (no {@code job_name}). */
  public int shardOfSeries(Labels series) {
    if (series.get(JOB_NAME) == null) {
      return -1;
    }
    return count == 1 ? 0 : shardOfKey(hashKey(series));
  }

  /**
   * What Prometheus hashes for a series: its values of {@link #labels()} joined by {@code ;}, a
   * missing label as empty.
   */
  public String hashKey(Labels series) {
    if (labels.size() == 1) {
      return series.getOrDefault(labels.get(0), "");
    }
    List<String> values = new ArrayList<>(labels.size());
    for (String l : labels) {
      values.add(series.get(l));
    }
    return Hashmod.join(values);
  }

  /** Whether this instance keeps the series: its job's shard is this one, or it has no job. */
  public boolean keeps(Labels series) {
    int shard = shardOfSeries(series);
    return shard < 0 || shard == index;
  }

  /**
   * The shard of a job known only by its key ({@link JobIdentity#key}: {@code orders_etl}, or
   * {@code eu-1/orders_etl} with {@code --job-identity-labels cluster}), when the key determines
   * it: every shard label is {@code job_name} or an identity label. Empty otherwise (a shard
   * label the key does not carry).
   */
  public OptionalInt shardOfJob(String key, JobIdentity identity) {
    if (count == 1) {
      return OptionalInt.of(0);
    }
    Map<String, String> identityValues = identity.labelsOf(key);
    if (!identity.byJobNameOnly() && identityValues.isEmpty()) {
      return OptionalInt.empty(); // not a key made under these identity labels
    }
    List<String> values = new ArrayList<>(labels.size());
    for (String l : labels) {
      if (l.equals(JOB_NAME)) {
        values.add(identity.jobName(key));
      } else if (identityValues.containsKey(l)) {
        // a missing label was keyed as empty, which Prometheus hashes alike
        values.add(identityValues.get(l));
      } else {
        return OptionalInt.empty();
      }
    }
    return OptionalInt.of(shardOf(values));
  }

  /**
   * Whether a job of this {@code job_name} may belong to this shard, for sources that know a
   * job only by its name (Flink's REST API): false only when the shard is hashed from {@code
   * job_name} alone and the name hashes to another shard.
   */
  public boolean mayHoldJobName(String jobName) {
    return count == 1 || !labels.equals(List.of(JOB_NAME)) || shardOf(List.of(jobName)) == index;
  }

  /** {@code I/N}. */
  public String label() {
    return index + "/" + count;
  }
}
