package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.Labels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Learns from one replica of a Prometheus HA pair. Both replicas scrape the same targets at
 * their own phase and remote-write, their series differing only in the replica label. Per source
 * (a Flink job, a TaskManager, a node_exporter, a pod's cAdvisor series) of each cluster, the
 * first replica heard is elected; its series pass on without the replica label, so the detector
 * sees one series per metric. The other replica's samples are dropped and counted ({@code
 * ha_replica_standby}), except those newer than anything the elected replica sent: they are held
 * for a moment.
 *
 * <p>When a standby replica's newest sample is more than the failover timeout ahead of the
 * elected one's (event time: the elected replica has sent nothing for that long, measured in the
 * samples' own timestamps, so a replay fails over exactly as the live run did), the standby is
 * elected. Its held samples newer than the old replica's newest are released first, in arrival
 * order: nothing between the two replicas' last and first sample is lost, and nothing the old
 * replica sent is learned twice (per series, the detector drops anything not newer than what it
 * has).
 */
final class ReplicaElection {
  private static final Logger logger = Logger.getLogger(ReplicaElection.class.getName());
  private static final long NONE = Long.MIN_VALUE;
  /** Standby samples held at once, over all sources; beyond, standby samples are dropped. */
  static final int MAX_HELD = 1_000_000;

  interface Sink {
    void accept(Labels labels, long[] timestamps, double[] values, int from, int to);
  }

  /** What a raw label set is: its label set without the replica label, its source, replica. */
  private record Incoming(Labels merged, Source source, String replica) {}

  private record Held(Incoming in, long ts, double value) {}

  private static final class Source {
    final String key;
    String elected;
    final Map<String, long[]> newest = new HashMap<>(4);
    List<Held> held = new ArrayList<>();
    boolean holding;
    /** Label sets of either replica remembered for this source that have not ended. */
    int series;

    Source(String key) {
      this.key = key;
    }

    long newest(String replica) {
      long[] n = newest.get(replica);
      return n == null ? NONE : n[0];
    }

    void saw(String replica, long ts) {
      long[] n = newest.computeIfAbsent(replica, r -> new long[] {NONE});
      if (ts > n[0]) {
        n[0] = ts;
      }
    }
  }

  private final String replicaLabel;
  private final long failoverMs;
  private final SignalCatalog catalog;
  private final JobIdentity identity;
  private final DetectorStats stats;
  private final Map<Labels, Incoming> incoming = new HashMap<>();
  private final Map<String, Source> sources = new HashMap<>();
  private final List<Source> holding = new ArrayList<>();
  private final long[] one = new long[1];
  private final double[] oneValue = new double[1];
  private int maxIncoming = Integer.MAX_VALUE;
  private int held;

  ReplicaElection(String replicaLabel, long failoverMs, SignalCatalog catalog,
      JobIdentity identity, DetectorStats stats) {
    this.replicaLabel = replicaLabel;
    this.failoverMs = failoverMs;
    this.catalog = catalog;
    this.identity = identity;
    this.stats = stats;
  }

  /** Caps the raw label sets remembered (both replicas' series). */
  void limit(int maxLabelSets) {
    this.maxIncoming = maxLabelSets;
  }

  void accept(Labels raw, long[] ts, double[] values, int from, int to, Sink sink) {
    Incoming in = incoming.get(raw);
    if (in == null) {
      in = classify(raw);
      if (incoming.size() < maxIncoming) {
        incoming.put(raw, in);
        if (in.source != null) {
          in.source.series++;
        }
      }
    }
    Source src = in.source;
    if (src == null) {
      sink.accept(in.merged, ts, values, from, to);
      return;
    }
    if (src.elected == null) {
      src.elected = in.replica;
    }
    boolean ends = false;
    if (in.replica.equals(src.elected)) {
      for (int i = from; i < to; i++) {
        src.saw(in.replica, ts[i]);
        ends |= Double.doubleToRawLongBits(values[i]) == Detector.STALE_NAN_BITS;
      }
      sink.accept(in.merged, ts, values, from, to);
    } else {
      long electedNewest = src.newest(src.elected);
      for (int i = from; i < to; i++) {
        src.saw(in.replica, ts[i]);
        ends |= Double.doubleToRawLongBits(values[i]) == Detector.STALE_NAN_BITS;
        if (ts[i] <= electedNewest || held >= MAX_HELD) {
          stats.haStandby.incrementAndGet();
        } else {
          src.held.add(new Held(in, ts[i], values[i]));
          held++;
          if (!src.holding) {
            src.holding = true;
            holding.add(src);
          }
        }
      }
      if (src.newest(in.replica) > electedNewest + failoverMs) {
        failover(src, in.replica, sink);
      }
    }
    if (ends && incoming.remove(raw) != null) { // a stale marker ended the series
      src.series--;
      forgetIfDone(src);
    }
  }

  /**
   * A source whose series of both replicas all ended is forgotten (TaskManagers and pods churn);
   * what it still held (a standby's last samples) will never be needed and counts as standby.
   */
  private void forgetIfDone(Source src) {
    if (src.series > 0) {
      return;
    }
    held -= src.held.size();
    stats.haStandby.addAndGet(src.held.size());
    src.held = new ArrayList<>();
    sources.remove(src.key);
  }

  private void failover(Source src, String replica, Sink sink) {
    String old = src.elected;
    long cut = src.newest(old);
    src.elected = replica;
    stats.haFailovers.incrementAndGet();
    logger.info("HA failover for " + src.key + ": replica " + old + " sent nothing after "
        + Instant.ofEpochMilli(cut) + "; learning from " + replica);
    List<Held> keep = new ArrayList<>();
    for (Held h : src.held) {
      if (!h.in.replica.equals(replica)) {
        keep.add(h);
        continue;
      }
      held--;
      if (h.ts > cut) {
        one[0] = h.ts;
        oneValue[0] = h.value;
        sink.accept(h.in.merged, one, oneValue, 0, 1);
      } else {
        stats.haStandby.incrementAndGet();
      }
    }
    src.held = keep;
  }

  /** Drops held samples the elected replica has since caught up with (end of each batch). */
  void prune() {
    int kept = 0;
    for (int i = 0; i < holding.size(); i++) {
      Source src = holding.get(i);
      long electedNewest = src.newest(src.elected);
      List<Held> keep = new ArrayList<>();
      for (Held h : src.held) {
        if (h.ts <= electedNewest) {
          held--;
          stats.haStandby.incrementAndGet();
        } else {
          keep.add(h);
        }
      }
      src.held = keep;
      if (keep.isEmpty()) {
        src.holding = false;
      } else {
        holding.set(kept++, src);
      }
    }
    for (int i = holding.size() - 1; i >= kept; i--) {
      holding.remove(i);
    }
  }

  /** Standby samples held for a possible failover. */
  int held() {
    return held;
  }

  /** The replica learned from for each source heard so far. */
  Map<String, String> elected() {
    Map<String, String> out = new HashMap<>();
    sources.forEach((k, s) -> out.put(k, s.elected));
    return out;
  }

  private Incoming classify(Labels raw) {
    int at = -1;
    for (int i = 0; i < raw.size(); i++) {
      if (raw.name(i).equals(replicaLabel)) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      return new Incoming(raw, null, null);
    }
    String[] names = new String[raw.size() - 1];
    String[] vals = new String[raw.size() - 1];
    for (int i = 0, k = 0; i < raw.size(); i++) {
      if (i != at) {
        names[k] = raw.name(i);
        vals[k++] = raw.value(i);
      }
    }
    Labels merged = Labels.of(names, vals).interned();
    MetricRule rule = catalog.ruleFor(merged.metricName());
    if (rule == null) {
      return new Incoming(merged, null, null);
    }
    String key = identity.prefix(merged) + sourceOf(rule, merged);
    Source src = sources.computeIfAbsent(key, Source::new);
    return new Incoming(merged, src, raw.value(at));
  }

  /** The thing a series belongs to, whose series must all come from one replica at a time. */
  private static String sourceOf(MetricRule rule, Labels l) {
    return switch (rule.kind().source()) {
      case JOB, TASK, ROCKSDB_CF, ROCKSDB_OPERATOR -> "job " + l.get("job_name");
      case TM -> "taskmanager " + l.get("tm_id");
      case NODE, MOUNT -> "node " + l.get("instance");
      case CONTAINER -> "pod " + l.get("namespace") + "/"
          + (l.get("pod") != null ? l.get("pod") : l.get("pod_name"));
    };
  }
}
