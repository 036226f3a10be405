package dev.checkpointdoctor.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many writers against a queue that holds less than two requests: without waiting the service
 * must answer 503 rather than take what it cannot process; with the default wait it holds the
 * answers back instead (back-pressure) and answers every one 204. Either way every sample it
 * answered 2xx for must reach the detector.
 */
class OverloadTest {
  static final int WRITERS = 8;
  static final int REQUESTS_PER_WRITER = 15;
  static final int SERIES_PER_REQUEST = 600;

  static byte[] body(int writer, long ts) {
    RemoteWriteTestEncoder.Proto[] series = new RemoteWriteTestEncoder.Proto[SERIES_PER_REQUEST];
    for (int i = 0; i < series.length; i++) {
      series[i] = RemoteWriteTestEncoder.series(new String[] {"__name__",
          "flink_taskmanager_job_task_busyTimeMsPerSecond", "job", "flink", "job_name",
          "load_" + writer, "subtask_index", Integer.toString(i), "task_name", "map"},
          new long[] {ts}, new double[] {i % 1000});
    }
    return RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(series));
  }

  @Test
  void withoutWaitingAnswers503WhenBehindAndProcessesEverySampleItAccepted(@TempDir Path tmp)
      throws Exception {
    try (CheckpointDoctor service = TestService.start(tmp, "--queue-samples", "1000",
        "--queue-wait", "0s")) {
      String url = TestService.url(service, "/api/v1/write");
      AtomicInteger ok = new AtomicInteger();
      AtomicInteger refused = new AtomicInteger();
      long t0 = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          for (int r = 0; r < REQUESTS_PER_WRITER; r++) {
            int code = Http.post(url, body(writer, t0 + r * 1000L), Http.remoteWriteHeaders())
                .statusCode();
            if (code == 204) {
              ok.incrementAndGet();
            } else {
              assertThat(code).isEqualTo(503);
              refused.incrementAndGet();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : writers) {
        f.get();
      }
      pool.shutdown();
      assertThat(refused.get()).as("503s under overload").isPositive();
      assertThat(ok.get()).as("some requests got through").isPositive();
      Await.until("every accepted request processed", Duration.ofSeconds(30),
          () -> service.worker().processedRequests() == ok.get()
              && service.worker().queuedSamples() == 0);

      String m = Http.get(TestService.url(service, "/metrics")).body();
      double accepted = Http.metric(m, "checkpoint_doctor_samples_accepted_total");
      assertThat(accepted).isEqualTo((double) ok.get() * SERIES_PER_REQUEST);
      assertThat(Http.metric(m, "checkpoint_doctor_samples_dropped_total{reason=\"overloaded\"}"))
          .isEqualTo((double) refused.get() * SERIES_PER_REQUEST);
      assertThat(Http.metric(m,
          "checkpoint_doctor_write_requests_rejected_total{reason=\"overloaded\"}"))
          .isEqualTo(refused.get());
      double detectorDrops = 0;
      for (String r : List.of("out_of_order", "duplicate", "unused_metric", "cardinality_limit")) {
        detectorDrops += Http.metric(m,
            "checkpoint_doctor_detector_samples_dropped_total{reason=\"" + r + "\"}");
      }
      assertThat(detectorDrops).isZero();
      assertThat(Http.metric(m, "checkpoint_doctor_samples_processed_total"))
          .as("accepted = processed").isEqualTo(accepted);
      System.out.printf("overload: %d writers, %d requests answered 204, %d answered 503, "
          + "%.0f samples accepted and processed%n", WRITERS, ok.get(), refused.get(), accepted);
    }
  }

  @Test
  void waitingForRoomAnswersEveryWrite204AndProcessesAll(@TempDir Path tmp) throws Exception {
    try (CheckpointDoctor service = TestService.start(tmp, "--queue-samples", "1000",
        "--detector-threads", "2")) {
      String url = TestService.url(service, "/api/v1/write");
      AtomicInteger ok = new AtomicInteger();
      long t0 = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          for (int r = 0; r < REQUESTS_PER_WRITER; r++) {
            int code = Http.post(url, body(writer, t0 + r * 1000L), Http.remoteWriteHeaders())
                .statusCode();
            assertThat(code).as("answer to a write while the queue is full").isEqualTo(204);
            ok.incrementAndGet();
          }
          return null;
        }));
      }
      for (Future<?> f : writers) {
        f.get();
      }
      pool.shutdown();
      Await.until("every request processed", Duration.ofSeconds(30),
          () -> service.worker().processedRequests() == WRITERS * REQUESTS_PER_WRITER
              && service.worker().queuedSamples() == 0);
      String m = Http.get(TestService.url(service, "/metrics")).body();
      assertThat(Http.metric(m,
          "checkpoint_doctor_write_requests_rejected_total{reason=\"overloaded\"}")).isZero();
      assertThat(Http.metric(m, "checkpoint_doctor_samples_processed_total"))
          .isEqualTo((double) WRITERS * REQUESTS_PER_WRITER * SERIES_PER_REQUEST);
      // the queue held less than two requests, so most writes waited for room
      assertThat(Http.metric(m, "checkpoint_doctor_queue_wait_seconds_count"))
          .isEqualTo(WRITERS * REQUESTS_PER_WRITER);
      assertThat(Http.metric(m, "checkpoint_doctor_queue_wait_seconds_bucket{le=\"0.0\"}"))
          .isLessThan(WRITERS * REQUESTS_PER_WRITER);
    }
  }
}
