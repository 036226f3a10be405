package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import java.net.http.HttpResponse;

/**
 * Writes a job's checkpoint gauges to the service one scrape a minute, a checkpoint completing
 * at each, starting an hour ago on a whole minute (so event times are recent and exact).
 */
final class CheckpointFeed {
  final CheckpointDoctor service;
  final String job;
  final long t0 = (System.currentTimeMillis() / 60_000L - 60) * 60_000L;
  int i;
  long failed;

  CheckpointFeed(CheckpointDoctor service, String job) {
    this.service = service;
    this.job = job;
  }

  /** {@code n} more scrapes whose completed checkpoint took {@code durationMs}; each answered 204. */
  void scrapes(int n, double durationMs) {
    send(n, durationMs, false);
  }

  /** {@code n} more scrapes at each of which one more checkpoint failed (expired). */
  void failingScrapes(int n, double durationMs) {
    send(n, durationMs, true);
  }

  private void send(int n, double durationMs, boolean failing) {
    for (int k = 0; k < n; k++, i++) {
      failed += failing ? 1 : 0;
      HttpResponse<String> r = Http.post(TestService.url(service, "/api/v1/write"),
          Bodies.checkpointScrape(job, t0 + i * 60_000L, i + 1 - failed, durationMs, failed),
          Http.remoteWriteHeaders());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
    }
  }
}
