package dev.checkpointdoctor.detector.extract;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --host-alias FLINK_HOST=NODE}: ties node and container names to Flink hosts when the
 * labels do not, both ways (a node or pod named NODE runs what FLINK_HOST runs; a pod named
 * FLINK_HOST is found on NODE).
 */
final class HostAliases {
  private final Map<String, String> flinkToNode;
  /** Node or pod name to the (sanitized) Flink hosts mapped to it. */
  private final Map<String, List<String>> nodeToFlink = new HashMap<>();

  HostAliases(Map<String, String> flinkToNode) {
    this.flinkToNode = Map.copyOf(flinkToNode);
    flinkToNode.forEach((flinkHost, node) -> nodeToFlink
        .computeIfAbsent(node, k -> new ArrayList<>()).add(SignalExtractor.sanitize(flinkHost)));
  }

  /** The Flink hosts an alias maps to {@code node}; empty when none. */
  List<String> flinkHostsOn(String node) {
    List<String> hosts = node == null ? null : nodeToFlink.get(node);
    return hosts == null ? List.of() : hosts;
  }

  /** The node an alias names for {@code flinkHost}, as a Flink host label would spell it. */
  String nodeOf(String flinkHost) {
    String node = flinkToNode.get(flinkHost);
    return node == null ? null : SignalExtractor.sanitize(node);
  }
}
