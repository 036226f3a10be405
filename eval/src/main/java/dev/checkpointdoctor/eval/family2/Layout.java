package dev.checkpointdoctor.eval.family2;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Who the job's processes and machines are and which labels Prometheus stores for them. Each
 * layout is a deployment people run:
 *
 * <ul>
 *   <li>{@link Kind#BARE_METAL_IP}: standalone cluster on VMs, {@code taskmanager.host} unset,
 *       so the TaskManager address (Flink's {@code host}) is its IP and its resource id ({@code
 *       tm_id}) is {@code <ip>:<rpc port>-<6 hex>}; static scrape configs, {@code
 *       instance="<ip>:<port>"}.
 *   <li>{@link Kind#BARE_METAL_FQDN}: the same with {@code taskmanager.host} set to the FQDN.
 *   <li>{@link Kind#K8S_NATIVE}: Flink's native Kubernetes mode (also what the Flink Kubernetes
 *       operator runs in its default native mode): TaskManager pods are named {@code
 *       <cluster-id>-taskmanager-<attempt>-<index>} and the pod name is the resource id, so
 *       {@code tm_id} is the pod name with {@code -} filtered to {@code _}; {@code host} is the
 *       pod IP.
 *   <li>{@link Kind#K8S_HOSTNET}: native mode with {@code kubernetes.hostnetwork.enabled}: the
 *       TaskManager address is the node IP.
 *   <li>{@link Kind#K8S_STANDALONE}: the operator's standalone mode (or plain Deployments):
 *       TaskManager pods come from a Deployment ({@code <name>-taskmanager-<hash>-<5>}) and the
 *       resource id is {@code <pod ip>:6122-<6 hex>}.
 * </ul>
 */
final class Layout {
  enum Kind {
    BARE_METAL_IP, BARE_METAL_FQDN, K8S_NATIVE, K8S_HOSTNET, K8S_STANDALONE;

    boolean kubernetes() {
      return name().startsWith("K8S");
    }

    /** Whether the node_exporter series carry the TaskManager's own address (see Layout). */
    boolean diskJoinable() {
      return this == BARE_METAL_IP || this == BARE_METAL_FQDN || this == K8S_HOSTNET;
    }

    /** Whether cAdvisor's {@code pod} is the TaskManager's resource id. */
    boolean containerJoinable() {
      return this == K8S_NATIVE || this == K8S_HOSTNET;
    }
  }

  /** A machine (VM or Kubernetes node). */
  record Node(String name, String ip, Map<String, String> nodeExporterTarget,
      Map<String, String> kubeletTarget) {}

  /** One TaskManager process of one deployment. */
  record Tm(String tmId, String host, String pod, String podUid, String containerId,
      Node node, Map<String, String> target) {}

  final Kind kind;
  /** prometheus-operator (PodMonitor/ServiceMonitor) conventions, else the community chart's. */
  final boolean operatorStyle;
  final String namespace;
  final String clusterId;
  final String image;
  final List<Node> nodes = new ArrayList<>();
  private final String region;
  private final int subnet;
  private final String dc;
  private final int hostBase;
  private final SplittableRandom rng;
  private int podCounter;

  Layout(Kind kind, int nodeCount, String namespace, String clusterId, String image,
      SplittableRandom rng) {
    this.kind = kind;
    this.rng = rng;
    this.namespace = namespace;
    this.clusterId = clusterId;
    this.image = image;
    // kube-prometheus relabels node_exporter's instance to the node name; with host networking
    // the TaskManager address is the node IP, so those jobs use the chart's endpoint scrape
    this.operatorStyle = kind != Kind.K8S_HOSTNET && rng.nextBoolean();
    this.region = new String[] {"eu-west-1", "us-east-1", "eu-central-1", "ap-southeast-2"}[
        rng.nextInt(4)];
    this.subnet = 16 + rng.nextInt(48);
    this.dc = new String[] {"fra1", "ams3", "dc2", "iad"}[rng.nextInt(4)];
    this.hostBase = 1 + rng.nextInt(40);
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(node(i));
    }
  }

  private Node node(int i) {
    if (!kind.kubernetes()) {
      String ip = Names.ip(10, 20 + rng.nextInt(20), rng.nextInt(256), 10 + rng.nextInt(240));
      String fqdn = "flink-w" + String.format(java.util.Locale.ROOT, "%02d", hostBase + i) + "."
          + dc + ".example.net";
      String address = kind == Kind.BARE_METAL_FQDN ? fqdn : ip;
      Map<String, String> ne = new LinkedHashMap<>();
      ne.put("instance", address + ":9100");
      ne.put("job", "node");
      return new Node(kind == Kind.BARE_METAL_FQDN ? fqdn : ip, ip, ne, Map.of());
    }
    String ip = Names.ip(10, 0, subnet + rng.nextInt(4), 1 + rng.nextInt(254));
    String name = "ip-" + ip.replace('.', '-') + "." + region + ".compute.internal";
    Map<String, String> ne = new LinkedHashMap<>();
    Map<String, String> kubelet = new LinkedHashMap<>();
    if (operatorStyle) {
      ne.put("instance", name);
      ne.put("job", "node-exporter");
      ne.put("namespace", "monitoring");
      ne.put("pod", "node-exporter-" + Names.podSuffix(rng, 5));
      ne.put("container", "node-exporter");
      ne.put("endpoint", "https");
      ne.put("service", "node-exporter");
      kubelet.put("instance", ip + ":10250");
      kubelet.put("job", "kubelet");
      kubelet.put("metrics_path", "/metrics/cadvisor");
      kubelet.put("node", name);
      kubelet.put("endpoint", "https-metrics");
      kubelet.put("service", "kubelet");
    } else {
      ne.put("instance", ip + ":9100");
      ne.put("job", "kubernetes-service-endpoints");
      ne.put("namespace", "monitoring");
      ne.put("service", "prometheus-node-exporter");
      ne.put("node", name);
      kubelet.put("instance", name);
      kubelet.put("job", "kubernetes-nodes-cadvisor");
      kubelet.put("kubernetes_io_hostname", name);
      kubelet.put("kubernetes_io_os", "linux");
      kubelet.put("beta_kubernetes_io_arch", "amd64");
    }
    return new Node(name, ip, ne, kubelet);
  }

  /**
   * A TaskManager of one deployment.
   *
   * @param attempt the JobManager attempt that created the pod (native mode names use it)
   * @param slotOnNode how many TaskManagers of this job already run on the node (ports)
   */
  Tm taskManager(Node node, int attempt, int slotOnNode) {
    podCounter++;
    int port = 9250 + slotOnNode;
    String six = Names.hex(rng, 6);
    Map<String, String> target = new LinkedHashMap<>();
    switch (kind) {
      case BARE_METAL_IP, BARE_METAL_FQDN -> {
        String address = node.name();
        int rpc = kind == Kind.BARE_METAL_IP ? 32768 + rng.nextInt(28000) : 6122 + slotOnNode;
        target.put("instance", address + ":" + port);
        target.put("job", "flink");
        return new Tm(Names.sanitize(address + ":" + rpc + "-" + six), Names.sanitize(address),
            null, null, null, node, target);
      }
      default -> {
        String podIp = Names.ip(10, 0, subnet + 4 + rng.nextInt(8), 1 + rng.nextInt(254));
        String pod;
        String tmId;
        String host;
        if (kind == Kind.K8S_STANDALONE) {
          pod = clusterId + "-taskmanager-" + Names.hex(rng, 9) + "-" + Names.podSuffix(rng, 5);
          tmId = Names.sanitize(podIp + ":6122-" + six);
          host = Names.sanitize(podIp);
        } else {
          pod = clusterId + "-taskmanager-" + attempt + "-" + podCounter;
          tmId = Names.sanitize(pod);
          host = Names.sanitize(kind == Kind.K8S_HOSTNET ? node.ip() : podIp);
        }
        String address = kind == Kind.K8S_HOSTNET ? node.ip() + ":" + port : podIp + ":9249";
        podTarget(target, address, pod, "taskmanager");
        return new Tm(tmId, host, pod, Names.uuid(rng), Names.hex(rng, 64), node, target);
      }
    }
  }

  /** A new JobManager numbers its TaskManager pods from 1 again (native mode). */
  void resetPods() {
    podCounter = 0;
  }

  /** Target labels of the JobManager. */
  Map<String, String> jobManagerTarget() {
    Map<String, String> target = new LinkedHashMap<>();
    if (!kind.kubernetes()) {
      target.put("instance", Names.ip(10, 20 + rng.nextInt(20), rng.nextInt(256),
          10 + rng.nextInt(240)) + ":9249");
      target.put("job", "flink");
    } else {
      String pod = clusterId + "-" + Names.hex(rng, 9) + "-" + Names.podSuffix(rng, 5);
      podTarget(target, Names.ip(10, 0, subnet + 4 + rng.nextInt(8), 1 + rng.nextInt(254))
          + ":9249", pod, "jobmanager");
    }
    return target;
  }

  private void podTarget(Map<String, String> target, String address, String pod,
      String component) {
    target.put("instance", address);
    target.put("namespace", namespace);
    target.put("pod", pod);
    if (operatorStyle) {
      target.put("job", namespace + "/flink-metrics");
      target.put("container", "flink-main-container");
      target.put("endpoint", "metrics");
    } else {
      target.put("job", "kubernetes-pods");
      target.put("app", clusterId);
      target.put("component", component);
      if (kind != Kind.K8S_STANDALONE) {
        target.put("type", "flink-native-kubernetes");
      }
    }
  }

  /** cAdvisor labels of the TaskManager container, or of its pod cgroup when container is false. */
  Map<String, String> cadvisorLabels(Tm tm, boolean container) {
    Map<String, String> l = new LinkedHashMap<>(tm.node().kubeletTarget());
    String podSlice = "/kubepods.slice/kubepods-pod" + tm.podUid().replace('-', '_') + ".slice";
    l.put("namespace", namespace);
    l.put("pod", tm.pod());
    if (container) {
      l.put("id", podSlice + "/cri-containerd-" + tm.containerId() + ".scope");
      l.put("container", "flink-main-container");
      l.put("image", image);
      l.put("name", tm.containerId());
    } else {
      l.put("id", podSlice);
    }
    return l;
  }
}
