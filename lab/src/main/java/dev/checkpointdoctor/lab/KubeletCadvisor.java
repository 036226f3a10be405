package dev.checkpointdoctor.lab;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Stands in for the kubelet's {@code /metrics/cadvisor} endpoint, which does not exist here:
 * serves the CFS counters of the {@link CpuQuota} group, read from its {@code cpu.stat} and
 * {@code cpuacct.usage} at every scrape, in the exposition format and with the labels a kubelet
 * (containerd) gives a TaskManager pod on Flink's native Kubernetes mode: {@code namespace},
 * {@code pod} (the TaskManager's resource id, which is also Flink's {@code tm_id}), {@code
 * container} ({@code flink-main-container}), {@code image}, {@code id}, {@code name}; and the
 * pod-level cgroup's series with no container, as a kubelet sends both. The numbers are
 * measurements of a real quota; only the serving is the lab's.
 */
final class KubeletCadvisor implements AutoCloseable {
  static final String NAMESPACE = "lab";
  static final String CONTAINER = "flink-main-container";

  private final HttpServer server;
  private final CpuQuota quota;
  private final String image;

  private KubeletCadvisor(HttpServer server, CpuQuota quota, String image) {
    this.server = server;
    this.quota = quota;
    this.image = image;
  }

  static KubeletCadvisor start(CpuQuota quota, String flinkVersion) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    KubeletCadvisor k = new KubeletCadvisor(server, quota, "docker.io/library/flink:" + flinkVersion
        + "-java17");
    server.createContext("/metrics/cadvisor", ex -> {
      byte[] body;
      try {
        body = k.exposition().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        ex.sendResponseHeaders(200, body.length);
      } catch (IOException | RuntimeException e) {
        body = e.toString().getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(500, body.length);
      }
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    return k;
  }

  /** host:port to scrape, path {@code /metrics/cadvisor}. */
  String target() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  String exposition() throws IOException {
    List<String> tms = quota.taskManagers();
    StringBuilder b = new StringBuilder();
    if (tms.isEmpty()) {
      return ""; // no pod yet: a kubelet lists only running containers
    }
    // the MiniCluster has one TaskManager and the group holds its work
    String pod = tms.get(0);
    String podUid = UUID.nameUUIDFromBytes(pod.getBytes(StandardCharsets.UTF_8)).toString();
    String containerId = Long.toHexString(pod.hashCode() & 0xffffffffL) + "c0ffee";
    String podCgroup = "/kubepods/burstable/pod" + podUid;
    Map<String, Long> stat = quota.cpuStat();
    double usage = quota.usageNs() / 1e9;
    String[] labels = {
        labels("", podCgroup, "", "", pod),
        labels(CONTAINER, podCgroup + "/" + containerId, image, containerId, pod)};
    metric(b, "container_cpu_cfs_periods_total", "counter",
        "Number of elapsed enforcement period intervals.", labels, stat.getOrDefault("nr_periods", 0L));
    metric(b, "container_cpu_cfs_throttled_periods_total", "counter",
        "Number of throttled period intervals.", labels, stat.getOrDefault("nr_throttled", 0L));
    metric(b, "container_cpu_cfs_throttled_seconds_total", "counter",
        "Total time duration the container has been throttled.", labels,
        stat.getOrDefault("throttled_time", 0L) / 1e9);
    metric(b, "container_cpu_usage_seconds_total", "counter",
        "Cumulative cpu time consumed in seconds.", labels, usage);
    metric(b, "container_spec_cpu_quota", "gauge", "CPU quota of the container.", labels,
        quota.quotaUs());
    metric(b, "container_spec_cpu_period", "gauge", "CPU period of the container.", labels,
        CpuQuota.PERIOD_US);
    return b.toString();
  }

  private static String labels(String container, String id, String image, String name,
      String pod) {
    return String.format(Locale.ROOT,
        "{container=\"%s\",id=\"%s\",image=\"%s\",name=\"%s\",namespace=\"%s\",pod=\"%s\"}",
        container, id, image, name, NAMESPACE, pod);
  }

  private static void metric(StringBuilder b, String name, String type, String help,
      String[] labels, Number value) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    for (String l : labels) {
      b.append(name).append(l).append(' ').append(value).append('\n');
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
