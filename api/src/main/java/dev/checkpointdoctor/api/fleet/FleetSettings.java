package dev.checkpointdoctor.api.fleet;

import dev.checkpointdoctor.api.shard.ShardSpec;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * How this instance fits in a fleet: its shard, and the other instances whose jobs and anomalies
 * its lists merge, named ({@code --peer}) or found through DNS ({@code --peers-dns}).
 *
 * @param peersDnsName null without DNS discovery
 */
public record FleetSettings(ShardSpec shard, List<URI> peers, String peersDnsName,
    int peersDnsPort, Duration peerTimeout) {

  public FleetSettings {
    peers = List.copyOf(peers);
  }

  /** One instance on its own. */
  public static FleetSettings alone() {
    return new FleetSettings(ShardSpec.unsharded(), List.of(), null, 0, Duration.ofSeconds(2));
  }

  public boolean hasPeers() {
    return !peers.isEmpty() || peersDnsName != null;
  }
}
