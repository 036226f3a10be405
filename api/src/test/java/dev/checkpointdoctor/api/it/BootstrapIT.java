package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cold start from a real Prometheus 2.42 serving two days of two jobs' history, written as blocks
 * by {@code promtool tsdb create-blocks-from openmetrics} as a Flink JobManager would have been
 * scraped (every 15 s, a checkpoint completing every minute, the gauges changing once per
 * checkpoint): the baselines are ready within seconds with the historical mean, a slow live
 * checkpoint opens an anomaly and an alert on the first live checkpoints, the steady job stays
 * quiet, and the anomaly found in history is kept and never alerted. And with that Prometheus
 * stopped, the service starts and learns live.
 */
class BootstrapIT {
  static final long SCRAPE_MS = 15_000;
  static final long CHECKPOINT_MS = 60_000;
  static final String JOB_ID = "d73a8052088bf7d5c06e95521df60999";

  /** Two days before the history's last scrape: the first scrape. */
  final long end = (System.currentTimeMillis() / SCRAPE_MS) * SCRAPE_MS - SCRAPE_MS;
  final long start = end - Duration.ofDays(2).toMillis();
  /** A half-hour incident of slow checkpoints in the slowing job's history, a day ago. */
  final long incidentFrom = start + Duration.ofHours(30).toMillis();
  final long incidentTo = incidentFrom + Duration.ofMinutes(30).toMillis();

  long checkpointId(long t) {
    return (t - start) / CHECKPOINT_MS;
  }

  /** The duration of checkpoint {@code id} of a job whose normal is {@code base} ms. */
  static double normal(double base, long id) {
    return base + Math.floorMod(id * 7919, 201) - 100;
  }

  /** The troubled job's checkpoints are slow for the last 20 minutes of history. */
  final long troubleFrom = end - Duration.ofMinutes(20).toMillis();

  double historyDuration(String job, long t) {
    long id = checkpointId(t);
    if (job.equals("steady")) {
      return normal(2000, id);
    }
    if (job.equals("troubled")) {
      return start + id * CHECKPOINT_MS >= troubleFrom ? 20_000 : normal(2500, id);
    }
    long completedAt = start + id * CHECKPOINT_MS;
    return completedAt >= incidentFrom && completedAt < incidentTo ? 20_000 : normal(3000, id);
  }

  @Test
  void baselinesComeFromHistoryAndASlowLiveCheckpointAlertsAtOnce(@TempDir Path tmp)
      throws Exception {
    PrometheusServer.requireBinary();
    String promtool = ServerProcess.requireBinary("promtool", "prometheus");
    Path tsdb = tmp.resolve("tsdb");
    writeBlocks(promtool, tmp.resolve("history.om"), tsdb);
    try (PrometheusServer prometheus = PrometheusServer.startWithData(tmp.resolve("prom"), tsdb,
            "30d");
        WebhookReceiver alertmanager = new WebhookReceiver()) {
      long started = System.nanoTime();
      try (CheckpointDoctor service = TestService.start(tmp.resolve("data"),
          "--bootstrap-url", "http://127.0.0.1:" + prometheus.port(),
          "--alertmanager-url", alertmanager.url(""), "--max-future-skew", "1h",
          // the scrapes carry only the checkpoint gauges, so no rule names a cause and the
          // diagnosis is unknown, which by default is not alerted while checkpoints complete
          // (AlertBookTest): this test is about a bootstrapped baseline alerting on the first slow
          // live checkpoints, and with every diagnosis alertable "nothing found in history is
          // alerted" below checks the bootstrap, not the unknown-cause policy
          "--alert-unknown")) {
        JsonObject steady = Await.until("steady's baseline from history", Duration.ofSeconds(90),
            () -> readyBaseline(service, "steady"));
        JsonObject slowing = Await.until("slowing's baseline from history",
            Duration.ofSeconds(30), () -> readyBaseline(service, "slowing"));
        double seconds = (System.nanoTime() - started) / 1e9;
        Await.until("all three jobs read", Duration.ofSeconds(60), () -> new JsonObject(
            Http.get(TestService.url(service, "/readyz")).body()).getString("status")
            .equals("ready"));
        System.out.printf(Locale.ROOT, "BootstrapIT: baselines ready %.1f s after start%n",
            seconds);
        assertThat(seconds).as("ready within seconds of start").isLessThan(60);
        // the window's last 120 checkpoints, as history had them
        assertThat(steady.getDouble("expected")).isCloseTo(historicalMean("steady"),
            org.assertj.core.data.Percentage.withPercentage(2));
        assertThat(slowing.getDouble("expected")).isCloseTo(historicalMean("slowing"),
            org.assertj.core.data.Percentage.withPercentage(2));
        // a checkpoint a minute: the baselines' 120 checkpoints are two hours, so the service reads
        // the day its per-scrape series need (26 h), not all of the two days
        assertThat(Instant.parse(steady.getString("historySince")).toEpochMilli())
            .isBetween(end - Duration.ofHours(26).toMillis(),
                end - Duration.ofHours(26).toMillis() + 2 * CHECKPOINT_MS);
        historyNoteOnJobPage(service, tmp.resolve("browser"), steady.getString("historySince"));
        // the incident in history: found, kept, resolved
        JsonArray past = anomalies(service, "slowing");
        assertThat(past.size()).isEqualTo(1);
        JsonObject incident = past.getJsonObject(0);
        assertThat(incident.getString("state")).isEqualTo("resolved");
        assertThat(Instant.parse(incident.getString("startedAt")).toEpochMilli())
            .isBetween(incidentFrom, incidentTo);

        // Live: steady goes on as before, slowing's checkpoints take 20 s from the first one on.
        long liveFrom = end + SCRAPE_MS;
        long firstLiveCheckpoint = -1;
        for (long t = liveFrom; t < liveFrom + 8 * CHECKPOINT_MS; t += SCRAPE_MS) {
          long id = checkpointId(t);
          boolean newCheckpoint = id != checkpointId(t - SCRAPE_MS);
          if (newCheckpoint && firstLiveCheckpoint < 0) {
            firstLiveCheckpoint = t;
          }
          post(service, null, "steady", t, id, normal(2000, id));
          // the slow checkpoints are those completed live; the gauge still shows history's last
          post(service, null, "slowing", t, id, id > checkpointId(end) ? 20_000
              : historyDuration("slowing", t));
          post(service, null, "troubled", t, id, 20_000);
        }
        long slowSince = firstLiveCheckpoint;
        JsonObject open = Await.until("an anomaly on slowing's live checkpoints",
            Duration.ofSeconds(30), () -> {
              JsonArray a = anomalies(service, "slowing");
              for (int i = 0; i < a.size(); i++) {
                if (a.getJsonObject(i).getString("state").equals("open")) {
                  return a.getJsonObject(i);
                }
              }
              return null;
            });
        assertThat(open.getString("signal")).isEqualTo("checkpoint_duration");
        assertThat(Instant.parse(open.getString("startedAt")).toEpochMilli())
            .as("opened on the first slow live checkpoints").isEqualTo(slowSince);
        assertThat(anomalies(service, "steady").size()).as("the steady job stays quiet").isZero();

        JsonArray alerts = Await.until("the live anomaly alerted", Duration.ofSeconds(30),
            () -> {
              JsonArray all = new JsonArray();
              for (WebhookReceiver.Notification n : alertmanager.received()) {
                new JsonArray(n.raw()).forEach(all::add);
              }
              return all.isEmpty() ? null : all;
            });
        // troubled's anomaly opened in history, before slowing's live one: it would have been
        // posted first; only the live one is
        for (int i = 0; i < alerts.size(); i++) {
          JsonObject alert = alerts.getJsonObject(i);
          assertThat(alert.getJsonObject("labels").getString("job_name"))
              .as("nothing found in history is alerted").isEqualTo("slowing");
          assertThat(Instant.parse(alert.getString("startsAt")).toEpochMilli())
              .isGreaterThanOrEqualTo(liveFrom);
        }
        JsonArray troubled = anomalies(service, "troubled");
        assertThat(troubled.size()).isEqualTo(1);
        assertThat(troubled.getJsonObject(0).getString("state")).isEqualTo("open");
        assertThat(Instant.parse(troubled.getJsonObject(0).getString("startedAt"))
            .toEpochMilli()).isBetween(troubleFrom, end);
      }
    }
  }

  @Test
  void withPrometheusStoppedTheServiceStartsAndLearnsLive(@TempDir Path tmp) throws Exception {
    PrometheusServer.requireBinary();
    int port;
    try (PrometheusServer prometheus = PrometheusServer.start(tmp.resolve("prom"),
        "global:\n  scrape_interval: 15s\nscrape_configs: []\n")) {
      port = prometheus.port();
    }
    long t0 = System.nanoTime();
    try (CheckpointDoctor service = TestService.start(tmp.resolve("data"),
        "--bootstrap-url", "http://127.0.0.1:" + port)) {
      Await.until("ready", Duration.ofSeconds(30), () -> new JsonObject(
          Http.get(TestService.url(service, "/readyz")).body()).getString("status")
          .equals("ready"));
      assertThat((System.nanoTime() - t0) / 1e9).isLessThan(30);
      long from = (System.currentTimeMillis() / 60_000L - 60) * 60_000L;
      for (int i = 0; i < 25; i++) {
        post(service, Bodies.checkpointScrape("live", from + i * 60_000L, i + 1, 2000), null, 0, 0,
            0);
      }
      JsonObject b = Await.until("baseline learnt live", Duration.ofSeconds(30),
          () -> readyBaseline(service, "live"));
      assertThat(b.getString("historySince")).isNull();
      assertThat(b.getDouble("expected")).isEqualTo(2000.0);
      String metrics = Http.get(TestService.url(service, "/metrics")).body();
      assertThat(Http.metric(metrics,
          "checkpoint_doctor_bootstrap_problems_total{reason=\"unreachable\"}")).isEqualTo(1);
    }
  }

  /** The job page says since when the duration baseline learned from history. */
  private static void historyNoteOnJobPage(CheckpointDoctor service, Path dir, String since)
      throws Exception {
    if (!HeadlessChromium.installed()) {
      if (System.getenv("CI") != null) {
        throw new AssertionError("chromium and chromedriver are not installed");
      }
      return; // WebUiIT says why it is skipped
    }
    try (HeadlessChromium browser = HeadlessChromium.start(dir, 1360, 900)) {
      browser.open(TestService.url(service, "/ui/job.html?job=steady"));
      Object note = Await.until("the history note on steady's duration chart",
          Duration.ofSeconds(30), () -> browser.script("const n = document.querySelector("
              + "'.chart-card[data-signal=checkpoint_duration] .history-since');"
              + "return n ? n.textContent : null;"));
      assertThat((String) note).startsWith("learned from history since ");
      // the page writes times as "YYYY-MM-DD HH:MM UTC"
      assertThat((String) note).endsWith(since.substring(0, 16).replace('T', ' ') + " UTC");
    }
  }

  private double historicalMean(String job) {
    double sum = 0;
    long lastId = checkpointId(end);
    for (long id = lastId - 119; id <= lastId; id++) {
      sum += historyDuration(job, start + id * CHECKPOINT_MS);
    }
    return sum / 120;
  }

  /** The JobManager gauges of both jobs every 15 s for two days, as OpenMetrics text. */
  private void writeBlocks(String promtool, Path text, Path tsdb) throws Exception {
    String[][] gauges = {{"lastCompletedCheckpointId", "id"},
        {"numberOfCompletedCheckpoints", "id"}, {"numberOfFailedCheckpoints", "0"},
        {"numberOfInProgressCheckpoints", "0"}, {"lastCheckpointDuration", "duration"},
        {"lastCheckpointSize", "size"}, {"lastCheckpointFullSize", "full"}};
    try (BufferedWriter w = Files.newBufferedWriter(text, StandardCharsets.UTF_8)) {
      for (String[] g : gauges) {
        String name = "flink_jobmanager_job_" + g[0];
        w.write("# TYPE " + name + " gauge\n");
        for (String job : List.of("steady", "slowing", "troubled")) {
          String labels = "{instance=\"jm:9249\",job=\"flink\",job_id=\"" + JOB_ID
              + "\",job_name=\"" + job + "\"}";
          for (long t = start; t <= end; t += SCRAPE_MS) {
            long id = checkpointId(t);
            double v = switch (g[1]) {
              case "id" -> id;
              case "duration" -> historyDuration(job, t);
              case "size" -> 1_000_000;
              case "full" -> 50_000_000;
              default -> 0;
            };
            w.write(name + labels + " " + (long) v + " " + t / 1000 + "\n");
          }
        }
      }
      w.write("# EOF\n");
    }
    Process p = new ProcessBuilder(promtool, "tsdb", "create-blocks-from", "openmetrics",
        text.toString(), tsdb.toString()).redirectErrorStream(true)
        .redirectOutput(tsdb.resolveSibling("promtool.log").toFile()).start();
    assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    assertThat(p.exitValue()).as(Files.readString(tsdb.resolveSibling("promtool.log")))
        .isZero();
  }

  private static void post(CheckpointDoctor service, byte[] body, String job, long t, long id,
      double durationMs) {
    byte[] b = body != null ? body : checkpointScrape(job, t, id, durationMs);
    var r = Http.post(TestService.url(service, "/api/v1/write"), b, Http.remoteWriteHeaders());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
  }

  /** A live scrape with the history's labels (the JobManager's job_id). */
  private static byte[] checkpointScrape(String job, long t, long id, double durationMs) {
    List<dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.Proto> s =
        new ArrayList<>();
    Object[][] gauges = {{"lastCompletedCheckpointId", (double) id},
        {"numberOfCompletedCheckpoints", (double) id}, {"numberOfFailedCheckpoints", 0.0},
        {"numberOfInProgressCheckpoints", 0.0}, {"lastCheckpointDuration", durationMs},
        {"lastCheckpointSize", 1_000_000.0}, {"lastCheckpointFullSize", 50_000_000.0}};
    for (Object[] g : gauges) {
      s.add(dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.series(new String[] {
          "__name__", "flink_jobmanager_job_" + g[0], "instance", "jm:9249", "job", "flink",
          "job_id", JOB_ID, "job_name", job}, new long[] {t}, new double[] {(Double) g[1]}));
    }
    return dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.compress(
        dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.writeRequest(
            s.toArray(new dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.Proto[0])));
  }

  private static JsonObject readyBaseline(CheckpointDoctor service, String job) {
    var r = Http.get(TestService.url(service, "/api/v1/jobs/" + job + "/baselines"));
    if (r.statusCode() != 200) {
      return null;
    }
    JsonArray b = new JsonObject(r.body()).getJsonArray("baselines");
    for (int i = 0; i < b.size(); i++) {
      JsonObject o = b.getJsonObject(i);
      if (o.getString("signal").equals("checkpoint_duration") && o.getString("state")
          .equals("ready")) {
        return o;
      }
    }
    return null;
  }

  private static JsonArray anomalies(CheckpointDoctor service, String job) {
    return new JsonObject(Http.get(TestService.url(service, "/api/v1/anomalies?job=" + job))
        .body()).getJsonArray("anomalies");
  }
}
