package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.flinkrest.RestFixtures;
import dev.checkpointdoctor.api.flinkrest.RestFixtures.Answer;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The poller end to end: a local HTTP server answers as the lab's Flink 1.20.3 JobManager did
 * once its checkpoints expired (recorded answers), with the job's timeout raised to 1 h as in
 * the first field report; a second "JobManager" answers 500 to everything. The service reads
 * both, forecasts against the job's own 1 h timeout, names RocksDB's local dir on an nfs4 mount,
 * shows the job's checkpoint facts in the API and counts every request in /metrics.
 */
class FlinkRestIT {
  static final String JOB = "lab_checkpoint_storage_slow";
  static final long HOUR = 3_600_000;

  @TempDir
  Path dataDir;
  final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  /** Serves recorded answers (path → status and body); anything else is a 404. */
  HttpServer jobManager(Map<String, Answer> answers) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", ex -> {
      Answer a = answers.getOrDefault(ex.getRequestURI().getPath(),
          new Answer(404, "{\"errors\":[\"Not found: " + ex.getRequestURI().getPath() + "\"]}"));
      byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(a.status(), body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.start();
    toClose.add(() -> server.stop(0));
    return server;
  }

  static String url(HttpServer s) {
    return "http://127.0.0.1:" + s.getAddress().getPort();
  }

  @Test
  void aJobWithA1hTimeoutGetsForecastsAgainst1hAndItsNfsLocalDirNamed() throws Exception {
    Map<String, Answer> answers = new java.util.LinkedHashMap<>(
        RestFixtures.load("1.20.3", "fault"));
    String jid = RestFixtures.jobId(answers);
    String configPath = "/jobs/" + jid + "/checkpoints/config";
    answers.put(configPath, new Answer(200, new JsonObject(answers.get(configPath).body())
        .put("timeout", HOUR).put("interval", 15 * 60_000).encode()));
    String localDir = new JsonArray(answers.get("/jobmanager/config").body()).stream()
        .map(o -> (JsonObject) o).filter(o -> o.getString("key")
            .equals("state.backend.rocksdb.localdir")).findFirst().orElseThrow()
        .getString("value");
    HttpServer flink = jobManager(answers);
    HttpServer broken = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    broken.createContext("/", ex -> {
      ex.sendResponseHeaders(500, -1);
      ex.close();
    });
    broken.start();
    toClose.add(() -> broken.stop(0));

    CheckpointDoctor service = TestService.start(dataDir, "--min-observations", "5",
        "--flink-rest-url", url(flink), "--flink-rest-url", url(broken),
        "--flink-rest-interval", "1s");
    toClose.add(service::stop);
    Await.until("the job's facts read from Flink REST", Duration.ofSeconds(30), () ->
        Http.metric(Http.get(TestService.url(service, "/metrics")).body(),
            "checkpoint_doctor_flink_rest_jobs") == 1);

    // 100 min of normal checkpoints, then 150 min of state growth: duration 20 s × (1 + h)
    Random rnd = new Random(7);
    long t0 = (System.currentTimeMillis() / 60_000L - 250) * 60_000L;
    for (int i = 0; i < 250; i++) {
      long ts = t0 + i * 60_000L;
      double h = Math.max(0, i - 100) / 60.0;
      List<RemoteWriteTestEncoder.Proto> series = new ArrayList<>(List.of(
          Bodies.jobGauge("lastCheckpointDuration", JOB, ts,
              Math.round(20_000 * (1 + h) * (1 + 0.03 * rnd.nextGaussian()))),
          Bodies.jobGauge("lastCheckpointSize", JOB, ts, Math.round(2e8 * (1 + h))),
          Bodies.jobGauge("lastCheckpointFullSize", JOB, ts,
              Math.round(1e9 * (1 + h) * (1 + 0.01 * rnd.nextGaussian()))),
          Bodies.jobGauge("lastCompletedCheckpointId", JOB, ts, i + 1),
          Bodies.jobGauge("numberOfCompletedCheckpoints", JOB, ts, i + 1),
          Bodies.jobGauge("numberOfFailedCheckpoints", JOB, ts, 0),
          Bodies.jobGauge("numberOfInProgressCheckpoints", JOB, ts, 0),
          // node_exporter: the TaskManager host's /tmp is an NFS v4 mount
          RemoteWriteTestEncoder.series(new String[] {"__name__", "node_filesystem_avail_bytes",
              "device", "nas-1:/export/tmp", "fstype", "nfs4", "instance", "tm-1:9100", "job",
              "node", "mountpoint", "/tmp"}, new long[] {ts}, new double[] {4e11})));
      int status = Http.post(TestService.url(service, "/api/v1/write"),
          RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
              series.toArray(new RemoteWriteTestEncoder.Proto[0]))),
          Http.remoteWriteHeaders()).statusCode();
      assertThat(status).isEqualTo(204);
    }

    JsonObject job = Await.until("a state-growth diagnosis with a forecast", Duration.ofSeconds(30),
        () -> {
          JsonObject j = new JsonObject(Http.get(TestService.url(service,
              "/api/v1/jobs/" + JOB)).body());
          JsonObject d = j.getJsonObject("diagnosis");
          return d != null && "state_growth".equals(d.getString("cause"))
              && d.getValue("hoursToTimeout") != null ? j : null;
        });
    JsonObject d = job.getJsonObject("diagnosis");
    assertThat(d.getString("timeoutSource")).isEqualTo("flink-rest");
    assertThat(d.getLong("timeoutMs")).isEqualTo(HOUR);
    // the duration rises 20 s per hour and is ~70 s now: 1 h is reached in ~176 h (the default
    // 10 min would say ~26 h)
    assertThat(d.getDouble("hoursToTimeout")).isCloseTo((HOUR - 70_000) / 20_000.0,
        Percentage.withPercentage(15));
    List<String> evidence = new ArrayList<>();
    d.getJsonArray("evidence").forEach(e -> evidence.add(((JsonObject) e).getString("sentence")));
    assertThat(evidence).anySatisfy(s -> assertThat(s).contains("reach the timeout (60.0 min)"));
    assertThat(evidence).contains("RocksDB's local dir " + localDir
        + " (state.backend.rocksdb.localdir) is on a nfs4 network mount (nas-1:/export/tmp at "
        + "/tmp on tm-1): every flush, compaction and checkpoint upload of the state goes over "
        + "the network. Move it to a local SSD or ephemeral storage (e.g. an emptyDir or a "
        + "local NVMe volume).");

    JsonObject rest = job.getJsonObject("flinkRest");
    assertThat(rest.getString("jobId")).isEqualTo(jid);
    assertThat(rest.getString("endpoint")).isEqualTo(url(flink));
    JsonObject config = rest.getJsonObject("checkpointConfig");
    assertThat(config.getLong("timeoutMs")).isEqualTo(HOUR);
    assertThat(config.getLong("intervalMs")).isEqualTo(15 * 60_000);
    assertThat(config.getString("storageScheme")).isEqualTo("slowfile");
    assertThat(config.getJsonArray("rocksDbLocalDirs")).containsExactly(localDir);
    JsonObject last = rest.getJsonObject("lastCheckpoint");
    assertThat(last.getString("status")).isEqualTo("failed");
    assertThat(last.getString("failureMessage")).isEqualTo("Checkpoint expired before completing.");
    JsonObject slowest = last.getJsonArray("slowestSubtasks").getJsonObject(0);
    assertThat(slowest.getBoolean("acknowledged")).isFalse();
    assertThat(slowest.getString("vertex")).startsWith("count -> slow-map");

    jobPageCard(service, jid);

    String metrics = Http.get(TestService.url(service, "/metrics")).body();
    assertThat(Http.metric(metrics, "checkpoint_doctor_flink_rest_requests_total{endpoint=\""
        + url(flink) + "\",result=\"ok\"}")).isPositive();
    assertThat(Http.metric(metrics, "checkpoint_doctor_flink_rest_requests_total{endpoint=\""
        + url(broken) + "\",result=\"http_5xx\"}")).isPositive();
  }

  /** The job page's Flink card, in headless Chromium when installed (CI installs it). */
  void jobPageCard(CheckpointDoctor service, String jid) throws Exception {
    if (!HeadlessChromium.installed()) {
      if (System.getenv("CI") != null) {
        throw new AssertionError("chromium and chromedriver are not installed");
      }
      return;
    }
    try (HeadlessChromium browser = HeadlessChromium.start(dataDir.resolve("browser"), 1360,
        1100)) {
      browser.open(TestService.url(service, "/ui/job.html?job=" + JOB));
      Await.until("the Flink REST card", Duration.ofSeconds(30), () -> browser.script(
          "const c = document.getElementById('flink-rest');"
              + " return !c.hidden && c.querySelector('tr.subtask-row') !== null"));
      @SuppressWarnings("unchecked")
      Map<String, Object> card = (Map<String, Object>) browser.script("""
          const c = document.getElementById('flink-rest');
          const facts = {};
          for (const r of c.querySelectorAll('table.facts tr')) {
            facts[r.querySelector('th').textContent] = r.querySelector('td').textContent;
          }
          const rows = [...c.querySelectorAll('tr.subtask-row')];
          return {text: c.textContent, facts: facts,
            firstAcknowledged: rows[0].dataset.acknowledged,
            firstSubtask: rows[0].querySelector('td').textContent};
          """);
      assertThat(card.get("facts")).asString().contains("Timeout=60 min", "Interval=15 min",
          "Min pause=0 ms", "Unaligned=no");
      assertThat(card.get("text")).asString().contains("job " + jid,
          "Forecasts use this job's timeout (60 min).", "Checkpoint expired before completing.");
      assertThat(card.get("firstAcknowledged")).isEqualTo("false");
      assertThat(card.get("firstSubtask")).asString().startsWith("count -> slow-map");
      java.nio.file.Files.createDirectories(Path.of("target", "screenshots"));
      browser.screenshot(Path.of("target", "screenshots", "flink-rest-card.png"));
    }
  }

  @Test
  void withoutRestTheForecastSaysTheDefaultTimeout() throws Exception {
    CheckpointDoctor service = TestService.start(dataDir, "--min-observations", "5");
    toClose.add(service::stop);
    CheckpointFeed feed = new CheckpointFeed(service, JOB);
    feed.scrapes(30, 1_000);
    feed.scrapes(5, 60_000);
    JsonObject job = Await.until("a diagnosis", Duration.ofSeconds(30), () -> {
      JsonObject j = new JsonObject(Http.get(TestService.url(service, "/api/v1/jobs/" + JOB))
          .body());
      return j.getJsonObject("diagnosis") != null ? j : null;
    });
    assertThat(job.getJsonObject("diagnosis").getString("timeoutSource")).isEqualTo("default");
    assertThat(job.getJsonObject("diagnosis").getLong("timeoutMs")).isEqualTo(600_000);
    assertThat(job.getValue("flinkRest")).isNull();
  }
}
