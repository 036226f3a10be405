package dev.checkpointdoctor.detector.model;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How samples are expected to arrive and what tells jobs apart, validated on construction so a
 * bad value fails start-up.
 *
 * @param maxDeliveryLag how far, in event time, one source may run behind another and still be
 *     assembled and joined as if delivered in order: a job's scrape waits this long at most for a
 *     silent series of the job, and node, container and TaskManager samples wait this long at
 *     most for the Flink series that tell which jobs ran there
 * @param haReplicaLabel the external label that tells the replicas of a Prometheus HA pair apart
 *     (e.g. {@code prometheus_replica}); null when every sample is learned from
 * @param haFailoverTimeout how far (event time) the elected replica may fall silent behind
 *     another before the other is elected
 * @param jobIdentityLabels labels that, with {@code job_name}, identify a job (e.g. {@code
 *     cluster}); empty: {@code job_name} alone
 */
public record DeliverySettings(
    Duration maxDeliveryLag,
    String haReplicaLabel,
    Duration haFailoverTimeout,
    List<String> jobIdentityLabels) {

  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  public DeliverySettings {
    require(maxDeliveryLag != null && maxDeliveryLag.toMillis() > 0,
        "maxDeliveryLag must be > 0");
    require(haFailoverTimeout != null && haFailoverTimeout.toMillis() > 0,
        "haFailoverTimeout must be > 0");
    jobIdentityLabels = jobIdentityLabels == null ? List.of() : List.copyOf(jobIdentityLabels);
    Set<String> seen = new HashSet<>();
    for (String l : jobIdentityLabels) {
      require(LABEL_NAME.matcher(l).matches(), "job identity label \"" + l
          + "\" is not a label name [a-zA-Z_][a-zA-Z0-9_]*");
      require(!l.equals(Labels.METRIC_NAME) && !l.equals("job_name"),
          "job identity label \"" + l + "\" cannot be __name__ or job_name");
      require(seen.add(l), "job identity label \"" + l + "\" is listed twice");
    }
    if (haReplicaLabel != null) {
      require(LABEL_NAME.matcher(haReplicaLabel).matches(), "HA replica label \""
          + haReplicaLabel + "\" is not a label name [a-zA-Z_][a-zA-Z0-9_]*");
      require(!haReplicaLabel.equals(Labels.METRIC_NAME) && !haReplicaLabel.equals("job_name"),
          "HA replica label cannot be __name__ or job_name");
      require(!jobIdentityLabels.contains(haReplicaLabel), "HA replica label \""
          + haReplicaLabel + "\" cannot also be a job identity label: the replicas of one "
          + "Prometheus pair see the same jobs");
    }
  }

  /** Shard lag of a few minutes, no HA pair, jobs known by job_name alone. */
  public static DeliverySettings defaults() {
    return new DeliverySettings(Duration.ofMinutes(5), null, Duration.ofSeconds(30), List.of());
  }

  public DeliverySettings withMaxDeliveryLag(Duration lag) {
    return new DeliverySettings(lag, haReplicaLabel, haFailoverTimeout, jobIdentityLabels);
  }

  public DeliverySettings withHaReplicaLabel(String label, Duration failoverTimeout) {
    return new DeliverySettings(maxDeliveryLag, label, failoverTimeout, jobIdentityLabels);
  }

  public DeliverySettings withJobIdentityLabels(List<String> labels) {
    return new DeliverySettings(maxDeliveryLag, haReplicaLabel, haFailoverTimeout, labels);
  }

  public JobIdentity jobIdentity() {
    return new JobIdentity(jobIdentityLabels);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
