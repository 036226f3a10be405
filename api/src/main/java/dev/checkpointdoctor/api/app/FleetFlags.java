package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.fleet.FleetSettings;
import dev.checkpointdoctor.api.shard.ShardSpec;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/** Parses the shard and peer flags; {@code name} gives the flag or environment variable used. */
final class FleetFlags {
  private FleetFlags() {}

  static FleetSettings parse(String shardSpec, String shardLabels, List<URI> peers, String dns,
      Duration peerTimeout, UnaryOperator<String> name) throws SettingsException {
    List<String> labels = ShardSpec.parseLabels(shardLabels);
    ShardSpec shard;
    try {
      new ShardSpec(0, 1, labels);
    } catch (IllegalArgumentException e) {
      throw new SettingsException(name.apply("--shard-labels") + " " + e.getMessage());
    }
    try {
      shard = shardSpec == null || shardSpec.isBlank() ? new ShardSpec(0, 1, labels)
          : ShardSpec.parse(shardSpec, labels);
    } catch (IllegalArgumentException e) {
      throw new SettingsException(name.apply("--shard") + " " + e.getMessage());
    }
    String dnsName = null;
    int dnsPort = 0;
    if (dns != null && !dns.isBlank()) {
      int colon = dns.lastIndexOf(':');
      dnsName = colon > 0 ? dns.substring(0, colon).trim() : "";
      try {
        dnsPort = colon > 0 ? Integer.parseInt(dns.substring(colon + 1).trim()) : 0;
      } catch (NumberFormatException e) {
        dnsPort = 0;
      }
      if (dnsName.isEmpty() || dnsPort < 1 || dnsPort > 65535) {
        throw new SettingsException(name.apply("--peers-dns") + " must be NAME:PORT, e.g. "
            + "checkpoint-doctor.monitoring.svc:9877, got \"" + dns + "\"");
      }
    }
    return new FleetSettings(shard, peers, dnsName, dnsPort, peerTimeout);
  }

  /**
   * The shard must be a function of the job key ({@code --job-identity-labels}), the same for
   * both replicas of a Prometheus HA pair: a restored job's shard is computed from its key, and
   * one job split over two shards would be learned twice, from half its series each.
   */
  static void checkAgainstDelivery(ShardSpec shard, DeliverySettings delivery,
      UnaryOperator<String> name) throws SettingsException {
    String replica = delivery.haReplicaLabel();
    for (String l : shard.labels()) {
      if (l.equals(replica)) {
        throw new SettingsException(name.apply("--shard-labels") + " cannot hash \"" + l
            + "\", the " + name.apply("--ha-replica-label") + ": the two Prometheus replicas of "
            + "a pair would send one job to different shards");
      }
      if (!l.equals(ShardSpec.JOB_NAME) && !delivery.jobIdentityLabels().contains(l)) {
        throw new SettingsException(name.apply("--shard-labels") + " hashes \"" + l
            + "\", which is not one of " + name.apply("--job-identity-labels") + " "
            + delivery.jobIdentityLabels() + ": jobs of one key would be split over shards; "
            + "add it there (e.g. --job-identity-labels " + l + ") or hash job_name only");
      }
    }
  }
}
