package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.deploy.RemoteWriteShards;
import dev.checkpointdoctor.api.shard.Hashmod;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sharded fleet end to end: a real Prometheus 2.42 scrapes several Flink jobs (and node
 * series of no job) and remote-writes with the relabelling of {@code deploy remote-write} to two
 * shards of two replicas each, started with {@code --shard I/2} and naming each other as peers;
 * a real Alertmanager 0.25 gets every instance's alerts. Each job lands on exactly the shard
 * Prometheus' hashmod picks (and on both its replicas), every instance lists every job, and
 * Alertmanager holds one alert per faulty job and cause although two replicas send it.
 *
 * <p>Twice: plainly (one Prometheus, jobs known by {@code job_name}), and as a cluster behind a
 * Prometheus HA pair: two Prometheus servers with external labels {@code cluster} and {@code
 * prometheus_replica} both write to all four instances, which run with {@code
 * --job-identity-labels cluster --shard-labels cluster,job_name --ha-replica-label
 * prometheus_replica}. The two notions of replica then stack: each instance learns from one
 * Prometheus replica per source, both instances of a shard hold the job under its key ({@code
 * eu-1/etl-3}), and the alerts carry {@code cluster} but neither replica label.
 */
class ShardedFleetIT {
  static final int SHARDS = 2;
  static final int REPLICAS = 2;
  static final Duration WAIT = Duration.ofSeconds(120);
  /** Scrapes of normal checkpoints before the faulty jobs' durations jump. */
  static final int LEARN = 10;

  @BeforeAll
  static void serversInstalled() {
    PrometheusServer.requireBinary();
    AlertmanagerServer.requireBinary();
  }

  /**
   * How the fleet is run.
   *
   * @param cluster the Prometheus servers' {@code cluster} external label, null for none
   * @param prometheusReplicas the {@code prometheus_replica} of each Prometheus server; one
   *     null for a single server without it
   */
  record Setup(String name, String cluster, List<String> prometheusReplicas) {
    List<String> shardLabels() {
      return cluster == null ? List.of("job_name") : List.of("cluster", "job_name");
    }

    List<String> serviceArgs() {
      List<String> args = new ArrayList<>();
      if (cluster != null) {
        args.addAll(List.of("--job-identity-labels", "cluster", "--shard-labels",
            String.join(",", shardLabels())));
      }
      if (prometheusReplicas.get(0) != null) {
        args.addAll(List.of("--ha-replica-label", "prometheus_replica"));
      }
      return args;
    }

    /** The job's key in the service: job_name, or cluster/job_name. */
    String key(String jobName) {
      return cluster == null ? jobName : cluster + "/" + jobName;
    }

    /** The shard Prometheus' hashmod of the shard labels picks for a job. */
    int shardOf(String jobName) {
      return (int) Hashmod.of(cluster == null ? List.of(jobName) : List.of(cluster, jobName),
          SHARDS);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Setup> setups() {
    return Stream.of(new Setup("one Prometheus, jobs by job_name", null,
            java.util.Collections.singletonList(null)),
        new Setup("a cluster behind a Prometheus HA pair", "eu-1", List.of("a", "b")));
  }

  /** Six jobs (by job_name), three per shard by our hashmod; two (one per shard) turn faulty. */
  static Map<String, Integer> jobs(Setup setup) {
    Map<String, Integer> jobs = new LinkedHashMap<>();
    int[] perShard = new int[SHARDS];
    for (int i = 0; jobs.size() < 6; i++) {
      String name = "etl-" + i;
      int shard = setup.shardOf(name);
      if (perShard[shard] < 3) {
        perShard[shard]++;
        jobs.put(name, shard);
      }
    }
    return jobs;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void eachJobOnItsShardEveryJobOnEveryInstanceOneAlertPerJobAndCause(Setup setup,
      @TempDir Path tmp) throws Exception {
    Map<String, Integer> jobs = jobs(setup);
    Map<String, Integer> keys = new LinkedHashMap<>();
    jobs.forEach((name, shard) -> keys.put(setup.key(name), shard));
    Set<String> faulty = new TreeSet<>();
    for (int shard = 0; shard < SHARDS; shard++) {
      int s = shard;
      faulty.add(jobs.entrySet().stream().filter(e -> e.getValue() == s).findFirst()
          .orElseThrow().getKey());
    }
    Set<String> faultyKeys = faulty.stream().map(setup::key)
        .collect(Collectors.toCollection(TreeSet::new));
    int[][] ports = new int[SHARDS][REPLICAS];
    List<String> urls = new ArrayList<>();
    for (int s = 0; s < SHARDS; s++) {
      for (int r = 0; r < REPLICAS; r++) {
        ports[s][r] = PrometheusServer.freePort();
        urls.add("http://127.0.0.1:" + ports[s][r]);
      }
    }
    try (WebhookReceiver hooks = new WebhookReceiver();
        AlertmanagerServer am = AlertmanagerServer.start(tmp.resolve("am"),
            AlertmanagerServer.webhookConfig(hooks.url("/hook")), PrometheusServer.freePort());
        FlinkJobsServer flink = new FlinkJobsServer(jobs.keySet(), faulty)) {
      List<CheckpointDoctor> instances = new ArrayList<>();
      Map<CheckpointDoctor, Integer> shardOf = new HashMap<>();
      try {
        for (int s = 0; s < SHARDS; s++) {
          for (int r = 0; r < REPLICAS; r++) {
            List<String> args = new ArrayList<>(List.of("--port", Integer.toString(ports[s][r]),
                "--shard", s + "/" + SHARDS, "--min-observations", "5",
                "--alertmanager-url", am.url(), "--alert-resend-interval", "2s",
                "--peer-timeout", "2s",
                // There are no TaskManager series to say where jobs run: the spare host's node
                // samples are decided (unjoined) once their own series is this far past them.
                "--max-delivery-lag", "5s"));
            args.addAll(setup.serviceArgs());
            for (String u : urls) {
              args.addAll(List.of("--peer", u));
            }
            CheckpointDoctor c = TestService.startOnPort(tmp.resolve("cpd-" + s + "-" + r),
                args.toArray(String[]::new));
            instances.add(c);
            shardOf.put(c, s);
          }
        }
        // The relabelling exactly as 'deploy remote-write' prints it; each entry to its pod.
        String remoteWrite = RemoteWriteShards.yaml(SHARDS, REPLICAS,
            "http://127.0.0.1:PORT-{shard}-{replica}/api/v1/write", setup.shardLabels(),
            SignalCatalog.defaults().keepRegex(), "test");
        for (int s = 0; s < SHARDS; s++) {
          for (int r = 0; r < REPLICAS; r++) {
            remoteWrite = remoteWrite.replace("PORT-" + s + "-" + r, Integer.toString(ports[s][r]));
          }
        }
        List<PrometheusServer> prometheus = new ArrayList<>();
        try {
          for (String replica : setup.prometheusReplicas()) {
            List<String> external = new ArrayList<>();
            if (setup.cluster() != null) {
              external.add("cluster: " + setup.cluster());
            }
            if (replica != null) {
              external.add("prometheus_replica: " + replica);
            }
            String config = """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  external_labels: {%s}
                scrape_configs:
                  - job_name: flink
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(String.join(", ", external), flink.port()) + remoteWrite;
            prometheus.add(PrometheusServer.start(tmp.resolve("prom-" + prometheus.size()),
                config));
          }
          // Alertmanager: one alert per faulty job (and its cause), none for the healthy ones.
          JsonArray alerts = Await.until("an alert for each faulty job in Alertmanager", WAIT,
              () -> {
                JsonArray a = new JsonArray(Http.get(am.url()
                    + "/api/v2/alerts?filter=alertname%3D%22FlinkCheckpointAnomaly%22").body());
                Set<String> alerted = a.stream().map(o -> setup.key(((JsonObject) o)
                    .getJsonObject("labels").getString("job_name"))).collect(Collectors.toSet());
                return alerted.containsAll(faultyKeys) ? a : null;
              });
          // Both replicas of each faulty job's shard have sent its alert by now.
          for (CheckpointDoctor c : instances) {
            Await.until("alerts sent by " + TestService.url(c, ""), WAIT, () -> Http.metric(
                Http.get(TestService.url(c, "/metrics")).body(),
                "checkpoint_doctor_alerts_sent_total{alertmanager=\"" + am.url()
                    + "\",result=\"success\"}") >= 2);
          }
          alerts = new JsonArray(Http.get(am.url()
              + "/api/v2/alerts?filter=alertname%3D%22FlinkCheckpointAnomaly%22").body());
          Map<String, Integer> perJobAndCause = new HashMap<>();
          for (Object o : alerts) {
            JsonObject labels = ((JsonObject) o).getJsonObject("labels");
            // No instance or replica label (of either kind): the pair's alerts are identical.
            if (setup.cluster() == null) {
              assertThat(labels.getMap()).containsOnlyKeys("alertname", "job_name", "cause",
                  "severity", "signal");
            } else {
              assertThat(labels.getMap()).containsOnlyKeys("alertname", "job_name", "cluster",
                  "cause", "severity", "signal");
              assertThat(labels.getString("cluster")).isEqualTo(setup.cluster());
            }
            String key = setup.key(labels.getString("job_name"));
            perJobAndCause.merge(key + " " + labels.getString("cause"), 1, Integer::sum);
            assertThat(faultyKeys).contains(key);
          }
          assertThat(perJobAndCause.values()).as(perJobAndCause.toString()).allMatch(n -> n == 1);
          for (String key : faultyKeys) {
            assertThat(perJobAndCause.keySet()).as(key).filteredOn(k -> k.startsWith(key + " "))
                .hasSize(1);
          }

          for (CheckpointDoctor c : instances) {
            String self = TestService.url(c, "");
            int shard = shardOf.get(c);
            // Its own jobs: exactly those Prometheus' hashmod sends to its shard.
            JsonObject own = Await.until("every job of shard " + shard + " on " + self, WAIT,
                () -> {
                  JsonObject o = new JsonObject(Http.get(self + "/api/v1/jobs?local=true")
                      .body());
                  return o.getJsonArray("jobs").size() == 3 ? o : null;
                });
            Set<String> expected = keys.entrySet().stream().filter(e -> e.getValue() == shard)
                .map(Map.Entry::getKey).collect(Collectors.toSet());
            assertThat(names(own.getJsonArray("jobs"))).isEqualTo(expected);
            // Node series carry no job_name: every shard gets them; none joins, no alarm.
            String metrics = Await.until("the spare host's node samples counted on " + self,
                WAIT, () -> {
                  String m = Http.get(self + "/metrics").body();
                  return Http.metric(m, "checkpoint_doctor_samples_without_signal_total"
                      + "{reason=\"other_shard\"}") > 0 ? m : null;
                });
            assertThat(Http.metric(metrics,
                "checkpoint_doctor_samples_dropped_total{reason=\"not_this_shard\"}"))
                .as("Prometheus sent no other shard's job here").isZero();
            assertThat(metrics).doesNotContain("reason=\"unjoined\"");
            if (setup.prometheusReplicas().size() > 1) {
              // Both Prometheus replicas reach every instance; each learns from one of them.
              assertThat(Http.metric(metrics, "checkpoint_doctor_detector_samples_dropped_total"
                  + "{reason=\"ha_replica_standby\"}")).isGreaterThan(0);
            }

            // The merged list: every job, each from an instance of its shard, both replicas.
            JsonObject merged = new JsonObject(Http.get(self + "/api/v1/jobs").body());
            assertThat(names(merged.getJsonArray("jobs"))).isEqualTo(keys.keySet());
            for (Object o : merged.getJsonArray("jobs")) {
              JsonObject j = (JsonObject) o;
              int s = keys.get(j.getString("job"));
              assertThat(j.getString("shard")).isEqualTo(s + "/" + SHARDS);
              assertThat(j.getJsonArray("replicas").getList()).containsExactlyInAnyOrder(
                  urls.get(s * REPLICAS), urls.get(s * REPLICAS + 1));
              if (s == shard) {
                assertThat(j.getString("instance")).isEqualTo(self);
              }
            }
            assertThat(merged.getJsonArray("peers")).hasSize(urls.size() - 1)
                .allMatch(p -> ((JsonObject) p).getBoolean("ok"));
            JsonArray anomalies = new JsonObject(Http.get(self
                + "/api/v1/anomalies?state=open").body()).getJsonArray("anomalies");
            assertThat(anomalies.stream().map(a -> ((JsonObject) a).getString("job"))
                .collect(Collectors.toSet())).containsAll(faultyKeys);
            assertThat(anomalies.stream().map(a -> {
              JsonObject an = (JsonObject) a;
              return an.getString("job") + an.getString("signal") + an.getString("scope")
                  + an.getString("startedAt");
            }).toList()).doesNotHaveDuplicates();
          }
        } finally {
          for (PrometheusServer p : prometheus) {
            p.close();
          }
        }
      } finally {
        for (CheckpointDoctor c : instances) {
          c.close();
        }
      }
    }
  }

  static Set<String> names(JsonArray jobs) {
    return jobs.stream().map(o -> ((JsonObject) o).getString("job"))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * A JobManager's checkpoint gauges for several jobs, one checkpoint completing per scrape;
   * the faulty jobs' checkpoints take five times as long after {@link #LEARN} scrapes. Also node
   * disk counters of a host no job runs on (no job_name).
   */
  static final class FlinkJobsServer implements AutoCloseable {
    final HttpServer server;
    final AtomicInteger scrapes = new AtomicInteger();

    FlinkJobsServer(Set<String> jobs, Set<String> faulty) throws Exception {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/metrics", ex -> {
        int n = scrapes.incrementAndGet();
        StringBuilder b = new StringBuilder();
        for (String job : jobs) {
          String labels = "{job_id=\"" + Integer.toHexString(job.hashCode()) + "\",job_name=\""
              + job + "\"}";
          double duration = (faulty.contains(job) && n > LEARN ? 5000 : 1000) + (n % 3) * 20;
          gauge(b, "lastCheckpointDuration", labels, duration);
          gauge(b, "lastCheckpointSize", labels, 1_000_000 + (n % 4) * 1000);
          gauge(b, "lastCheckpointFullSize", labels, 50_000_000);
          gauge(b, "lastCompletedCheckpointId", labels, n);
          gauge(b, "numberOfCompletedCheckpoints", labels, n);
          gauge(b, "numberOfFailedCheckpoints", labels, 0);
          gauge(b, "numberOfInProgressCheckpoints", labels, 0);
        }
        b.append("node_disk_writes_completed_total{device=\"sda\",node=\"spare-host\"} ")
            .append(n * 100).append('\n');
        byte[] body = b.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
          out.write(body);
        }
      });
      server.start();
    }

    private static void gauge(StringBuilder b, String metric, String labels, double value) {
      b.append("flink_jobmanager_job_").append(metric).append(labels).append(' ').append(value)
          .append('\n');
    }

    int port() {
      return server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
