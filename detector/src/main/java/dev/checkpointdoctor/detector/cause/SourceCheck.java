package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.MissingSource;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The sources a job's diagnosis could not use: node_exporter disks and cAdvisor CFS counters that
 * are absent or not joined to the job's TaskManagers. Without them disk throttling and CPU
 * throttling cannot be judged, and a diagnosis says so (and how to fix it) instead of naming
 * what their consequences look like.
 */
final class SourceCheck {
  /**
   * A TaskManager id as Flink's native Kubernetes mode (and the Kubernetes operator's native
   * mode) sets it: the pod name {@code <cluster-id>-taskmanager-<attempt>-<index>}, which the
   * Prometheus reporter's label filter turns into underscores.
   */
  static final Pattern NATIVE_K8S_TM = Pattern.compile(".+[-_]taskmanager[-_]\\d+[-_]\\d+");
  static final String NODE_FIX = "Scrape node_exporter on every TaskManager host and keep its "
      + "node_disk_* series in the remote_write relabelling (deploy/prometheus/remote-write.yml); "
      + "when the node's name differs from Flink's host label, map it with "
      + "--host-alias FLINK_HOST=NODE (each baseline's join field shows how disks were joined).";
  static final String CADVISOR_FIX = "Scrape the kubelet's /metrics/cadvisor with its pod and "
      + "container labels and keep container_cpu_cfs_periods_total and "
      + "container_cpu_cfs_throttled_periods_total in the remote_write relabelling. The pod name "
      + "must be the TaskManager's tm_id (so it is in Flink's native Kubernetes mode and the "
      + "operator's native mode); otherwise (standalone deployments, whose tm_id is "
      + "<ip>:<port>-<hex>) map each pod with --host-alias FLINK_HOST=POD.";

  private SourceCheck() {}

  static List<MissingSource> check(JobEvidence job) {
    List<MissingSource> out = new ArrayList<>();
    boolean disks = !job.histories(Signal.DISK_UTILIZATION).isEmpty()
        || !job.histories(Signal.DISK_WRITE_IOPS).isEmpty();
    if (!disks) {
      long unjoined = job.view().unjoinedNodeSamples();
      out.add(new MissingSource("node_exporter", Cause.DISK_THROTTLING.id(), unjoined > 0
          ? String.format("node_exporter disk series arrive (%,d samples so far) but none could "
              + "be joined to this job's TaskManager hosts, so a throttled disk cannot be told "
              + "from a RocksDB stall.", unjoined)
          : "No node_exporter disk series are joined to this job, so a throttled disk cannot be "
              + "told from a RocksDB stall.", NODE_FIX));
    }
    if (job.histories(Signal.CPU_THROTTLING).isEmpty()) {
      String pod = kubernetesTaskManager(job);
      long unjoined = job.view().unjoinedContainerSamples();
      if (pod != null || unjoined > 0) {
        out.add(new MissingSource("cadvisor", Cause.CPU_THROTTLING.id(), pod != null
            ? String.format("TaskManager %s runs in a Kubernetes pod, but no cAdvisor CFS series "
                + "of its pod reached the service%s, so CPU throttling cannot be judged.", pod,
                unjoined > 0 ? String.format(" (%,d container samples arrived unjoined)",
                    unjoined) : "")
            : String.format("cAdvisor CFS series arrive (%,d samples so far) but none matched "
                + "this job's TaskManagers, so CPU throttling cannot be judged.", unjoined),
            CADVISOR_FIX));
      }
    }
    return out;
  }

  /** A TaskManager of the job named like a native-Kubernetes pod, or null. */
  private static String kubernetesTaskManager(JobEvidence job) {
    for (Signal s : new Signal[] {Signal.HEAP_USAGE, Signal.GC_TIME}) {
      for (SeriesHistory h : job.histories(s)) {
        String tm = h.scope().startsWith("tm:") ? h.scope().substring(3) : "";
        if (NATIVE_K8S_TM.matcher(tm).matches()) {
          return tm;
        }
      }
    }
    return null;
  }
}
