package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.detector.catalog.MetricRule.Source;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * PromQL for the catalog's series, by where they come from: a job's checkpoint gauges (the
 * JobManager's), a job's per-scrape series (tasks, RocksDB), and the series jobs share with others
 * (TaskManager JVMs, node_exporter disks, cAdvisor containers). Built from the catalog, so they
 * read exactly what the detector uses.
 *
 * <p>A tier may need several selectors (a disk is joined by {@code instance}, {@code node} or
 * {@code nodename}); its value query joins them with {@code or}.
 */
final class Selectors {
  private final List<String> checkpointNames;
  private final List<String> jobScrapeNames;
  private final String operatorPattern;
  private final List<String> tmNames;
  private final String gcPattern;
  private final List<String> nodeNames;
  private final List<String> containerNames;

  Selectors(SignalCatalog catalog) {
    List<String> patterns = catalog.patternRules();
    operatorPattern = patterns.stream().filter(p -> p.startsWith("flink_taskmanager_job"))
        .findFirst().orElse(null);
    gcPattern = patterns.stream().filter(p -> p.startsWith("flink_taskmanager_Status"))
        .findFirst().orElse(null);
    checkpointNames = names(catalog, EnumSet.of(Source.JOB));
    jobScrapeNames = names(catalog,
        EnumSet.of(Source.TASK, Source.ROCKSDB_CF, Source.ROCKSDB_OPERATOR));
    tmNames = names(catalog, EnumSet.of(Source.TM));
    // node_exporter's file systems (mount facts) come from the same hosts as its disks
    nodeNames = names(catalog, EnumSet.of(Source.NODE, Source.MOUNT));
    containerNames = names(catalog, EnumSet.of(Source.CONTAINER));
  }

  private static List<String> names(SignalCatalog catalog, Set<Source> sources) {
    TreeSet<String> exact = new TreeSet<>();
    for (String n : catalog.exactNames()) {
      if (sources.contains(catalog.ruleFor(n).kind().source())) {
        exact.add(n);
      }
    }
    return List.copyOf(exact);
  }

  /** The JobManager's checkpoint gauges of one job (read for the whole window). */
  Target.Tier jobCheckpoints(String job) {
    String m = "job_name=\"" + quote(job) + "\"";
    Target.Tier t = tier(checkpointNames, null, List.of(m), true);
    return new Target.Tier(t.selectors(), true,
        "flink_jobmanager_job_numberOfCompletedCheckpoints{" + m + "}");
  }

  /** One job's per-scrape series: tasks, operators, RocksDB. */
  Target.Tier jobScrapes(String job) {
    String m = "job_name=\"" + quote(job) + "\"";
    return tier(jobScrapeNames, operatorPattern, List.of(m), false);
  }

  /** Every job's checkpoint gauges: to list the jobs. */
  String allCheckpoints() {
    return "{__name__=~\"" + String.join("|", checkpointNames) + "\"}";
  }

  /** TaskManager JVM series of these TaskManagers. */
  Target.Tier taskManagers(Collection<String> tmIds) {
    return tier(tmNames, gcPattern, List.of("tm_id=~\"" + alternatives(tmIds, false) + "\""),
        false);
  }

  /**
   * node_exporter disk series of these hosts, joined as the extractor joins them: the host part
   * of {@code instance}, or a {@code node}/{@code nodename} label. Flink writes its host label
   * with every character outside {@code [a-zA-Z0-9:_]} replaced by '_', so '_' in a Flink host
   * matches any character; exact node names (from --host-alias) are taken as they are.
   */
  Target.Tier nodes(Collection<String> flinkHosts, Collection<String> exactNodes) {
    String hosts = both(flinkHosts, exactNodes);
    return tier(nodeNames, null, List.of("instance=~\"(?:" + hosts + ")(?::[0-9]+)?\"",
        "node=~\"" + hosts + "\"", "nodename=~\"" + hosts + "\""), false);
  }

  /** cAdvisor CPU series of these pods (on Kubernetes a TaskManager's id is its pod name). */
  Target.Tier containers(Collection<String> tmIds, Collection<String> exactPods) {
    String pods = both(tmIds, exactPods);
    return tier(containerNames, null, List.of("pod=~\"" + pods + "\"",
        "pod_name=~\"" + pods + "\""), false);
  }

  private static Target.Tier tier(List<String> names, String pattern, List<String> matcherSets,
      boolean wholeWindow) {
    String nameRegex = String.join("|", names) + (pattern == null ? "" : "|" + pattern);
    List<String> selectors = new ArrayList<>();
    for (String m : matcherSets) {
      selectors.add("{__name__=~\"" + nameRegex + "\"," + m + "}");
    }
    return new Target.Tier(selectors, wholeWindow);
  }

  private static String both(Collection<String> sanitized, Collection<String> exact) {
    String a = alternatives(sanitized, true);
    String b = alternatives(exact, false);
    return a.isEmpty() ? b : b.isEmpty() ? a : a + "|" + b;
  }

  /** {@code a|b|c} with regex characters escaped; '_' matches any character when asked. */
  static String alternatives(Collection<String> values, boolean underscoreIsAny) {
    StringBuilder sb = new StringBuilder();
    for (String v : new TreeSet<>(values)) {
      if (sb.length() > 0) {
        sb.append('|');
      }
      for (int i = 0; i < v.length(); i++) {
        char c = v.charAt(i);
        if (underscoreIsAny && c == '_') {
          sb.append('.');
        } else if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
          sb.append("\\\\").append(c); // a backslash for the regex, escaped for the string
        } else if (c == '"') {
          sb.append("\\\"");
        } else {
          sb.append(c);
        }
      }
    }
    return sb.toString();
  }

  /** A label value inside double quotes. */
  static String quote(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
