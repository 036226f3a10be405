package dev.checkpointdoctor.detector.facts;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The file systems mounted on each node, learned from node_exporter's filesystem series: which
 * mount a directory (RocksDB's local dir) lives on, and whether that is a network mount. Filled by
 * the detector thread(s), read by the diagnosis; hence synchronized.
 */
public final class MountTable {
  /** Node → mount point → mount. */
  private final Map<String, Map<String, Mount>> byNode = new TreeMap<>();

  /** Learns the mount a {@code node_filesystem_*} series describes; ignores unusable ones. */
  public void observe(Labels labels) {
    String mountpoint = nonEmpty(labels.get("mountpoint"));
    String node = nodeOf(labels);
    if (mountpoint == null || node == null) {
      return;
    }
    Mount m = new Mount(node, mountpoint, labels.getOrDefault("fstype", ""),
        labels.getOrDefault("device", ""));
    synchronized (this) {
      Map<String, Mount> mounts = byNode.computeIfAbsent(node, k -> new TreeMap<>());
      if (!m.equals(mounts.get(mountpoint))) {
        mounts.put(mountpoint, m);
      }
    }
  }

  /** The mount holding {@code path} on {@code node} (the longest mount point), or null. */
  public synchronized Mount mountOf(String node, String path) {
    Map<String, Mount> mounts = byNode.get(node);
    if (mounts == null) {
      return null;
    }
    Mount best = null;
    for (Mount m : mounts.values()) {
      if (m.holds(path) && (best == null || m.mountpoint().length() > best.mountpoint().length())) {
        best = m;
      }
    }
    return best;
  }

  public synchronized List<String> nodes() {
    return new ArrayList<>(byNode.keySet());
  }

  public synchronized boolean isEmpty() {
    return byNode.isEmpty();
  }

  /** As the detector names nodes: node or nodename label, else the host part of instance. */
  static String nodeOf(Labels labels) {
    String node = nonEmpty(labels.get("node"));
    if (node == null) {
      node = nonEmpty(labels.get("nodename"));
    }
    return node != null ? node : hostOf(nonEmpty(labels.get("instance")));
  }

  private static String hostOf(String instance) {
    if (instance == null) {
      return null;
    }
    if (instance.charAt(0) == '[') {
      int close = instance.indexOf(']');
      return close > 0 ? instance.substring(1, close) : instance;
    }
    int colon = instance.indexOf(':');
    return colon >= 0 && colon == instance.lastIndexOf(':') ? instance.substring(0, colon)
        : instance;
  }

  private static String nonEmpty(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
