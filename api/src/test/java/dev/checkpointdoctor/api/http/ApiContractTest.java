package dev.checkpointdoctor.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Bodies;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON shapes the README and the OpenAPI document promise, and the errors. */
class ApiContractTest {

  @Test
  void openApiDocumentListsExactlyTheServedRoutes(@TempDir Path dir) throws Exception {
    try (CheckpointDoctor s = TestService.start(dir)) {
      HttpResponse<String> r = Http.get(TestService.url(s, "/api/v1/openapi.yaml"));
      assertThat(r.statusCode()).isEqualTo(200);
      List<String> documented = new ArrayList<>();
      Matcher m = Pattern.compile("(?m)^  (/[^:]*):$").matcher(r.body());
      while (m.find()) {
        documented.add(m.group(1).replaceAll("\\{([^}]+)}", ":$1"));
      }
      assertThat(documented).containsExactlyInAnyOrderElementsOf(
          List.of("/api/v1/write", "/api/v1/jobs", "/api/v1/jobs/:job",
              "/api/v1/jobs/:job/baselines", "/api/v1/jobs/:job/series", "/api/v1/anomalies",
              "/api/v1/openapi.yaml", "/docs/:path", "/healthz", "/readyz", "/metrics"));
      assertThat(Files.readString(Path.of("src/main/resources/openapi.yaml")))
          .isEqualTo(r.body());
    }
  }

  @Test
  void shapesOfJobsBaselinesAndAnomalies(@TempDir Path dir) throws Exception {
    long t0 = 1_796_000_000_000L;
    try (CheckpointDoctor s = TestService.start(dir, "--min-observations", "5")) {
      String write = TestService.url(s, "/api/v1/write");
      for (int i = 0; i < 12; i++) {
        double d = i < 8 ? 1000 : 5000;
        Http.post(write, Bodies.checkpointScrape("job_b", t0 + i * 60_000L, i + 1, d),
            Http.remoteWriteHeaders());
      }
      // Writes are processed asynchronously: wait for the last one, not only for the anomaly.
      JsonObject jobs = Await.until("job_b anomalous after the last write", Duration.ofSeconds(10),
          () -> {
            JsonObject j = new JsonObject(Http.get(TestService.url(s, "/api/v1/jobs")).body());
            JsonObject first = j.getJsonArray("jobs").getJsonObject(0);
            return first.getString("status").equals("anomalous")
                && first.getString("lastSeen").equals("2026-11-30T01:04:20Z") ? j : null;
          });
      JsonObject job = jobs.getJsonArray("jobs").getJsonObject(0);
      assertThat(job.fieldNames()).containsExactlyInAnyOrder("job", "jobName", "labels",
          "status", "signals", "openAnomalies", "lastSeen", "baselinesReady", "baselinesTotal",
          "checkpointsUntilReady", "readyAt");
      assertThat(job.getInteger("baselinesReady")).isPositive()
          .isLessThanOrEqualTo(job.getInteger("baselinesTotal"));
      assertThat(jobs.getLong("unjoinedSamples")).isZero();
      assertThat(job.getString("lastSeen")).isEqualTo("2026-11-30T01:04:20Z");
      assertThat(job.getInteger("openAnomalies")).isEqualTo(1);

      JsonObject detail = new JsonObject(Http.get(TestService.url(s, "/api/v1/jobs/job_b"))
          .body());
      JsonObject diagnosis = detail.getJsonObject("diagnosis");
      assertThat(diagnosis.getString("cause")).isNotBlank();
      assertThat(diagnosis.getString("since")).endsWith("Z");
      assertThat(diagnosis.getJsonArray("evidence")).isNotEmpty();
      assertThat(diagnosis.getString("severity")).isIn("warning", "critical");
      assertThat(diagnosis.getString("runbook"))
          .isEqualTo("/docs/causes/" + diagnosis.getString("cause") + ".html");
      assertThat(detail.getJsonArray("baselines")).isNotEmpty();

      JsonArray anomalies = new JsonObject(Http.get(TestService.url(s,
          "/api/v1/anomalies?job=job_b&state=open")).body()).getJsonArray("anomalies");
      assertThat(anomalies).hasSize(1);
      JsonObject a = anomalies.getJsonObject(0);
      assertThat(a.getString("signal")).isEqualTo("checkpoint_duration");
      assertThat(a.getString("scope")).isEqualTo("job");
      assertThat(a.getString("unit")).isEqualTo("ms");
      assertThat(a.getString("state")).isEqualTo("open");
      // Shift starts at the 9th scrape (i = 8): t0 + 8 min.
      assertThat(a.getString("startedAt")).isEqualTo("2026-11-30T01:01:20Z");
      assertThat(a.getValue("endedAt")).isNull();
      assertThat(a.getDouble("observed")).isEqualTo(5000.0);
      assertThat(a.getDouble("upper")).isLessThan(5000.0);
      assertThat(a.getJsonArray("causes")).isNotNull();

      assertThat(new JsonObject(Http.get(TestService.url(s,
          "/api/v1/anomalies?state=resolved")).body()).getJsonArray("anomalies")).isEmpty();
      // Every filter is honoured: the signal one too.
      assertThat(new JsonObject(Http.get(TestService.url(s,
          "/api/v1/anomalies?signal=checkpoint_duration")).body()).getJsonArray("anomalies"))
          .hasSize(1);
      assertThat(new JsonObject(Http.get(TestService.url(s,
          "/api/v1/anomalies?signal=checkpoint_size")).body()).getJsonArray("anomalies"))
          .isEmpty();
    }
  }

  @Test
  void unknownOrRepeatedQueryParametersAreRefusedByName(@TempDir Path dir) throws Exception {
    try (CheckpointDoctor s = TestService.start(dir)) {
      for (int i = 0; i < 2; i++) {
        Http.post(TestService.url(s, "/api/v1/write"), Bodies.checkpointScrape("job_c",
            1_796_000_000_000L + i * 60_000L, i + 1, 1000), Http.remoteWriteHeaders());
      }
      Await.until("job_c known", Duration.ofSeconds(10), () -> Http.get(TestService.url(s,
          "/api/v1/jobs/job_c")).statusCode() == 200);
      String[][] cases = {
          {"/api/v1/anomalies?sate=open", "unknown query parameter \"sate\"; /api/v1/anomalies "
              + "takes job, state, signal, since"},
          {"/api/v1/anomalies?state=open&state=resolved",
              "query parameter \"state\" given more than once"},
          {"/api/v1/anomalies?signal=checkpoint_durations", "unknown signal "
              + "\"checkpoint_durations\""},
          {"/api/v1/jobs?job=job_c", "unknown query parameter \"job\"; /api/v1/jobs takes none"},
          {"/api/v1/jobs/job_c?range=1h", "unknown query parameter \"range\""},
          {"/api/v1/jobs/job_c/baselines?signal=x", "unknown query parameter \"signal\""},
          {"/api/v1/jobs/job_c/series?signal=checkpoint_duration&scop=job",
              "unknown query parameter \"scop\"; /api/v1/jobs/job_c/series takes signal, scope, "
                  + "from, to, points"}};
      for (String[] c : cases) {
        HttpResponse<String> r = Http.get(TestService.url(s, c[0]));
        assertThat(r.statusCode()).as(c[0]).isEqualTo(400);
        assertThat(new JsonObject(r.body()).getString("error")).as(c[0]).startsWith(c[1]);
      }
      assertThat(Http.get(TestService.url(s, "/api/v1/jobs/job_c/series?signal="
          + "checkpoint_duration&scope=job&points=10")).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void docsPagesAreServedAsHtmlAndMarkdownAndNothingElseOfTheClasspath(@TempDir Path dir)
      throws Exception {
    try (CheckpointDoctor s = TestService.start(dir)) {
      HttpResponse<String> html = Http.get(TestService.url(s, "/docs/causes/disk_throttling.html"));
      assertThat(html.statusCode()).isEqualTo(200);
      assertThat(html.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      assertThat(html.body()).startsWith("<!DOCTYPE html>")
          .contains("<title>disk_throttling — the TaskManager's disk is throttled at a ceiling "
              + "· Checkpoint Doctor</title>")
          .contains("<h2>Remedy</h2>", "<strong>Main sign:</strong>")
          // sibling runbooks link to their HTML form; the source stays reachable
          .contains("<a href=\"state_growth.html\">state_growth</a>")
          .contains("<a href=\"disk_throttling.md\">docs/causes/disk_throttling.md</a>")
          .doesNotContain("](state_growth.md)");
      HttpResponse<String> index = Http.get(TestService.url(s, "/docs/causes/"));
      assertThat(index.statusCode()).isEqualTo(200);
      assertThat(index.body()).contains("<table>", "<a href=\"gc_pressure.html\">");
      HttpResponse<String> page = Http.get(TestService.url(s, "/docs/causes/unknown.md"));
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).hasValue(
          "text/markdown; charset=utf-8");
      assertThat(page.body()).isEqualTo(Files.readString(Path.of("..", "docs", "causes",
          "unknown.md")));
      assertThat(Http.get(TestService.url(s, "/docs/causes/no_such_cause.md")).statusCode())
          .isEqualTo(404);
      assertThat(Http.get(TestService.url(s, "/docs/../openapi.yaml")).statusCode())
          .isEqualTo(404);
      assertThat(Http.get(TestService.url(s, "/docs/%2e%2e/openapi.yaml")).statusCode())
          .isEqualTo(404);
    }
  }

  @Test
  void errorsAreJsonWithAMessage(@TempDir Path dir) throws Exception {
    try (CheckpointDoctor s = TestService.start(dir)) {
      HttpResponse<String> unknownJob = Http.get(TestService.url(s, "/api/v1/jobs/nope"));
      assertThat(unknownJob.statusCode()).isEqualTo(404);
      assertThat(new JsonObject(unknownJob.body()).getString("error")).contains("nope");
      HttpResponse<String> badState = Http.get(TestService.url(s,
          "/api/v1/anomalies?state=closed"));
      assertThat(badState.statusCode()).isEqualTo(400);
      assertThat(badState.body()).contains("state must be open or resolved");
      HttpResponse<String> badSince = Http.get(TestService.url(s,
          "/api/v1/anomalies?since=yesterday"));
      assertThat(badSince.statusCode()).isEqualTo(400);
      assertThat(Http.get(TestService.url(s, "/nowhere")).statusCode()).isEqualTo(404);
      assertThat(Http.get(TestService.url(s, "/healthz")).statusCode()).isEqualTo(200);
      assertThat(Http.get(TestService.url(s, "/readyz")).statusCode()).isEqualTo(200);
    }
  }
}
