package dev.checkpointdoctor.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Bodies;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Write, stop, start on the same data directory: baselines and anomalies are back. */
class RestartTest {

  private static JsonObject durationBaseline(CheckpointDoctor s) {
    JsonArray b = new JsonObject(Http.get(TestService.url(s, "/api/v1/jobs/job_a/baselines"))
        .body()).getJsonArray("baselines");
    for (int i = 0; i < b.size(); i++) {
      if (b.getJsonObject(i).getString("signal").equals("checkpoint_duration")) {
        return b.getJsonObject(i);
      }
    }
    return null;
  }

  @Test
  void baselinesAndAnomaliesSurviveARestart(@TempDir Path dir) throws Exception {
    long t0 = 1_796_000_000_000L;
    JsonObject before;
    String anomaliesBefore;
    try (CheckpointDoctor first = TestService.start(dir, "--min-observations", "5")) {
      String write = TestService.url(first, "/api/v1/write");
      for (int i = 0; i < 30; i++) {
        double duration = i < 25 ? 1000 + (i % 3) * 10 : 9000; // then a sustained 9x shift
        assertThat(Http.post(write, Bodies.checkpointScrape("job_a", t0 + i * 60_000L, i + 1,
            duration), Http.remoteWriteHeaders()).statusCode()).isEqualTo(204);
      }
      Await.until("all 30 requests processed", Duration.ofSeconds(10),
          () -> first.worker().processedRequests() == 30);
      anomaliesBefore = Await.until("an open duration anomaly", Duration.ofSeconds(10), () -> {
        String body = Http.get(TestService.url(first, "/api/v1/anomalies?state=open")).body();
        return body.contains("checkpoint_duration") ? body : null;
      });
      before = durationBaseline(first);
      // Learned while normal (25 checkpoints, the first one pending a frame), not while open.
      assertThat(before.getInteger("observations")).isBetween(24, 27);
    }
    try (CheckpointDoctor second = TestService.start(dir, "--min-observations", "5")) {
      JsonObject after = durationBaseline(second);
      assertThat(after).isEqualTo(before);
      assertThat(after.getString("state")).isEqualTo("ready");
      // The same anomalies; only the instance serving them (its port) differs.
      assertThat(withoutInstance(Http.get(TestService.url(second,
          "/api/v1/anomalies?state=open")).body())).isEqualTo(withoutInstance(anomaliesBefore));
      JsonObject job = new JsonObject(Http.get(TestService.url(second, "/api/v1/jobs/job_a"))
          .body());
      assertThat(job.getString("status")).isEqualTo("anomalous");
    }
  }

  static JsonArray withoutInstance(String anomaliesAnswer) {
    JsonArray list = new JsonObject(anomaliesAnswer).getJsonArray("anomalies");
    for (int i = 0; i < list.size(); i++) {
      list.getJsonObject(i).remove("instance");
    }
    return list;
  }
}
