package dev.checkpointdoctor.api.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.eval.scenario.HistoryReader;
import dev.checkpointdoctor.eval.scenario.RecordedSample;
import dev.checkpointdoctor.eval.scenario.ScenarioManifest;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Sends recorded samples to a running service as Prometheus 2.42's remote-write queue would: in
 * timestamp order, at most {@value #MAX_SAMPLES} samples per request, one TimeSeries per sample,
 * label names sorted; a 503 is retried like Prometheus does.
 */
final class PrometheusLikeSender {
  static final int MAX_SAMPLES = 500;

  private final CheckpointDoctor service;
  private long requests;

  PrometheusLikeSender(CheckpointDoctor service) {
    this.service = service;
  }

  /** Sends samples already sorted by timestamp, then waits until the detector has them all. */
  void send(List<RecordedSample> sorted) {
    for (int from = 0; from < sorted.size(); from += MAX_SAMPLES) {
      byte[] body = encode(sorted.subList(from, Math.min(sorted.size(), from + MAX_SAMPLES)));
      String url = TestService.url(service, "/api/v1/write");
      int code = Await.until("remote-write accepted", Duration.ofSeconds(60), () -> {
        HttpResponse<String> r = Http.post(url, body, Http.remoteWriteHeaders());
        return r.statusCode() == 503 ? null : r.statusCode();
      });
      assertThat(code).as("remote-write status").isEqualTo(204);
      requests++;
    }
    long expected = requests;
    Await.until("detector processed " + expected + " requests", Duration.ofSeconds(120),
        () -> service.worker().processedRequests() >= expected);
  }

  /**
   * One TimeSeries per sample, in the order given: Prometheus' queue manager appends each sample
   * with its labels to the pending batch and never merges samples of one series.
   */
  private static byte[] encode(List<RecordedSample> chunk) {
    RemoteWriteTestEncoder.Proto[] series = new RemoteWriteTestEncoder.Proto[chunk.size()];
    for (int k = 0; k < chunk.size(); k++) {
      RecordedSample s = chunk.get(k);
      Labels l = s.labels();
      String[] pairs = new String[l.size() * 2];
      for (int i = 0; i < l.size(); i++) {
        pairs[2 * i] = l.name(i);
        pairs[2 * i + 1] = l.value(i);
      }
      series[k] = RemoteWriteTestEncoder.series(pairs, new long[] {s.timestampMs()},
          new double[] {s.value()});
    }
    return RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(series));
  }
}
