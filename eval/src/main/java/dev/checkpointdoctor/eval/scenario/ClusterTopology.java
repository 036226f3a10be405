package dev.checkpointdoctor.eval.scenario;

import java.util.SplittableRandom;

/**
 * Names and ids of one simulated deployment, shaped as Flink's PrometheusReporter, node_exporter
 * and cAdvisor write them: label values sanitized the way Flink does ({@code -} and {@code .}
 * become {@code _}), TaskManagers spread over hosts, one RocksDB instance per keyed subtask.
 */
final class ClusterTopology {
  static final String[] TASKS = {"Source:_events", "keyed_agg", "Sink:_out"};
  static final int SOURCE = 0;
  static final int KEYED = 1;
  static final int SINK = 2;
  static final String[] STATES = {"window_contents", "seen_keys"};

  final String jobName;
  final String jmHost;
  final String[] taskIds = new String[TASKS.length];
  final String[] nodeNames;
  final String[] flinkHosts;
  final String[] tmIds;
  final String[] pods;
  final String[] nodeIps;
  final String device;
  private final SplittableRandom rng;
  private final boolean kubernetes;
  String jobId;
  String executionId;

  ClusterTopology(ScenarioSpec spec, SplittableRandom rng) {
    this(spec, rng, spec.taskManagers());
  }

  /** @param tms TaskManagers the job ever runs on (more than at first after a scale-up) */
  ClusterTopology(ScenarioSpec spec, SplittableRandom rng, int tms) {
    this.rng = rng;
    this.kubernetes = spec.kubernetes();
    this.jobName = spec.name();
    this.jmHost = kubernetes ? spec.name().replace('_', '-') + "-jobmanager" : "flink-jobmanager";
    for (int i = 0; i < TASKS.length; i++) {
      taskIds[i] = hex(32);
    }
    nodeNames = new String[tms];
    flinkHosts = new String[tms];
    tmIds = new String[tms];
    pods = new String[tms];
    nodeIps = new String[tms];
    int subnet = 1 + rng.nextInt(200);
    java.util.Set<Integer> taken = new java.util.HashSet<>();
    for (int i = 0; i < tms; i++) {
      int last = 10 + rng.nextInt(240);
      // one TaskManager per node: two on one node would emit two counters under one series
      while (!taken.add(last)) {
        last = 10 + rng.nextInt(240);
      }
      nodeIps[i] = "10.0." + subnet + "." + last;
      nodeNames[i] = kubernetes
          ? "ip-10-0-" + subnet + "-" + last + ".eu-west-1.compute.internal"
          : "ip-10-0-" + subnet + "-" + last + ".ec2.internal";
      // Flink writes the TaskManager's hostname into `host`, sanitized like every label value.
      flinkHosts[i] = sanitize(nodeNames[i]);
      pods[i] = spec.name().replace('_', '-') + "-taskmanager-1-" + (i + 1);
      tmIds[i] = kubernetes ? sanitize(pods[i])
          : sanitize(nodeNames[i] + ":" + (35000 + rng.nextInt(20000)) + "-" + hex(6));
    }
    device = kubernetes ? "nvme1n1" : "xvdb";
    newJobId();
  }

  /** A restart under a new job_id (resubmission): new ids for the job and the attempts. */
  void newJobId() {
    jobId = hex(32);
    executionId = hex(32);
  }

  /**
   * A redeploy in Kubernetes application mode brings up new TaskManager pods (the second
   * attempt of the resource manager names them {@code -taskmanager-2-N}); bare-metal
   * TaskManagers of a session cluster stay.
   */
  void redeployPods(String jobName, int attempt) {
    if (!kubernetes) {
      return;
    }
    for (int i = 0; i < pods.length; i++) {
      pods[i] = jobName.replace('_', '-') + "-taskmanager-" + attempt + "-" + (i + 1);
      tmIds[i] = sanitize(pods[i]);
    }
  }

  int tmOf(int subtask, int slotsPerTm) {
    return subtask / slotsPerTm;
  }

  String attemptId(int task, int subtask) {
    return executionId + "_" + taskIds[task] + "_" + subtask + "_0";
  }

  String hex(int n) {
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append(Character.forDigit(rng.nextInt(16), 16));
    }
    return b.toString();
  }

  /** Flink's label value filter: every character outside [a-zA-Z0-9:_] becomes '_'. */
  static String sanitize(String s) {
    StringBuilder b = new StringBuilder(s);
    for (int i = 0; i < b.length(); i++) {
      char c = b.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == ':' || c == '_';
      if (!ok) {
        b.setCharAt(i, '_');
      }
    }
    return b.toString();
  }
}
