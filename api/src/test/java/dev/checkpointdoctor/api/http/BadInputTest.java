package dev.checkpointdoctor.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Bodies;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.RawProto;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad remote-write input over real HTTP against a service that already holds a learned job. Each
 * input gets its status, leaves what the API shows byte-for-byte unchanged, and is counted in
 * /metrics under its reason. Decision recorded in docs/RELIABILITY.md: NaN/±Inf values and
 * timestamps outside [now - max-sample-age, now + max-future-skew] are taken out of an otherwise
 * good request (204) and counted; duplicates and out-of-order samples are counted by the
 * detector.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {
  static final String CHECKPOINT_DURATION = "flink_jobmanager_job_lastCheckpointDuration";
  CheckpointDoctor service;
  String write;
  long lastTs;
  int inputs;

  @BeforeAll
  void startWithALearnedJob(@TempDir Path tmp) throws Exception {
    service = TestService.start(tmp, "--min-observations", "5", "--max-sample-age", "30d",
        "--max-decompressed-bytes", "1048576");
    write = TestService.url(service, "/api/v1/write");
    long t0 = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
    for (int i = 1; i <= 8; i++) {
      lastTs = t0 + i * 60_000L;
      assertThat(post(Bodies.checkpointScrape("job_a", lastTs, i, 400 + i), headers()))
          .isEqualTo(204);
    }
    Await.until("seed processed", Duration.ofSeconds(10),
        () -> service.worker().processedRequests() == 8);
    assertThat(state()).contains("job_a", "checkpoint_duration");
  }

  @AfterAll
  void stop() throws Exception {
    service.stop();
  }

  static Map<String, String> headers() {
    return Http.remoteWriteHeaders();
  }

  int post(byte[] body, Map<String, String> headers) {
    return Http.post(write, body, headers).statusCode();
  }

  /** Everything a user can see of the detector's state. */
  String state() {
    return String.join("\n", Http.get(TestService.url(service, "/api/v1/jobs")).body(),
        Http.get(TestService.url(service, "/api/v1/jobs/job_a")).body(),
        Http.get(TestService.url(service, "/api/v1/jobs/job_a/baselines")).body(),
        Http.get(TestService.url(service, "/api/v1/anomalies")).body());
  }

  double metric(String series) {
    double v = Http.metric(Http.get(TestService.url(service, "/metrics")).body(),
        "checkpoint_doctor_" + series);
    return Double.isNaN(v) ? 0 : v;
  }

  /** Posts, checks status, waits for the detector if it was handed anything, checks the count. */
  void check(String what, byte[] body, Map<String, String> headers, int status,
      String counter, double increase) {
    inputs++;
    String before = state();
    double countBefore = metric(counter);
    long processed = service.worker().processedRequests();
    long acceptedBefore = (long) metric("samples_accepted_total");
    assertThat(post(body, headers)).as(what).isEqualTo(status);
    if ((long) metric("samples_accepted_total") > acceptedBefore) {
      Await.until(what + " processed", Duration.ofSeconds(10),
          () -> service.worker().processedRequests() > processed);
    }
    assertThat(metric(counter)).as(what + ": " + counter).isEqualTo(countBefore + increase);
    assertThat(state()).as(what + " leaves the state unchanged").isEqualTo(before);
  }

  static RawProto[] jobLabels(String jobName) {
    return new RawProto[] {RawProto.label("__name__", CHECKPOINT_DURATION),
        RawProto.label("instance", "jm:9249"), RawProto.label("job", "flink"),
        RawProto.label("job_id", "0123456789abcdef0123456789abcdef"),
        RawProto.label("job_name", jobName)};
  }

  static byte[] snappy(byte[] proto) {
    return RemoteWriteTestEncoder.compress(proto);
  }

  @Test
  void brokenFramingIsRefusedWhole() {
    byte[] good = Bodies.checkpointScrape("job_a", lastTs + 60_000, 9, 900);
    check("truncated snappy", Arrays.copyOf(good, good.length / 2), headers(), 400,
        "write_requests_rejected_total{reason=\"malformed\"}", 1);
    check("length header says more than the block holds", RemoteWriteTestEncoder.concat(
            RemoteWriteTestEncoder.snappyHeader(500_000),
            RemoteWriteTestEncoder.compressLiteralOnly(new byte[100])), headers(), 400,
        "write_requests_rejected_total{reason=\"malformed\"}", 1);
    check("decompression bomb header", RemoteWriteTestEncoder.concat(
            RemoteWriteTestEncoder.snappyHeader(Integer.MAX_VALUE), new byte[] {0, 0}), headers(),
        413, "write_requests_rejected_total{reason=\"too_large\"}", 1);
    check("empty body", new byte[0], headers(), 400,
        "write_requests_rejected_total{reason=\"malformed\"}", 1);
  }

  @Test
  void wrongMediaTypesAre415() {
    byte[] good = Bodies.checkpointScrape("job_a", lastTs + 60_000, 9, 900);
    Map<String, String> gzip = new HashMap<>(headers());
    gzip.put("Content-Encoding", "gzip");
    Map<String, String> json = new HashMap<>(headers());
    json.put("Content-Type", "application/json");
    Map<String, String> none = Map.of("Content-Type", "application/x-protobuf");
    for (Map<String, String> h : List.of(gzip, json, none)) {
      check("headers " + h, good, h, 415,
          "write_requests_rejected_total{reason=\"unsupported_media_type\"}", 1);
    }
  }

  @Test
  void brokenProtobufIs400() {
    String malformed = "write_requests_rejected_total{reason=\"malformed\"}";
    check("timeseries field as a varint", snappy(new byte[] {0x08, 0x01}), headers(), 400,
        malformed, 1);
    check("label as fixed32", snappy(new RawProto().message(1, new RawProto()
        .tag(1, 5).raw(new byte[4])).toByteArray()), headers(), 400, malformed, 1);
    check("end-group wire type", snappy(new byte[] {0x0c}), headers(), 400, malformed, 1);
    byte[] series = RawProto.writeRequest(RawProto.series(jobLabels("job_a"),
        RawProto.sample(1, lastTs + 60_000)));
    check("truncated field", snappy(Arrays.copyOf(series, series.length - 4)), headers(), 400,
        malformed, 1);
    check("length beyond the message", snappy(new RawProto().tag(1, 2).varint(1000)
        .raw(new byte[10]).toByteArray()), headers(), 400, malformed, 1);
  }

  @Test
  void hostileLabelsAre400() {
    String malformed = "write_requests_rejected_total{reason=\"malformed\"}";
    long ts = lastTs + 60_000;
    check("huge label value", snappy(RawProto.writeRequest(RawProto.series(
            jobLabels("x".repeat(100_000)), RawProto.sample(1, ts)))), headers(), 400,
        malformed, 1);
    RawProto[] many = new RawProto[3001];
    many[0] = RawProto.label("__name__", CHECKPOINT_DURATION);
    for (int i = 1; i < many.length; i++) {
      many[i] = RawProto.label(String.format("l%05d", i), "v");
    }
    check("3000 labels", snappy(RawProto.writeRequest(RawProto.series(many,
        RawProto.sample(1, ts)))), headers(), 400, malformed, 1);
    RawProto[] bad = jobLabels("job_a");
    bad[4] = RawProto.label("job_name".getBytes(StandardCharsets.US_ASCII),
        new byte[] {'j', (byte) 0xc3, (byte) 0x28});
    check("non-UTF-8 value", snappy(RawProto.writeRequest(RawProto.series(bad,
        RawProto.sample(1, ts)))), headers(), 400, malformed, 1);
    check("long label name", snappy(RawProto.writeRequest(RawProto.series(new RawProto[] {
            RawProto.label("__name__", CHECKPOINT_DURATION),
            RawProto.label("n".repeat(300), "v")}, RawProto.sample(1, ts)))), headers(), 400,
        malformed, 1);
  }

  @Test
  void nonFiniteValuesAndFarTimestampsAreAcceptedButNotUsed() {
    long ts = lastTs + 1;
    check("NaN, +Inf and -Inf", snappy(RawProto.writeRequest(RawProto.series(
            jobLabels("job_a"), RawProto.sample(Double.NaN, ts),
            RawProto.sample(Double.POSITIVE_INFINITY, ts + 1),
            RawProto.sample(Double.NEGATIVE_INFINITY, ts + 2)))), headers(), 204,
        "samples_dropped_total{reason=\"non_finite\"}", 3);
    long future = System.currentTimeMillis() + Duration.ofDays(365).toMillis();
    check("a year ahead", snappy(RawProto.writeRequest(RawProto.series(jobLabels("job_a"),
            RawProto.sample(5000, future)))), headers(), 204,
        "samples_dropped_total{reason=\"future_timestamp\"}", 1);
    check("a year ahead, for a new job", snappy(RawProto.writeRequest(RawProto.series(
            jobLabels("job_new"), RawProto.sample(5000, future)))), headers(), 204,
        "samples_dropped_total{reason=\"future_timestamp\"}", 1);
    check("1970", snappy(RawProto.writeRequest(RawProto.series(jobLabels("job_old"),
            RawProto.sample(5, 1000)))), headers(), 204,
        "samples_dropped_total{reason=\"too_old\"}", 1);
    check("before the series' newest sample", snappy(RawProto.writeRequest(RawProto.series(
            jobLabels("job_a"), RawProto.sample(5, lastTs - 120_000)))), headers(), 204,
        "detector_samples_dropped_total{reason=\"out_of_order\"}", 1);
  }

  @Test
  void duplicateSeriesInOneRequestAreCountedOnce() {
    RawProto again = RawProto.series(jobLabels("job_a"), RawProto.sample(401, lastTs));
    check("the same series twice, already seen", snappy(RawProto.writeRequest(again, again)),
        headers(), 204, "detector_samples_dropped_total{reason=\"duplicate\"}", 2);
    check("a whole scrape sent again", Bodies.checkpointScrape("job_a", lastTs, 8, 408),
        headers(), 204, "detector_samples_dropped_total{reason=\"duplicate\"}", 7);
  }

  @Test
  void nothingIsLostSilently() {
    // Every sample received is accounted for: accepted or dropped with a reason, and every
    // accepted one processed by the detector or dropped there with a reason.
    Await.until("queue drained", Duration.ofSeconds(10),
        () -> metric("queued_samples") == 0);
    double received = metric("samples_received_total");
    double droppedAtIngest = 0;
    for (String r : List.of("unused_metric", "non_finite", "future_timestamp", "too_old",
        "overloaded")) {
      droppedAtIngest += metric("samples_dropped_total{reason=\"" + r + "\"}");
    }
    double accepted = metric("samples_accepted_total");
    assertThat(accepted + droppedAtIngest).isEqualTo(received);
    double droppedInDetector = metric("stale_markers_total");
    for (String r : List.of("out_of_order", "duplicate", "unused_metric", "cardinality_limit")) {
      droppedInDetector += metric("detector_samples_dropped_total{reason=\"" + r + "\"}");
    }
    assertThat(metric("samples_processed_total") + droppedInDetector).isEqualTo(accepted);
  }

  @Test
  void aRepeatedLabelNameIs400NamingIt() {
    String malformed = "write_requests_rejected_total{reason=\"malformed\"}";
    long ts = lastTs + 60_000;
    RawProto[] used = {RawProto.label("__name__", CHECKPOINT_DURATION),
        RawProto.label("job_name", "job_a"), RawProto.label("zone", "a"),
        RawProto.label("job_name", "job_b")};
    byte[] body = snappy(RawProto.writeRequest(RawProto.series(used, RawProto.sample(1, ts))));
    java.net.http.HttpResponse<String> r = Http.post(write, body, headers());
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("duplicate label name \\\"job_name\\\" in series #0");
    check("repeated label", body, headers(), 400, malformed, 1);
    RawProto[] unused = {RawProto.label("__name__", "go_goroutines"),
        RawProto.label("job", "a"), RawProto.label("job", "b")};
    check("repeated label in a series not used", snappy(RawProto.writeRequest(
        RawProto.series(unused, RawProto.sample(1, ts)))), headers(), 400, malformed, 1);
  }
}
