package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service against real Alertmanager 0.25 processes, with the webhook receiver in this test:
 * what an operator's pager would receive.
 */
class AlertmanagerIT {
  static final Duration WAIT = Duration.ofSeconds(30);

  @BeforeAll
  static void alertmanagerInstalled() {
    AlertmanagerServer.requireBinary();
  }

  /** Scrapes one minute apart in event time, ending shortly before the wall clock. */
  static Predicate<JsonObject> notification(String status, String job) {
    return n -> status.equals(n.getString("status")) && n.getJsonArray("alerts").stream()
        .map(JsonObject.class::cast)
        .anyMatch(a -> job.equals(a.getJsonObject("labels").getString("job_name"))
            && status.equals(a.getString("status")));
  }

  static JsonObject alertOf(JsonObject notification) {
    return notification.getJsonArray("alerts").getJsonObject(0);
  }

  @Test
  void firingThenResolvedNotificationsReachBothAlertmanagers(@TempDir Path dir) throws Exception {
    try (WebhookReceiver hooks = new WebhookReceiver();
        AlertmanagerServer am1 = AlertmanagerServer.start(dir.resolve("am1"),
            AlertmanagerServer.webhookConfig(hooks.url("/am1")), PrometheusServer.freePort());
        AlertmanagerServer am2 = AlertmanagerServer.start(dir.resolve("am2"),
            AlertmanagerServer.webhookConfig(hooks.url("/am2")), PrometheusServer.freePort());
        CheckpointDoctor s = TestService.start(dir.resolve("svc"), "--min-observations", "5",
            "--alertmanager-url", am1.url(), "--alertmanager-url", am2.url(),
            "--alert-resend-interval", "2s", "--alert-unknown")) {
      CheckpointFeed feed = new CheckpointFeed(s, "orders-etl");
      feed.scrapes(8, 1000);
      feed.scrapes(4, 5000);

      JsonObject firing = Await.until("firing notification from Alertmanager 1", WAIT,
          () -> hooks.first("/am1", notification("firing", "orders-etl")));
      Await.until("firing notification from Alertmanager 2", WAIT,
          () -> hooks.first("/am2", notification("firing", "orders-etl")));

      JsonObject diagnosis = new JsonObject(Http.get(TestService.url(s,
          "/api/v1/jobs/orders-etl")).body()).getJsonObject("diagnosis");
      String cause = diagnosis.getString("cause");
      boolean critical = diagnosis.getBoolean("checkpointsFailing")
          || (diagnosis.getDouble("hoursToTimeout") != null
              && diagnosis.getDouble("hoursToTimeout") <= 24);
      JsonObject alert = alertOf(firing);
      JsonObject labels = alert.getJsonObject("labels");
      assertThat(labels.getMap()).containsOnlyKeys("alertname", "job_name", "cause",
          "severity", "signal");
      assertThat(labels.getString("alertname")).isEqualTo("FlinkCheckpointAnomaly");
      assertThat(labels.getString("job_name")).isEqualTo("orders-etl");
      assertThat(labels.getString("cause")).isEqualTo(cause);
      assertThat(labels.getString("severity")).isEqualTo(critical ? "critical" : "warning");
      assertThat(labels.getString("signal")).isEqualTo(diagnosis.getString("signal"));
      JsonObject annotations = alert.getJsonObject("annotations");
      assertThat(annotations.getString("summary")).contains("orders-etl");
      assertThat(annotations.getString("description")).contains("checkpoint_duration");
      assertThat(annotations.getString("remedy")).isEqualTo(diagnosis.getString("remedy"));
      // The links open pages: the runbook as HTML, the job page at the anomaly's start.
      String external = TestService.url(s, "");
      assertThat(annotations.getString("runbook_url"))
          .isEqualTo(external + "/docs/causes/" + cause + ".html");
      String start = new JsonObject(Http.get(TestService.url(s,
          "/api/v1/anomalies?job=orders-etl&state=open")).body()).getJsonArray("anomalies")
          .stream().map(a -> ((JsonObject) a).getString("startedAt")).sorted().findFirst()
          .orElseThrow();
      assertThat(alert.getString("generatorURL")).isEqualTo(external
          + "/ui/job.html?job=orders-etl&at=" + start.replace(":", "%3A"));
      HttpResponse<String> runbook = Http.get(annotations.getString("runbook_url"));
      assertThat(runbook.statusCode()).isEqualTo(200);
      assertThat(runbook.headers().firstValue("Content-Type")).hasValue(
          "text/html; charset=utf-8");
      HttpResponse<String> page = Http.get(alert.getString("generatorURL"));
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      // startsAt is the diagnosis' event time, not when the alert was posted.
      assertThat(alert.getString("startsAt")).startsWith(diagnosis.getString("since")
          .substring(0, 16));

      feed.scrapes(6, 1000);
      JsonObject resolved1 = Await.until("resolved notification from Alertmanager 1", WAIT,
          () -> hooks.first("/am1", notification("resolved", "orders-etl")));
      Await.until("resolved notification from Alertmanager 2", WAIT,
          () -> hooks.first("/am2", notification("resolved", "orders-etl")));
      assertThat(alertOf(resolved1).getJsonObject("labels")).isEqualTo(labels);
      String metrics = Http.get(TestService.url(s, "/metrics")).body();
      for (AlertmanagerServer am : new AlertmanagerServer[] {am1, am2}) {
        assertThat(Http.metric(metrics, "checkpoint_doctor_alerts_sent_total{alertmanager=\""
            + am.url() + "\",result=\"success\"}")).isGreaterThanOrEqualTo(2);
      }
    }
  }

  @Test
  void anAlertRaisedWhileAlertmanagerIsDownArrivesWhenItIsBack(@TempDir Path dir)
      throws Exception {
    int port = PrometheusServer.freePort();
    Path amDir = dir.resolve("am");
    try (WebhookReceiver hooks = new WebhookReceiver()) {
      String config = AlertmanagerServer.webhookConfig(hooks.url("/hook"));
      AlertmanagerServer.start(amDir, config, port).close();
      String amUrl = "http://127.0.0.1:" + port;
      try (CheckpointDoctor s = TestService.start(dir.resolve("svc"), "--min-observations", "5",
          "--alertmanager-url", amUrl, "--alert-resend-interval", "2s", "--alert-unknown")) {
        CheckpointFeed feed = new CheckpointFeed(s, "payments");
        feed.scrapes(8, 1000);
        feed.scrapes(4, 5000);
        String failures = "checkpoint_doctor_alerts_sent_total{alertmanager=\"" + amUrl
            + "\",result=\"failure\"}";
        Await.until("failed deliveries counted", WAIT, () -> Http.metric(Http.get(
            TestService.url(s, "/metrics")).body(), failures) >= 2);
        // Ingest carries on while Alertmanager is away.
        feed.scrapes(1, 5000);
        assertThat(hooks.received()).isEmpty();

        try (AlertmanagerServer am = AlertmanagerServer.start(amDir, config, port)) {
          JsonObject firing = Await.until("firing notification after Alertmanager came back",
              WAIT, () -> hooks.first("/hook", notification("firing", "payments")));
          assertThat(alertOf(firing).getJsonObject("labels").getString("alertname"))
              .isEqualTo("FlinkCheckpointAnomaly");
          JsonArray active = new JsonArray(Http.get(am.url()
              + "/api/v2/alerts?filter=job_name%3D%22payments%22").body());
          assertThat(active).hasSize(1);
          assertThat(Http.metric(Http.get(TestService.url(s, "/metrics")).body(),
              "checkpoint_doctor_alerts_dropped_total{alertmanager=\"" + amUrl
                  + "\",reason=\"buffer_full\"}")).isZero();
        }
      }
    }
  }

  /**
   * Without --alert-unknown, slower checkpoints that no rule explains stay in the API and page
   * nobody; once checkpoints fail the job alerts, critical.
   */
  @Test
  void anUnknownCauseAlertsOnlyOnceCheckpointsFail(@TempDir Path dir) throws Exception {
    try (WebhookReceiver hooks = new WebhookReceiver();
        AlertmanagerServer am = AlertmanagerServer.start(dir.resolve("am"),
            AlertmanagerServer.webhookConfig(hooks.url("/hook")), PrometheusServer.freePort());
        CheckpointDoctor s = TestService.start(dir.resolve("svc"), "--min-observations", "5",
            "--alertmanager-url", am.url(), "--alert-resend-interval", "1s")) {
      CheckpointFeed feed = new CheckpointFeed(s, "billing");
      feed.scrapes(8, 1000);
      feed.scrapes(4, 5000);
      JsonObject unknown = Await.until("an unknown diagnosis in the API", WAIT,
          () -> new JsonObject(Http.get(TestService.url(s, "/api/v1/jobs/billing")).body())
              .getJsonObject("diagnosis"));
      assertThat(unknown.getString("cause")).isEqualTo("unknown");
      assertThat(unknown.getBoolean("checkpointsFailing")).isFalse();

      feed.failingScrapes(3, 5000);
      JsonObject firing = Await.until("firing notification once checkpoints fail", WAIT,
          () -> hooks.first("/hook", notification("firing", "billing")));
      assertThat(alertOf(firing).getJsonObject("labels").getString("severity"))
          .isEqualTo("critical");
      // nothing was posted for the unknown diagnosis while checkpoints still completed
      assertThat(hooks.received()).allSatisfy(n -> assertThat(n.body().getJsonArray("alerts"))
          .allSatisfy(a -> assertThat(((JsonObject) a).getJsonObject("labels")
              .getString("severity")).isEqualTo("critical")));
    }
  }
}
