package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.eval.family2.JobGraph.Vertex;
import dev.checkpointdoctor.eval.family2.JobPlan.RocksShape;
import dev.checkpointdoctor.eval.family2.Series.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The label sets Prometheus stores for each target of the job: Flink's reporter variables
 * (filtered label values), then the target labels of the scrape config. Only metric names the
 * deploy config's {@code write_relabel_configs} keeps are built: everything else Flink exports
 * never reaches the service.
 */
final class SeriesBuilder {
  static final String CF_PREFIX = "flink_taskmanager_job_task_operator_column_family_rocksdb_";
  static final String OPERATOR_PREFIX = "flink_taskmanager_job_task_operator_";
  static final String GC_PREFIX = "flink_taskmanager_Status_JVM_GarbageCollector_";

  private final JobPhysics job;

  SeriesBuilder(JobPhysics job) {
    this.job = job;
  }

  List<Series> jobManager(Deployment d, Map<String, String> target) {
    List<Series> out = new ArrayList<>();
    Map<String, String> base = new LinkedHashMap<>();
    base.put("host", Names.sanitize(hostOf(target.get("instance"))));
    base.put("job_id", d.jobId);
    base.put("job_name", job.plan.jobName());
    base.putAll(target);
    for (Kind k : new Kind[] {Kind.CP_DURATION, Kind.CP_SIZE, Kind.CP_FULL_SIZE,
        Kind.CP_PERSISTED, Kind.CP_COMPLETED_ID, Kind.CP_COMPLETED, Kind.CP_FAILED,
        Kind.CP_IN_PROGRESS, Kind.CP_COMPLETED_TS, Kind.RESTARTS}) {
      if (k == Kind.CP_COMPLETED_TS && !job.plan.cluster().version().hasCompletedTimestamp()) {
        continue;
      }
      out.add(new Series(labels(k.metric, base), k, 0, 0, 0));
    }
    return out;
  }

  /** A TaskManager's JVM series, and its subtasks' series when {@code withTasks}. */
  List<Series> taskManager(Deployment d, int k, boolean withTasks) {
    Layout.Tm tm = d.tms.get(k);
    List<Series> out = new ArrayList<>();
    Map<String, String> base = new LinkedHashMap<>();
    base.put("host", tm.host());
    base.put("tm_id", tm.tmId());
    base.putAll(tm.target());
    out.add(new Series(labels(Kind.GC_RATE.metric, base), Kind.GC_RATE, k, 0, 0));
    String[] collectors = d.jvms.get(k).collectors;
    for (int c = 0; c < collectors.length; c++) {
      out.add(new Series(labels(GC_PREFIX + collectors[c] + "_Time", base), Kind.GC_TIME, k, c,
          0));
    }
    out.add(new Series(labels(Kind.HEAP_USED.metric, base), Kind.HEAP_USED, k, 0, 0));
    out.add(new Series(labels(Kind.HEAP_MAX.metric, base), Kind.HEAP_MAX, k, 0, 0));
    if (!withTasks) {
      return out;
    }
    for (int i = 0; i < d.parallelism; i++) {
      if (d.tmOf(i) != k) {
        continue;
      }
      for (int v = 0; v < job.graph.size(); v++) {
        Vertex vx = job.graph.get(v);
        Map<String, String> task = new LinkedHashMap<>();
        task.put("host", tm.host());
        task.put("job_id", d.jobId);
        task.put("job_name", job.plan.jobName());
        task.put("subtask_index", Integer.toString(i));
        task.put("task_attempt_id", d.taskAttemptId(vx.taskId(), i));
        task.put("task_attempt_num", Integer.toString(d.attempt));
        task.put("task_id", vx.taskId());
        task.put("task_name", vx.taskName());
        task.put("tm_id", tm.tmId());
        task.putAll(tm.target());
        for (Kind kind : new Kind[] {Kind.START_DELAY, Kind.ALIGNMENT, Kind.BACKPRESSURED,
            Kind.BUSY, Kind.RECORDS_IN}) {
          out.add(new Series(labels(kind.metric, task), kind, v, i, 0));
        }
        if (d.rocks[v] != null) {
          rocks(out, task, vx, v, i);
        }
      }
    }
    return out;
  }

  private void rocks(List<Series> out, Map<String, String> task, Vertex vx, int v, int i) {
    Map<String, String> op = new LinkedHashMap<>(task);
    op.put("operator_id", vx.operatorId());
    op.put("operator_name", vx.operatorName());
    out.add(new Series(labels(Kind.RDB_STALL.metric, op), Kind.RDB_STALL, v, i, 0));
    boolean asLabel = job.plan.cluster().rocksShape() == RocksShape.COLUMN_FAMILY_LABEL;
    List<String> states = vx.states();
    for (int c = 0; c < states.size(); c++) {
      String cf = Names.sanitize(states.get(c));
      for (Kind kind : new Kind[] {Kind.RDB_PENDING, Kind.RDB_DELAYED, Kind.RDB_STOPPED,
          Kind.RDB_L0}) {
        if (asLabel) {
          Map<String, String> l = new LinkedHashMap<>(op);
          l.put("column_family", cf);
          out.add(new Series(labels(CF_PREFIX + kind.metric, l), kind, v, i, c));
        } else {
          out.add(new Series(labels(OPERATOR_PREFIX + cf + "_rocksdb_" + kind.metric, op), kind,
              v, i, c));
        }
      }
    }
  }

  List<Series> nodeExporter(int n) {
    List<Series> out = new ArrayList<>();
    Layout.Node node = job.layout.nodes.get(n);
    for (int disk = 0; disk < 2; disk++) {
      DiskVolume vol = disk == 0 ? job.data[n] : job.root[n];
      Map<String, String> l = new LinkedHashMap<>();
      l.put("device", vol.device);
      l.putAll(node.nodeExporterTarget());
      for (Kind k : new Kind[] {Kind.DISK_READS, Kind.DISK_WRITES, Kind.DISK_WRITTEN_BYTES,
          Kind.DISK_IO_TIME, Kind.DISK_READ_TIME, Kind.DISK_WRITE_TIME}) {
        out.add(new Series(labels(k.metric, l), k, n, disk, 0));
      }
    }
    return out;
  }

  /** The job's TaskManager containers (and pod cgroups) on node {@code n}. */
  List<Series> kubelet(Deployment d, int n, List<Layout.Tm> neighbours) {
    List<Series> out = new ArrayList<>();
    Layout.Node node = job.layout.nodes.get(n);
    if (d != null) {
      for (int k = 0; k < d.tms.size(); k++) {
        Layout.Tm tm = d.tms.get(k);
        if (tm.node() != node) {
          continue;
        }
        for (boolean container : new boolean[] {true, false}) {
          Map<String, String> l = job.layout.cadvisorLabels(tm, container);
          out.add(new Series(labels(Kind.CFS_PERIODS.metric, l), Kind.CFS_PERIODS, k, 0, 0));
          out.add(new Series(labels(Kind.CFS_THROTTLED.metric, l), Kind.CFS_THROTTLED, k, 0, 0));
        }
      }
    }
    for (int j = 0; j < neighbours.size(); j++) {
      Layout.Tm other = neighbours.get(j);
      if (other.node() != node) {
        continue;
      }
      Map<String, String> l = new LinkedHashMap<>(node.kubeletTarget());
      l.put("namespace", "logging");
      l.put("pod", other.pod());
      l.put("container", "fluent-bit");
      l.put("image", "cr.fluentbit.io/fluent/fluent-bit:3.1.9");
      l.put("name", other.containerId());
      l.put("id", "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
          + other.podUid().replace('-', '_') + ".slice/cri-containerd-" + other.containerId()
          + ".scope");
      out.add(new Series(labels(Kind.CFS_PERIODS.metric, l), Kind.CFS_PERIODS, -1 - j, 0, 0));
      out.add(new Series(labels(Kind.CFS_THROTTLED.metric, l), Kind.CFS_THROTTLED, -1 - j, 0, 0));
    }
    return out;
  }

  static String hostOf(String instance) {
    int colon = instance.lastIndexOf(':');
    return colon > 0 ? instance.substring(0, colon) : instance;
  }

  private static Labels labels(String name, Map<String, String> rest) {
    Map<String, String> m = new LinkedHashMap<>(rest);
    m.put(Labels.METRIC_NAME, name);
    return Labels.fromMap(m).interned();
  }
}
