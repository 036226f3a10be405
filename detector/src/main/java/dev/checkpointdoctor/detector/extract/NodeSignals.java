package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.SignalExtractor.sanitize;

import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.extract.SignalExtractor.Series;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * node_exporter disk counters: per-second rates of each counter, and the mean I/O latency of a
 * scrape from the four read/write count and time counters. A node's disks serve the jobs whose
 * TaskManagers run on it at the time: by the {@code node}/{@code nodename} label as Flink host,
 * else by the {@code instance}'s host part, else by {@code --host-alias}.
 */
final class NodeSignals {
  public static final String JOIN_HOST_LABEL = "host_label";
  public static final String JOIN_INSTANCE_HOST = "instance_host";
  public static final String JOIN_CONFIG = "config";

  private static final Pattern SKIPPED_DEVICE = Pattern.compile("^(ram|loop|fd|zram|sr)\\d*");

  private final Placement placement;
  private final PendingJoins joins;
  private final HostAliases aliases;
  private final Map<String, Disk> disks = new HashMap<>();

  NodeSignals(Placement placement, PendingJoins joins, HostAliases aliases) {
    this.placement = placement;
    this.joins = joins;
    this.aliases = aliases;
  }

  /** Fills in a new disk series; returns false to skip it (virtual devices, no node name). */
  boolean create(Series s, Labels labels, String cluster) {
    String device = labels.getOrDefault("device", "");
    if (SKIPPED_DEVICE.matcher(device).lookingAt()) {
      return false;
    }
    String nodeLabel = SignalExtractor.nonEmpty(labels.get("node"));
    if (nodeLabel == null) {
      nodeLabel = SignalExtractor.nonEmpty(labels.get("nodename"));
    }
    String instanceHost = SignalExtractor.nonEmpty(instanceHost(labels.get("instance")));
    String node = nodeLabel != null ? nodeLabel : instanceHost;
    if (node == null) {
      return false;
    }
    String key = cluster + node + "/" + device;
    Disk d = disks.get(key);
    if (d == null) {
      d = new Disk(cluster, key, node + "/" + device, nodeLabel, instanceHost, aliases,
          placement);
      disks.put(key, d);
    }
    d.refs++;
    s.disk(d);
    s.cluster = cluster;
    s.scope = d.scope;
    return true;
  }

  void onSample(Series s, long ts, double v, Consumer<Observation> out) {
    Disk d = s.disk();
    if (ts > d.progress.node) {
      d.progress.node = ts;
    }
    long prevTs = s.lastTs;
    double prev = s.last;
    double rate = s.rate(ts, v);
    Kind k = s.rule.kind();
    Signal signal = switch (k) {
      case DISK_READS -> Signal.DISK_READ_IOPS;
      case DISK_WRITES -> Signal.DISK_WRITE_IOPS;
      case DISK_WRITTEN_BYTES -> Signal.DISK_WRITE_BYTES;
      case DISK_IO_TIME -> Signal.DISK_UTILIZATION;
      default -> null;
    };
    joins.hold(d, ts, signal, rate, 1, out);
    int part = switch (k) {
      case DISK_READS -> 0;
      case DISK_WRITES -> 1;
      case DISK_READ_TIME -> 2;
      case DISK_WRITE_TIME -> 3;
      default -> -1;
    };
    if (part >= 0) {
      d.latency.add(part, ts, prevTs, v - prev, !Double.isNaN(rate),
          slot -> latencyDone(d, slot, out));
    }
  }

  private void latencyDone(Disk d, PartsAtTime.Slot slot, Consumer<Observation> out) {
    double ops = slot.values[0] + slot.values[1];
    if (ops > 0) {
      double timeS = slot.values[2] + slot.values[3];
      joins.hold(d, slot.ts, Signal.DISK_LATENCY, timeS * 1000.0 / ops, 0, out);
    }
  }

  void onSeriesEnd(Series s, Consumer<Observation> out) {
    Disk d = s.disk();
    int part = switch (s.rule.kind()) {
      case DISK_READS -> 0;
      case DISK_WRITES -> 1;
      case DISK_READ_TIME -> 2;
      case DISK_WRITE_TIME -> 3;
      default -> -1;
    };
    if (part >= 0) {
      d.latency.end(part, slot -> latencyDone(d, slot, out));
    }
    if (--d.refs <= 0) {
      disks.remove(d.key);
    }
  }

  int size() {
    return disks.size();
  }

  /** Host part of a Prometheus {@code instance}: strips {@code :port} and IPv6 brackets. */
  static String instanceHost(String instance) {
    if (instance == null || instance.isEmpty()) {
      return null;
    }
    if (instance.charAt(0) == '[') {
      int close = instance.indexOf(']');
      return close > 0 ? instance.substring(1, close) : instance;
    }
    int colon = instance.indexOf(':');
    if (colon >= 0 && colon == instance.lastIndexOf(':')) {
      return instance.substring(0, colon);
    }
    return instance; // no port, or a bare IPv6 address
  }

  /** One disk of one node. */
  static final class Disk extends JoinedSource {
    final String key;
    final PartsAtTime latency;
    int refs;
    /** Flink host spellings of the node label and the instance host (null when absent). */
    private final String byNodeLabel;
    private final String byInstance;
    private final List<String> aliased;

    Disk(String cluster, String key, String name, String nodeLabel, String instanceHost,
        HostAliases aliases, Placement placement) {
      super(cluster, "node:" + name, placement.progress(cluster));
      this.key = key;
      this.latency = new PartsAtTime(4, 15, placement.maxLagMs());
      this.byNodeLabel = nodeLabel == null ? null : cluster + sanitize(nodeLabel);
      this.byInstance = instanceHost == null ? null : cluster + sanitize(instanceHost);
      List<String> a = new java.util.ArrayList<>();
      for (String h : aliases.flinkHostsOn(nodeLabel)) {
        a.add(cluster + h);
      }
      for (String h : aliases.flinkHostsOn(instanceHost)) {
        a.add(cluster + h);
      }
      this.aliased = List.copyOf(a);
    }

    @Override
    int groups() {
      return 3;
    }

    @Override
    String join(int group) {
      return group == 0 ? JOIN_HOST_LABEL : group == 1 ? JOIN_INSTANCE_HOST : JOIN_CONFIG;
    }

    @Override
    void stays(int group, Placement placement, List<Stay> out) {
      switch (group) {
        case 0 -> placement.staysOnHost(byNodeLabel, out);
        case 1 -> placement.staysOnHost(byInstance, out);
        default -> aliased.forEach(h -> placement.staysOnHost(h, out));
      }
    }

  }
}
