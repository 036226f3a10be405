package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which node_exporter and cAdvisor series of a replay joined no job, and the {@code --host-alias}
 * that would join them. A node joins a job when its {@code node}/{@code nodename} label or its
 * {@code instance} host is the {@code host} label of one of the job's TaskManagers (a pod when it
 * is a TaskManager's {@code tm_id}); a recording made where those names differ (a MiniCluster
 * reports the host "minicluster", node_exporter "127.0.0.1") replays without its disks unless
 * told, and its diagnosis then differs from the live one.
 */
final class JoinReport {
  /** Devices the detector ignores (RAM disks, loop devices …), as it does. */
  private static final Pattern SKIPPED_DEVICE = Pattern.compile("^(ram|loop|fd|zram|sr)\\d*");

  private final SignalCatalog catalog;
  /** Node name to its disks, from node_exporter series. */
  private final Map<String, Set<String>> nodes = new TreeMap<>();
  private final Set<String> pods = new TreeSet<>();
  /** Flink {@code host} labels of TaskManager, task and operator series. */
  private final Set<String> flinkHosts = new TreeSet<>();
  private final Set<String> tmIds = new TreeSet<>();

  JoinReport(SignalCatalog catalog) {
    this.catalog = catalog;
  }

  /** Notes one distinct series. */
  void see(Labels labels) {
    MetricRule rule = catalog.ruleFor(labels.metricName());
    if (rule == null) {
      return;
    }
    switch (rule.kind().source()) {
      case NODE -> {
        String node = nonEmpty(labels.get("node"));
        node = node != null ? node : nonEmpty(labels.get("nodename"));
        node = node != null ? node : instanceHost(labels.get("instance"));
        String device = labels.getOrDefault("device", "");
        if (node != null && !SKIPPED_DEVICE.matcher(device).lookingAt()) {
          nodes.computeIfAbsent(node, k -> new TreeSet<>()).add(device);
        }
      }
      case CONTAINER -> {
        String pod = nonEmpty(labels.get("pod"));
        pod = pod != null ? pod : nonEmpty(labels.get("pod_name"));
        if (pod != null) {
          pods.add(pod);
        }
      }
      case JOB -> { }
      default -> {
        String host = nonEmpty(labels.get("host"));
        if (host != null) {
          flinkHosts.add(host);
        }
        String tm = nonEmpty(labels.get("tm_id"));
        if (tm != null) {
          tmIds.add(tm);
        }
      }
    }
  }

  /**
   * Lines for people when node or container samples joined no job (none otherwise): which ones,
   * why, and the flag that fixes it.
   */
  List<String> lines(Detector detector, Map<String, String> aliases) {
    if (detector.unjoinedSamples() == 0) {
      return List.of();
    }
    Set<String> joinedNodes = new TreeSet<>();
    Set<String> joinedPods = new TreeSet<>();
    for (JobSummary j : detector.jobs()) {
      for (BaselineSummary b : detector.baselines(j.job())) {
        if (b.scope().startsWith("node:")) {
          joinedNodes.add(owner(b.scope(), "node:"));
        } else if (b.scope().startsWith("container:")) {
          joinedPods.add(owner(b.scope(), "container:"));
        }
      }
    }
    List<String> unjoinedNodes = new ArrayList<>(nodes.keySet());
    unjoinedNodes.removeAll(joinedNodes);
    List<String> unjoinedPods = new ArrayList<>(pods);
    unjoinedPods.removeAll(joinedPods);
    List<String> out = new ArrayList<>();
    out.add(String.format(Locale.ROOT, "joins: %,d node_exporter/cAdvisor samples joined no job,"
        + " so their disks and containers were not used in any diagnosis.",
        detector.unjoinedSamples()));
    for (String node : unjoinedNodes) {
      out.add("  node " + node + " (disks " + String.join(", ", nodes.get(node)) + "): no "
          + "TaskManager's host label is \"" + node + "\"");
    }
    for (String pod : unjoinedPods) {
      out.add("  pod " + pod + ": no TaskManager's tm_id is \"" + pod + "\"");
    }
    out.add("  Flink TaskManager hosts in the recording: " + list(flinkHosts)
        + (aliases.isEmpty() ? "" : "; --host-alias given: " + aliases));
    String example = example(unjoinedNodes, unjoinedPods);
    if (example != null) {
      out.add("  If a node is a TaskManager's machine under another name, map it and replay "
          + "again: " + example);
    }
    return out;
  }

  /** The flag for the likeliest pairing: with one Flink host, every unjoined node is it. */
  private String example(List<String> unjoinedNodes, List<String> unjoinedPods) {
    if (flinkHosts.isEmpty() || (unjoinedNodes.isEmpty() && unjoinedPods.isEmpty())) {
      return null;
    }
    List<String> flags = new ArrayList<>();
    if (flinkHosts.size() == 1) {
      String host = flinkHosts.iterator().next();
      for (String node : unjoinedNodes) {
        flags.add("--host-alias " + host + "=" + node);
      }
    } else if (!unjoinedNodes.isEmpty()) {
      flags.add("--host-alias FLINK_HOST=" + unjoinedNodes.get(0)
          + " (FLINK_HOST one of " + list(flinkHosts) + ")");
    }
    if (flags.isEmpty()) {
      return null;
    }
    return String.join(" ", flags);
  }

  private static String owner(String scope, String prefix) {
    String rest = scope.substring(prefix.length());
    int slash = rest.lastIndexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }

  private static String list(Collection<String> names) {
    return names.isEmpty() ? "(none)" : String.join(", ", names);
  }

  private static String instanceHost(String instance) {
    if (instance == null || instance.isEmpty()) {
      return null;
    }
    int colon = instance.indexOf(':');
    if (colon >= 0 && colon == instance.lastIndexOf(':')) {
      return nonEmpty(instance.substring(0, colon));
    }
    return instance;
  }

  private static String nonEmpty(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
