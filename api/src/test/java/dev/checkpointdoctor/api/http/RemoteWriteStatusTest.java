package dev.checkpointdoctor.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Bodies;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every status code of {@code POST /api/v1/write}, over real HTTP to the running service. */
class RemoteWriteStatusTest {
  @TempDir Path tmp;
  CheckpointDoctor service;
  String url;

  @BeforeEach
  void start() throws Exception {
    service = TestService.start(tmp, "--max-body-bytes", "65536",
        "--max-decompressed-bytes", "1048576", "--queue-samples", "1000");
    url = TestService.url(service, "/api/v1/write");
  }

  @AfterEach
  void stop() throws Exception {
    service.stop();
  }

  private String metrics() {
    return Http.get(TestService.url(service, "/metrics")).body();
  }

  private double rejected(String reason) {
    return Http.metric(metrics(),
        "checkpoint_doctor_write_requests_rejected_total{reason=\"" + reason + "\"}");
  }

  @Test
  void realPrometheusBodyIsAcceptedAndUnusedSeriesCounted() {
    HttpResponse<String> r = Http.post(url, Bodies.realPrometheus242(), Http.remoteWriteHeaders());
    assertThat(r.statusCode()).isEqualTo(204);
    String m = metrics();
    assertThat(Http.metric(m, "checkpoint_doctor_samples_received_total")).isEqualTo(500);
    double unused = Http.metric(m,
        "checkpoint_doctor_samples_dropped_total{reason=\"unused_metric\"}");
    double accepted = Http.metric(m, "checkpoint_doctor_samples_accepted_total");
    assertThat(unused).isGreaterThan(0);
    assertThat(unused + accepted).isEqualTo(500);
  }

  @Test
  void badSnappyIs400AndSaysWhere() {
    byte[] body = {(byte) 0x10, 0x01, 0x02};
    HttpResponse<String> r = Http.post(url, body, Http.remoteWriteHeaders());
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(r.body()).getString("error")).containsIgnoringCase("snappy");
    assertThat(rejected("malformed")).isEqualTo(1);
  }

  @Test
  void badProtobufIs400() {
    byte[] garbage = {0x0f, 0x7f, 0x7f, 0x7f};
    HttpResponse<String> r = Http.post(url, RemoteWriteTestEncoder.compress(garbage),
        Http.remoteWriteHeaders());
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(r.body()).getString("error")).containsIgnoringCase("protobuf");
  }

  @Test
  void invalidLabelNameIs400AndNamesTheLabel() {
    byte[] body = RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
        RemoteWriteTestEncoder.series(new String[] {"__name__",
            "flink_jobmanager_job_lastCheckpointDuration", "1bad", "x"}, new long[] {1000},
            new double[] {5})));
    HttpResponse<String> r = Http.post(url, body, Http.remoteWriteHeaders());
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(r.body()).getString("error")).contains("1bad");
    assertThat(new JsonObject(Http.get(TestService.url(service, "/api/v1/jobs")).body())
        .getJsonArray("jobs")).isEmpty();
  }

  @Test
  void wrongEncodingOrContentTypeIs415() {
    Map<String, String> gzip = new HashMap<>(Http.remoteWriteHeaders());
    gzip.put("Content-Encoding", "gzip");
    assertThat(Http.post(url, Bodies.realPrometheus242(), gzip).statusCode()).isEqualTo(415);

    Map<String, String> json = new HashMap<>(Http.remoteWriteHeaders());
    json.put("Content-Type", "application/json");
    HttpResponse<String> r = Http.post(url, Bodies.realPrometheus242(), json);
    assertThat(r.statusCode()).isEqualTo(415);
    assertThat(r.body()).contains("application/x-protobuf");

    Map<String, String> v2 = new HashMap<>(Http.remoteWriteHeaders());
    v2.put("Content-Type", "application/x-protobuf;proto=io.prometheus.write.v2.Request");
    assertThat(Http.post(url, Bodies.realPrometheus242(), v2).body())
        .contains("io.prometheus.write.v2.Request is not supported");
    assertThat(rejected("unsupported_media_type")).isEqualTo(3);
  }

  @Test
  void compressedBodyOverLimitIs413() {
    byte[] big = new byte[70_000];
    HttpResponse<String> r = Http.post(url, big, Http.remoteWriteHeaders());
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(rejected("too_large")).isEqualTo(1);
  }

  @Test
  void declaredDecompressedSizeOverLimitIs413BeforeAllocating() {
    byte[] header = RemoteWriteTestEncoder.snappyHeader(Integer.MAX_VALUE);
    byte[] body = RemoteWriteTestEncoder.concat(header, new byte[] {0, 0});
    HttpResponse<String> r = Http.post(url, body, Http.remoteWriteHeaders());
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(new JsonObject(r.body()).getString("error")).contains("2147483647");
  }

  @Test
  void detectorBehindIs503AndNothingAcceptedIsLost() throws Exception {
    // Hold the detector's lock so the worker cannot finish the first request.
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread blocker = new Thread(() -> {
      synchronized (service.detector()) {
        held.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    blocker.start();
    held.await();
    try {
      int accepted = 0;
      int refused = 0;
      for (int i = 0; i < 400 && refused == 0; i++) {
        int code = Http.post(url, Bodies.checkpointScrape("job_a", 1000L + i * 1000L, i, 500),
            Http.remoteWriteHeaders()).statusCode();
        if (code == 204) {
          accepted++;
        } else {
          assertThat(code).isEqualTo(503);
          refused++;
        }
      }
      assertThat(refused).isEqualTo(1);
      assertThat(rejected("overloaded")).isEqualTo(1);
      release.countDown();
      int acceptedRequests = accepted;
      Await.until("every accepted request processed", Duration.ofSeconds(10),
          () -> service.worker().processedRequests() == acceptedRequests);
      String m = metrics();
      assertThat(Http.metric(m, "checkpoint_doctor_samples_processed_total"))
          .isEqualTo(Http.metric(m, "checkpoint_doctor_samples_accepted_total"));
    } finally {
      release.countDown();
      blocker.join();
    }
  }
}
