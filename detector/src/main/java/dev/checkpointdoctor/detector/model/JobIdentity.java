package dev.checkpointdoctor.detector.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What identifies a job: Flink's {@code job_name}, and with identity labels (e.g. {@code
 * cluster}) their values in front of it, joined by {@code /}: {@code eu-1/orders-etl}. Several
 * Flink clusters run jobs of the same name; their series differ in an external label only.
 *
 * <p>A value's own {@code /} and {@code %} are written {@code %2F} and {@code %25}, so a key reads
 * back unambiguously; Flink's reporter already turns every {@code /} of a {@code job_name} into
 * {@code _}. Series of other sources (node_exporter, cAdvisor) carry the same external labels:
 * their {@link #prefix} is the cluster they belong to, and joins to jobs stay inside it.
 */
public final class JobIdentity {
  private final List<String> labels;

  public JobIdentity(List<String> labels) {
    this.labels = List.copyOf(labels);
  }

  public static JobIdentity jobNameOnly() {
    return new JobIdentity(List.of());
  }

  /** The identity labels, in key order. */
  public List<String> labels() {
    return labels;
  }

  public boolean byJobNameOnly() {
    return labels.isEmpty();
  }

  /** The key of the job a series belongs to, or null without a {@code job_name}. */
  public String key(Labels series) {
    String jobName = series.get("job_name");
    if (jobName == null) {
      return null;
    }
    return labels.isEmpty() ? jobName : prefix(series) + jobName;
  }

  /**
   * The cluster of a series: its identity values, each followed by {@code /}; empty without
   * identity labels. A missing label counts as an empty value.
   */
  public String prefix(Labels series) {
    if (labels.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    for (String l : labels) {
      escape(b, series.getOrDefault(l, ""));
      b.append('/');
    }
    return b.toString();
  }

  /** Flink's {@code job_name} of a key. */
  public String jobName(String key) {
    if (labels.isEmpty()) {
      return key;
    }
    return key.substring(key.lastIndexOf('/') + 1);
  }

  /**
   * The identity labels of a key, by name in key order; empty without identity labels or for a
   * key that was not made by {@link #key} under these labels.
   */
  public Map<String, String> labelsOf(String key) {
    Map<String, String> out = new LinkedHashMap<>();
    if (labels.isEmpty()) {
      return out;
    }
    String[] parts = key.split("/", -1);
    if (parts.length != labels.size() + 1) {
      return out;
    }
    for (int i = 0; i < labels.size(); i++) {
      out.put(labels.get(i), unescape(parts[i]));
    }
    return out;
  }

  private static void escape(StringBuilder b, String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c == '/') {
        b.append("%2F");
      } else if (c == '%') {
        b.append("%25");
      } else {
        b.append(c);
      }
    }
  }

  private static String unescape(String v) {
    if (v.indexOf('%') < 0) {
      return v;
    }
    StringBuilder b = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      if (v.startsWith("%2F", i)) {
        b.append('/');
        i += 2;
      } else if (v.startsWith("%25", i)) {
        b.append('%');
        i += 2;
      } else {
        b.append(v.charAt(i));
      }
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return labels.isEmpty() ? "job_name" : String.join(",", labels) + ",job_name";
  }
}
