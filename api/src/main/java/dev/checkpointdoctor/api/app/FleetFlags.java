package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.fleet.FleetSettings;
import dev.checkpointdoctor.api.shard.ShardSpec;
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
}
