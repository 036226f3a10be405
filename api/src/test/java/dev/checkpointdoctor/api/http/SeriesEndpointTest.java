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
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/v1/jobs/{job}/series} and the pages' routes. */
class SeriesEndpointTest {
  static final long T0 = 1_796_000_000_000L;

  @Test
  void seriesCarriesObservedBandAndTheAnomalyPeriod(@TempDir Path dir) throws Exception {
    try (CheckpointDoctor s = TestService.start(dir, "--min-observations", "5")) {
      for (int i = 0; i < 12; i++) {
        Http.post(TestService.url(s, "/api/v1/write"), Bodies.checkpointScrape("job_b",
            T0 + i * 60_000L, i + 1, i < 8 ? 1000 : 5000), Http.remoteWriteHeaders());
      }
      JsonObject body = Await.until("12 points and an anomaly", Duration.ofSeconds(10), () -> {
        JsonObject j = get(s, "/api/v1/jobs/job_b/series?signal=checkpoint_duration");
        return j.getJsonArray("points").size() == 12 && j.getJsonArray("anomalies").size() == 1
            ? j : null;
      });
      assertThat(body.fieldNames()).containsExactlyInAnyOrder("job", "signal", "scope", "unit",
          "scopes", "from", "to", "bucketSeconds", "bucketsPerPoint", "points", "anomalies");
      assertThat(body.getString("scope")).isEqualTo("job");
      assertThat(body.getString("unit")).isEqualTo("ms");
      assertThat(body.getInteger("bucketSeconds")).isEqualTo(60);
      assertThat(body.getString("to")).isEqualTo("2026-11-30T01:04:20.001Z");
      assertThat(body.getString("from")).isEqualTo("2026-11-29T01:04:20.001Z");
      JsonArray points = body.getJsonArray("points");
      JsonObject learning = points.getJsonObject(0);
      assertThat(learning.getString("start")).isEqualTo("2026-11-30T00:53:00Z");
      assertThat(learning.getString("end")).isEqualTo("2026-11-30T00:54:00Z");
      assertThat(learning.getDouble("last")).isEqualTo(1000.0);
      assertThat(learning.getValue("upper")).isNull();
      JsonObject shifted = points.getJsonObject(11);
      assertThat(shifted.getDouble("min")).isEqualTo(5000.0);
      assertThat(shifted.getDouble("lower")).isLessThan(1000.0);
      assertThat(shifted.getDouble("upper")).isBetween(1000.0, 5000.0);
      assertThat(shifted.getBoolean("outside")).isTrue();
      assertThat(points.getJsonObject(7).getBoolean("outside")).isFalse();
      JsonObject period = body.getJsonArray("anomalies").getJsonObject(0);
      assertThat(period.getString("state")).isEqualTo("open");
      assertThat(period.getString("startedAt")).isEqualTo("2026-11-30T01:01:20Z");
      assertThat(period.getValue("endedAt")).isNull();

      JsonObject two = get(s, "/api/v1/jobs/job_b/series?signal=checkpoint_duration&scope=job"
          + "&points=2&from=2026-11-30T00:00:00Z&to=2026-11-30T02:00:00Z");
      assertThat(two.getJsonArray("points")).hasSize(2);
      assertThat(two.getInteger("bucketsPerPoint")).isEqualTo(6);
      assertThat(two.getJsonArray("points").getJsonObject(1).getDouble("max")).isEqualTo(5000.0);

      JsonObject before = get(s, "/api/v1/jobs/job_b/series?signal=checkpoint_duration"
          + "&from=2026-11-30T00:00:00Z&to=2026-11-30T00:58:00Z");
      assertThat(before.getJsonArray("points")).hasSize(5);
      assertThat(before.getJsonArray("anomalies")).isEmpty();

      JsonObject none = get(s, "/api/v1/jobs/job_b/series?signal=gc_time");
      assertThat(none.getJsonArray("points")).isEmpty();
      assertThat(none.getValue("scope")).isNull();
    }
  }

  @Test
  void badQueriesAreRefusedWithAReason(@TempDir Path dir) throws Exception {
    try (CheckpointDoctor s = TestService.start(dir)) {
      for (int i = 0; i < 3; i++) {
        Http.post(TestService.url(s, "/api/v1/write"), Bodies.checkpointScrape("job_c",
            T0 + i * 60_000L, i + 1, 1000), Http.remoteWriteHeaders());
      }
      Await.until("job_c known", Duration.ofSeconds(10), () -> Http.get(TestService.url(s,
          "/api/v1/jobs/job_c")).statusCode() == 200);
      String base = "/api/v1/jobs/job_c/series";
      assertError(s, base, 400, "signal is required");
      assertError(s, base + "?signal=nope", 400, "unknown signal \"nope\"");
      assertError(s, base + "?signal=gc_time&from=yesterday", 400, "from must be an RFC 3339");
      assertError(s, base + "?signal=gc_time&from=2026-11-30T02:00:00Z&to=2026-11-30T01:00:00Z",
          400, "from must be before to");
      assertError(s, base + "?signal=gc_time&points=1", 400, "points must be an integer");
      assertError(s, base + "?signal=gc_time&points=many", 400, "points must be an integer");
      assertError(s, "/api/v1/jobs/nope/series?signal=gc_time", 404, "no job named \"nope\"");
    }
  }

  @Test
  void pagesAreServedFromTheJarWithoutReachingOutside(@TempDir Path dir) throws Exception {
    try (CheckpointDoctor s = TestService.start(dir)) {
      HttpResponse<String> root = Http.get(TestService.url(s, "/"));
      assertThat(root.statusCode()).isEqualTo(302);
      assertThat(root.headers().firstValue("Location")).contains("/ui/");
      for (String page : UiRoutes.FILES) {
        HttpResponse<String> r = Http.get(TestService.url(s, "/ui/" + page));
        assertThat(r.statusCode()).as(page).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).as(page).isPresent();
        // Works offline: nothing is loaded from another host.
        assertThat(r.body()).as(page).doesNotContainPattern("(src|href)=\"(https?:)?//")
            .doesNotContain("url(http").doesNotContain("@import");
      }
      assertThat(Http.get(TestService.url(s, "/ui/")).body()).contains("id=\"jobs-table\"");
      assertThat(Http.get(TestService.url(s, "/ui/../openapi.yaml")).statusCode())
          .isEqualTo(404);
      assertThat(Http.get(TestService.url(s, "/ui/nothing.js")).statusCode()).isEqualTo(404);
    }
  }

  private static JsonObject get(CheckpointDoctor s, String path) {
    HttpResponse<String> r = Http.get(TestService.url(s, path));
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }

  private static void assertError(CheckpointDoctor s, String path, int status, String message) {
    HttpResponse<String> r = Http.get(TestService.url(s, path));
    assertThat(r.statusCode()).as(path).isEqualTo(status);
    assertThat(new JsonObject(r.body()).getString("error")).as(path).contains(message);
  }
}
