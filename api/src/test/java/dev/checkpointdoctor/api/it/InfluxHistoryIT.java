package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** History in a real InfluxDB 1.6: written in event time, queryable, and kept across an outage. */
class InfluxHistoryIT {
  static final Duration WAIT = Duration.ofSeconds(30);
  static final String DB = "checkpoint_doctor";
  static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "checkpoint-doctor.json");

  @BeforeAll
  static void influxInstalled() {
    InfluxServer.requireBinary();
  }

  static long durationPoints(InfluxServer influx, String job) {
    JsonArray rows = influx.rows(DB, "SELECT count(\"observed\") FROM \"signal\" WHERE \"job\" = '"
        + job + "' AND \"signal\" = 'checkpoint_duration' AND \"scope\" = 'job'");
    return rows.isEmpty() ? 0 : rows.getJsonArray(0).getLong(1);
  }

  @Test
  void pointsArriveInEventTimeAndTheDashboardQueriesAnswer(@TempDir Path dir) throws Exception {
    try (InfluxServer influx = InfluxServer.start(dir.resolve("influx"),
            PrometheusServer.freePort(), PrometheusServer.freePort());
        CheckpointDoctor s = TestService.start(dir.resolve("svc"), "--min-observations", "5",
            "--influx-url", influx.url())) {
      CheckpointFeed feed = new CheckpointFeed(s, "orders");
      feed.scrapes(8, 1000);
      feed.scrapes(4, 5000);
      feed.scrapes(6, 1000);
      Await.until("18 checkpoint_duration points", WAIT, () -> durationPoints(influx, "orders")
          == 18);
      assertThat(influx.rows("", "SHOW DATABASES").stream().map(Object::toString))
          .anyMatch(r -> r.contains(DB));

      JsonArray rows = influx.rows(DB, "SELECT \"observed\", \"expected\", \"lower\", "
          + "\"upper\", \"score\" FROM \"signal\" WHERE \"job\" = 'orders' AND \"signal\" = "
          + "'checkpoint_duration' AND \"scope\" = 'job'");
      assertThat(rows.getJsonArray(0).getLong(0)).as("event time of the first scrape")
          .isEqualTo(feed.t0);
      JsonArray slow = rows.getJsonArray(8);
      assertThat(slow.getLong(0)).isEqualTo(feed.t0 + 8 * 60_000L);
      assertThat(slow.getDouble(1)).isEqualTo(5000.0);
      assertThat(slow.getDouble(4)).as("upper edge of the band").isLessThan(5000.0);
      assertThat(slow.getDouble(3)).as("lower edge").isLessThan(slow.getDouble(2));

      JsonArray anomalies = Await.until("anomaly opened and resolved", WAIT, () -> {
        JsonArray a = influx.rows(DB, "SELECT \"state\", \"cause\", \"signal\", \"text\" FROM "
            + "\"anomaly\" WHERE \"job\" = 'orders'");
        return a.size() == 2 ? a : null;
      });
      assertThat(anomalies.getJsonArray(0).getString(1)).isEqualTo("open");
      assertThat(anomalies.getJsonArray(0).getLong(0)).isEqualTo(feed.t0 + 8 * 60_000L);
      assertThat(anomalies.getJsonArray(1).getString(1)).isEqualTo("resolved");
      assertThat(anomalies.getJsonArray(0).getString(3)).isEqualTo("checkpoint_duration");
      JsonArray diagnoses = Await.until("diagnosis opened and closed", WAIT, () -> {
        JsonArray d = influx.rows(DB, "SELECT \"state\", \"cause\", \"severity\", \"text\" FROM "
            + "\"diagnosis\" WHERE \"job\" = 'orders'");
        return d.size() == 2 ? d : null;
      });
      assertThat(diagnoses.getJsonArray(0).getString(1)).isEqualTo("opened");
      assertThat(diagnoses.getJsonArray(0).getString(2)).isNotBlank();
      assertThat(diagnoses.getJsonArray(1).getString(1)).isEqualTo("closed");

      // Every query of the Grafana dashboard runs as Grafana would send it.
      JsonObject dashboard = new JsonObject(Files.readString(DASHBOARD));
      List<String> nonEmpty = new ArrayList<>();
      for (String q : GrafanaDashboardQueries.all(dashboard)) {
        String sent = q.replace("$job", "orders").replace("$timeFilter", "time > now() - 2h")
            .replace("$__interval", "1m");
        JsonObject result = influx.query(DB, sent);
        assertThat(result.containsKey("error")).as(sent + " -> " + result).isFalse();
        if (result.containsKey("series")) {
          nonEmpty.add(q);
        }
      }
      assertThat(nonEmpty).anyMatch(q -> q.contains("'checkpoint_duration'"))
          .anyMatch(q -> q.contains("FROM \"anomaly\""))
          .anyMatch(q -> q.contains("FROM \"diagnosis\""))
          .anyMatch(q -> q.startsWith("SHOW TAG VALUES"));
    }
  }

  @Test
  void anInfluxOutageIsBufferedAndWrittenAfterTheRestart(@TempDir Path dir) throws Exception {
    Path influxDir = dir.resolve("influx");
    int http = PrometheusServer.freePort();
    int rpc = PrometheusServer.freePort();
    InfluxServer before = InfluxServer.start(influxDir, http, rpc);
    try (CheckpointDoctor s = TestService.start(dir.resolve("svc"), "--influx-url",
        before.url())) {
      CheckpointFeed feed = new CheckpointFeed(s, "billing");
      try (before) {
        feed.scrapes(5, 1000);
        Await.until("5 points before the outage", WAIT, () -> durationPoints(before, "billing")
            == 5);
      }
      feed.scrapes(10, 1000); // every write answered 204 while InfluxDB is down
      Await.until("a failed history write counted", WAIT, () -> Http.metric(
          Http.get(TestService.url(s, "/metrics")).body(),
          "checkpoint_doctor_history_write_failures_total") >= 1);

      try (InfluxServer after = InfluxServer.start(influxDir, http, rpc)) {
        Await.until("the 10 buffered points written after the restart", WAIT,
            () -> durationPoints(after, "billing") == 15);
        String metrics = Http.get(TestService.url(s, "/metrics")).body();
        assertThat(Http.metric(metrics,
            "checkpoint_doctor_history_points_dropped_total{reason=\"buffer_full\"}"))
            .isIn(0.0, Double.NaN);
        assertThat(Http.metric(metrics, "checkpoint_doctor_history_points_written_total"))
            .isGreaterThanOrEqualTo(15);
      }
    }
  }
}
