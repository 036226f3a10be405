package dev.checkpointdoctor.api.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpServer;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Delivery to one Alertmanager, against a fake one whose answers the test controls. */
class AlertmanagerTargetTest {
  final ServiceMetrics metrics = new ServiceMetrics();
  final List<JsonArray> posted = new CopyOnWriteArrayList<>();
  final AtomicInteger failFirst = new AtomicInteger();
  final CountDownLatch release = new CountDownLatch(1);
  final CountDownLatch firstRequest = new CountDownLatch(1);
  volatile boolean hold;
  HttpServer server;
  AlertmanagerTarget target;

  URI start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.createContext("/api/v2/alerts", exchange -> {
      firstRequest.countDown();
      if (hold) {
        try {
          release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      int status = failFirst.getAndDecrement() > 0 ? 503 : 200;
      if (status == 200) {
        posted.add(new JsonArray(body));
      }
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    server.start();
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  AlertmanagerTarget target(URI url, int capacity) {
    target = new AlertmanagerTarget(url, HttpClient.newHttpClient(), metrics, capacity,
        Duration.ofMillis(200), Duration.ofSeconds(10));
    return target;
  }

  static Alert alert(String job, Instant endsAt) {
    return new Alert(Map.of("alertname", "FlinkCheckpointAnomaly", "job_name", job),
        Map.of("summary", "s"), Instant.parse("2026-12-02T12:00:00Z"), endsAt, "http://x");
  }

  double metric(String series) {
    double v = Http.metric(new String(metrics.scrape(), StandardCharsets.UTF_8), series);
    return Double.isNaN(v) ? 0 : v;
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (target != null) {
      target.close();
    }
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void failedPostsAreRetriedUntilAlertmanagerTakesThemAndCounted() throws Exception {
    URI url = start();
    failFirst.set(2);
    target(url, 100).submit(List.of(alert("j", Instant.parse("2026-12-02T12:04:00Z"))));
    Await.until("delivered after two failures", Duration.ofSeconds(10), () -> !posted.isEmpty());
    assertThat(posted.get(0).getJsonObject(0).getJsonObject("labels").getString("job_name"))
        .isEqualTo("j");
    Await.until("nothing pending", Duration.ofSeconds(5), () -> target.pendingCount() == 0);
    assertThat(metric("checkpoint_doctor_alerts_sent_total{alertmanager=\"" + url
        + "\",result=\"failure\"}")).isEqualTo(2);
    assertThat(metric("checkpoint_doctor_alerts_sent_total{alertmanager=\"" + url
        + "\",result=\"success\"}")).isEqualTo(1);
  }

  @Test
  void aHangingAlertmanagerNeverBlocksSubmitAndGetsTheLatestStateAfterwards()
      throws Exception {
    URI url = start();
    hold = true;
    target(url, 100).submit(List.of(alert("first", Instant.parse("2026-12-02T12:04:00Z"))));
    assertThat(firstRequest.await(10, TimeUnit.SECONDS)).isTrue();
    Instant last = Instant.parse("2026-12-02T12:00:00Z").plusSeconds(10_000);
    // Blocking would hold each submit until the hanging post ends (60 s).
    assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
      for (int i = 1; i <= 10_000; i++) {
        target.submit(List.of(alert("second", Instant.parse("2026-12-02T12:00:00Z")
            .plusSeconds(i))));
      }
    });
    assertThat(target.pendingCount()).as("one entry per label set").isEqualTo(2);
    hold = false;
    release.countDown();
    JsonArray second = Await.until("latest state of the second alert", Duration.ofSeconds(10),
        () -> posted.stream().filter(a -> a.getJsonObject(0).getJsonObject("labels")
            .getString("job_name").equals("second")).findFirst().orElse(null));
    assertThat(second).hasSize(1);
    assertThat(second.getJsonObject(0).getString("endsAt")).isEqualTo(last.toString());
  }

  @Test
  void overflowDropsTheOldestAlertAndCountsIt() throws Exception {
    URI url = start();
    failFirst.set(Integer.MAX_VALUE);
    target(url, 2).submit(List.of(alert("a", Instant.EPOCH.plusSeconds(60)),
        alert("b", Instant.EPOCH.plusSeconds(60)), alert("c", Instant.EPOCH.plusSeconds(60))));
    assertThat(target.pendingCount()).isEqualTo(2);
    assertThat(metric("checkpoint_doctor_alerts_dropped_total{alertmanager=\"" + url
        + "\",reason=\"buffer_full\"}")).isEqualTo(1);
  }
}
