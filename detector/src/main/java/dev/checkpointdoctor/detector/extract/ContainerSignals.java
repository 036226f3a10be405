package dev.checkpointdoctor.detector.extract;

import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.extract.SignalExtractor.Series;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * cAdvisor CFS counters: the share of scheduler periods a container was throttled in, per
 * scrape. A container serves the jobs of the TaskManager it is (on Kubernetes the pod name is the
 * TaskManager's tm_id), else of the Flink host {@code --host-alias} names for the pod.
 */
final class ContainerSignals {
  public static final String JOIN_POD_TM_ID = "pod_tm_id";
  private static final int PERIODS = 0;
  private static final int THROTTLED = 1;

  private final Placement placement;
  private final PendingJoins joins;
  private final HostAliases aliases;
  private final Map<String, Container> containers = new HashMap<>();

  ContainerSignals(Placement placement, PendingJoins joins, HostAliases aliases) {
    this.placement = placement;
    this.joins = joins;
    this.aliases = aliases;
  }

  /** Fills in a new container series; returns false to skip it (no pod, the pause container). */
  boolean create(Series s, Labels labels, String cluster) {
    String pod = SignalExtractor.nonEmpty(labels.get("pod"));
    if (pod == null) {
      pod = SignalExtractor.nonEmpty(labels.get("pod_name"));
    }
    String container = labels.get("container");
    if (container == null) {
      container = labels.getOrDefault("container_name", "");
    }
    if (pod == null || container.equals("POD")) {
      return false;
    }
    String name = pod + "/" + container;
    String key = cluster + name;
    Container c = containers.get(key);
    if (c == null) {
      c = new Container(cluster, key, name, pod, aliases, placement);
      containers.put(key, c);
    }
    c.refs++;
    s.container(c);
    s.cluster = cluster;
    s.scope = c.scope;
    return true;
  }

  void onSample(Series s, long ts, double v, Consumer<Observation> out) {
    Container c = s.container();
    if (ts > c.progress.container) {
      c.progress.container = ts;
    }
    long prevTs = s.lastTs;
    double prev = s.last;
    double rate = s.rate(ts, v);
    joins.hold(c, ts, null, 0, 1, out);
    int part = s.rule.kind() == Kind.CFS_PERIODS ? PERIODS : THROTTLED;
    c.cfs.add(part, ts, prevTs, v - prev, !Double.isNaN(rate), slot -> cfsDone(c, slot, out));
  }

  private void cfsDone(Container c, PartsAtTime.Slot slot, Consumer<Observation> out) {
    double periods = slot.values[PERIODS];
    if (periods > 0) {
      joins.hold(c, slot.ts, Signal.CPU_THROTTLING, slot.values[THROTTLED] / periods, 0, out);
    }
  }

  void onSeriesEnd(Series s, Consumer<Observation> out) {
    Container c = s.container();
    c.cfs.end(s.rule.kind() == Kind.CFS_PERIODS ? PERIODS : THROTTLED,
        slot -> cfsDone(c, slot, out));
    if (--c.refs <= 0) {
      containers.remove(c.key);
    }
  }

  int size() {
    return containers.size();
  }

  /** One container of one pod. */
  static final class Container extends JoinedSource {
    final String key;
    final PartsAtTime cfs;
    int refs;
    private final String asTm;
    private final List<String> aliased;

    Container(String cluster, String key, String name, String pod, HostAliases aliases,
        Placement placement) {
      super(cluster, "container:" + name, placement.progress(cluster));
      this.key = key;
      this.cfs = new PartsAtTime(2, 3, placement.maxLagMs());
      this.asTm = cluster + SignalExtractor.sanitize(pod);
      List<String> a = new java.util.ArrayList<>();
      String node = aliases.nodeOf(pod);
      if (node != null) {
        a.add(cluster + node);
      }
      for (String h : aliases.flinkHostsOn(pod)) {
        a.add(cluster + h);
      }
      this.aliased = List.copyOf(a);
    }

    @Override
    int groups() {
      return 2;
    }

    @Override
    String join(int group) {
      return group == 0 ? JOIN_POD_TM_ID : NodeSignals.JOIN_CONFIG;
    }

    @Override
    void stays(int group, Placement placement, List<Stay> out) {
      if (group == 0) {
        placement.staysOnTm(asTm, out);
      } else {
        aliased.forEach(h -> placement.staysOnHost(h, out));
      }
    }

  }
}
