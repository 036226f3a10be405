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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Flink clusters run a job of the same name; with {@code --job-identity-labels cluster} they
 * are two jobs, whose keys ({@code eu-1/orders_etl}) travel in paths as one URL-encoded segment.
 */
class JobIdentityApiTest {
  static final long T0 = 1_796_000_000_000L;

  @Test
  void jobsOfTheSameNameInTwoClustersAreTwoJobsAddressedByTheirKey(@TempDir Path dir)
      throws Exception {
    try (CheckpointDoctor s = TestService.start(dir, "--min-observations", "5",
        "--job-identity-labels", "cluster")) {
      String write = TestService.url(s, "/api/v1/write");
      for (int i = 0; i < 8; i++) {
        for (String cluster : new String[] {"eu-1", "us-1"}) {
          double d = cluster.equals("eu-1") ? 1000 : 3000;
          assertThat(Http.post(write, Bodies.checkpointScrape("orders_etl", T0 + i * 60_000L,
              i + 1, d, Map.of("cluster", cluster)), Http.remoteWriteHeaders()).statusCode())
              .isEqualTo(204);
        }
      }
      JsonArray jobs = Await.until("both clusters' jobs with 8 durations", Duration.ofSeconds(10),
          () -> {
            JsonArray j = new JsonObject(Http.get(TestService.url(s, "/api/v1/jobs")).body())
                .getJsonArray("jobs");
            return j.size() == 2 && durations(s, "us-1%2Forders_etl") == 8 ? j : null;
          });
      JsonObject eu = jobs.getJsonObject(0);
      assertThat(eu.getString("job")).isEqualTo("eu-1/orders_etl");
      assertThat(eu.getString("jobName")).isEqualTo("orders_etl");
      assertThat(eu.getJsonObject("labels").getMap()).isEqualTo(Map.of("cluster", "eu-1"));
      assertThat(jobs.getJsonObject(1).getString("job")).isEqualTo("us-1/orders_etl");

      // Vert.x decodes %2F inside one path parameter: the key arrives whole
      HttpResponse<String> r = Http.get(TestService.url(s, "/api/v1/jobs/eu-1%2Forders_etl"));
      assertThat(r.statusCode()).isEqualTo(200);
      JsonObject detail = new JsonObject(r.body());
      assertThat(detail.getString("job")).isEqualTo("eu-1/orders_etl");
      assertThat(expectedDuration(detail.getJsonArray("baselines"))).isEqualTo(1000);
      JsonObject us = new JsonObject(Http.get(TestService.url(s,
          "/api/v1/jobs/us-1%2Forders_etl/baselines")).body());
      assertThat(expectedDuration(us.getJsonArray("baselines"))).isEqualTo(3000);
      JsonObject series = new JsonObject(Http.get(TestService.url(s,
          "/api/v1/jobs/eu-1%2Forders_etl/series?signal=checkpoint_duration")).body());
      assertThat(series.getString("job")).isEqualTo("eu-1/orders_etl");
      assertThat(series.getJsonArray("points")).isNotEmpty();
      assertThat(Http.get(TestService.url(s, "/api/v1/anomalies?job=eu-1%2Forders_etl"))
          .statusCode()).isEqualTo(200);

      // the bare job_name or an unencoded slash names no job
      assertThat(Http.get(TestService.url(s, "/api/v1/jobs/orders_etl")).statusCode())
          .isEqualTo(404);
      assertThat(Http.get(TestService.url(s, "/api/v1/jobs/eu-1/orders_etl")).statusCode())
          .isEqualTo(404);
    }
  }

  static int durations(CheckpointDoctor s, String encodedKey) {
    HttpResponse<String> r = Http.get(TestService.url(s, "/api/v1/jobs/" + encodedKey
        + "/baselines"));
    if (r.statusCode() != 200) {
      return -1;
    }
    JsonArray b = new JsonObject(r.body()).getJsonArray("baselines");
    for (int i = 0; i < b.size(); i++) {
      if (b.getJsonObject(i).getString("signal").equals("checkpoint_duration")) {
        return b.getJsonObject(i).getInteger("observations");
      }
    }
    return 0;
  }

  static double expectedDuration(JsonArray baselines) {
    for (int i = 0; i < baselines.size(); i++) {
      JsonObject b = baselines.getJsonObject(i);
      if (b.getString("signal").equals("checkpoint_duration")) {
        return b.getDouble("expected");
      }
    }
    return Double.NaN;
  }
}
