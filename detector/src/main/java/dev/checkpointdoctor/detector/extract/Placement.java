package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.SignalExtractor.NONE;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Where jobs ran, in event time: per cluster, the {@link Stay}s of jobs on TaskManagers (tm_id)
 * and hosts, vouched for by Flink's task and operator series, and which TaskManagers run on which
 * host (from their JVM series). Also how far each source of a cluster has got, which tells
 * joins when what they wait for is known or no longer worth waiting for.
 *
 * <p>Keys are the cluster prefix (see {@code JobIdentity#prefix}) followed by the tm_id or host.
 */
final class Placement {
  /** How far each source of one cluster has got: its newest sample timestamp. */
  static final class Progress {
    long flink = NONE;
    long tm = NONE;
    long node = NONE;
    long container = NONE;

    long oldest() {
      long o = Long.MAX_VALUE;
      for (long t : new long[] {flink, tm, node, container}) {
        if (t != NONE) {
          o = Math.min(o, t);
        }
      }
      return o == Long.MAX_VALUE ? NONE : o;
    }
  }

  private final long maxLagMs;
  private final Map<String, Map<String, Stay>> onTm = new HashMap<>();
  private final Map<String, Map<String, Stay>> onHost = new HashMap<>();
  private final RefIndex hostTms = new RefIndex();
  private final Map<String, Progress> clusters = new HashMap<>();
  private int stays;
  /** Bumped whenever a stay or a host's TaskManager appears or goes: cached look-ups renew. */
  private long version;

  Placement(long maxLagMs) {
    this.maxLagMs = maxLagMs;
  }

  long maxLagMs() {
    return maxLagMs;
  }

  long version() {
    return version;
  }

  Progress progress(String cluster) {
    return clusters.computeIfAbsent(cluster, k -> new Progress());
  }

  Stay onTm(String tmKey, String job) {
    return stay(onTm, tmKey, job);
  }

  Stay onHost(String hostKey, String job) {
    return stay(onHost, hostKey, job);
  }

  private Stay stay(Map<String, Map<String, Stay>> index, String key, String job) {
    Map<String, Stay> jobs = index.computeIfAbsent(key, k -> new HashMap<>(4));
    Stay s = jobs.get(job);
    if (s == null) {
      s = new Stay(job);
      jobs.put(job, s);
      stays++;
      version++;
    }
    return s;
  }

  void addTmOnHost(String hostKey, String tmKey) {
    hostTms.add(hostKey, tmKey);
    version++;
  }

  void removeTmOnHost(String hostKey, String tmKey) {
    hostTms.remove(hostKey, tmKey);
    version++;
  }

  /** Adds the stays of jobs on a TaskManager to {@code out}. */
  void staysOnTm(String tmKey, List<Stay> out) {
    Map<String, Stay> jobs = tmKey == null ? null : onTm.get(tmKey);
    if (jobs != null) {
      out.addAll(jobs.values());
    }
  }

  /** Adds the stays of jobs on a host: directly, and through the TaskManagers running there. */
  void staysOnHost(String hostKey, List<Stay> out) {
    if (hostKey == null) {
      return;
    }
    Map<String, Stay> jobs = onHost.get(hostKey);
    if (jobs != null) {
      out.addAll(jobs.values());
    }
    for (String tmKey : hostTms.get(hostKey)) {
      staysOnTm(tmKey, out);
    }
  }

  /**
   * Forgets stays that ended longer ago than any sample still to be joined can be: more than
   * twice the delivery lag before the slowest source of their cluster.
   */
  void prune() {
    int before = stays;
    prune(onTm);
    prune(onHost);
    if (stays != before) {
      version++;
    }
  }

  private void prune(Map<String, Map<String, Stay>> index) {
    Iterator<Map.Entry<String, Map<String, Stay>>> it = index.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Map<String, Stay>> e = it.next();
      long oldest = horizon(e.getKey());
      if (oldest == NONE) {
        continue;
      }
      Iterator<Stay> s = e.getValue().values().iterator();
      while (s.hasNext()) {
        Stay stay = s.next();
        if (stay.closed() && stay.end() != NONE && stay.end() < oldest - 2 * maxLagMs) {
          s.remove();
          stays--;
        }
      }
      if (e.getValue().isEmpty()) {
        it.remove();
      }
    }
  }

  private long horizon(String key) {
    // the cluster prefix ends at the last '/' of the key (hosts and tm_ids have none after it)
    int slash = key.lastIndexOf('/');
    Progress p = clusters.get(slash < 0 ? "" : key.substring(0, slash + 1));
    return p == null ? NONE : p.oldest();
  }

  int size() {
    return stays + hostTms.size();
  }
}
