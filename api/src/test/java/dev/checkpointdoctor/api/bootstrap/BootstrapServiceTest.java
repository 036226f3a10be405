package dev.checkpointdoctor.api.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.detector.pipeline.DetectorStats;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service bootstrapping from a stand-in Prometheus API ({@link FakePromApi}): history in
 * event-time order before live samples, the hold of live samples meanwhile, and every failure
 * degrading to live learning, counted and logged once.
 */
class BootstrapServiceTest {
  @TempDir
  Path tmp;

  private final List<LogRecord> warnings = new ArrayList<>();
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord r) {
      if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
        synchronized (warnings) {
          warnings.add(r);
        }
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeEach
  void captureLogs() {
    Logger.getLogger(Bootstrap.class.getName()).addHandler(capture);
  }

  @AfterEach
  void releaseLogs() {
    Logger.getLogger(Bootstrap.class.getName()).removeHandler(capture);
  }

  /** The last history scrape: the fake's series end a little before now. */
  private final long now = System.currentTimeMillis();
  private final long historyEnd = now - 10_000;

  private FakePromApi fake(Duration span, String... jobs) throws Exception {
    List<FakePromApi.Series> series = new ArrayList<>();
    for (int i = 0; i < jobs.length; i++) {
      series.addAll(SyntheticFleet.job(jobs[i], i, 1, now - span.toMillis(), historyEnd,
          SyntheticFleet::normalDuration));
    }
    return new FakePromApi(series);
  }

  private CheckpointDoctor start(String url, String... flags) throws Exception {
    List<String> args = new ArrayList<>(List.of("--bootstrap-url", url));
    args.addAll(List.of(flags));
    return TestService.start(tmp.resolve("data"), args.toArray(new String[0]));
  }

  @Test
  void historyComesFirstThenTheLiveSamplesHeldMeanwhileWithoutLossOrDisorder() throws Exception {
    try (FakePromApi api = fake(Duration.ofHours(6), "alpha")) {
      CountDownLatch gate = new CountDownLatch(1);
      api.gate(gate);
      try (CheckpointDoctor s = start(api.url())) {
        assertThat(readyz(s).getString("status")).isEqualTo("bootstrapping");
        assertThat(readyz(s).getString("bootstrap")).contains(api.url());
        // While the history is stuck, live scrapes arrive: one overlapping the history, four new
        long last = lastJmScrape(0);
        long first = now - Duration.ofHours(6).toMillis();
        send(s, "alpha", last - SyntheticFleet.SCRAPE_MS, checkpointAt(first,
            last - SyntheticFleet.SCRAPE_MS));
        for (int k = 1; k <= 4; k++) {
          long t = last + k * SyntheticFleet.SCRAPE_MS;
          send(s, "alpha", t, checkpointAt(first, t));
        }
        Await.until("live samples held", Duration.ofSeconds(20),
            () -> metric(s, "checkpoint_doctor_bootstrap_held_samples") >= 5 * JM_GAUGES);
        assertThat(s.detector().stats().processed()).isZero();

        gate.countDown();
        Await.until("bootstrap done", Duration.ofSeconds(60),
            () -> readyz(s).getString("status").equals("ready"));
        JsonObject duration = Await.until("held samples fed", Duration.ofSeconds(20),
            () -> baseline(s, "alpha", "checkpoint_duration", "job"));
        DetectorStats stats = s.detector().stats();
        assertThat(stats.outOfOrder()).as("out of order").isZero();
        assertThat(stats.duplicate()).as("duplicates").isZero();
        // the overlapping scrape was already in history: left out and counted, not "out of order"
        assertThat(metric(s, "checkpoint_doctor_samples_dropped_total{reason=\"in_history\"}"))
            .isEqualTo(JM_GAUGES);
        assertThat(metric(s, "checkpoint_doctor_bootstrap_held_samples")).isZero();
        assertThat(duration.getString("state")).isEqualTo("ready");
        assertThat(duration.getString("historySince")).isNotNull();
        JsonObject age = baseline(s, "alpha", "checkpoint_age", "job");
        assertThat(Instant(age.getString("lastSeen"))).as("the last live scrape was evaluated")
            .isEqualTo(last + 4 * SyntheticFleet.SCRAPE_MS);
        // every history sample once, then the four new live scrapes
        assertThat(metric(s, "checkpoint_doctor_samples_processed_total"))
            .isEqualTo(metric(s, "checkpoint_doctor_bootstrap_samples_fed_total") + 4 * JM_GAUGES);
        assertThat(metric(s, "checkpoint_doctor_stale_markers_total")).isZero();
      }
    }
  }

  /**
   * An HA pair writes live while the job reads its history (which, from a query API, has no
   * replica label): the held samples of both replicas go through the replica election after the
   * history, onto the history's series; one replica is learned from, nothing twice, nothing out
   * of order.
   */
  @Test
  void heldSamplesOfAnHaPairGoThroughTheReplicaElectionAfterTheHistory() throws Exception {
    try (FakePromApi api = fake(Duration.ofHours(6), "alpha")) {
      CountDownLatch gate = new CountDownLatch(1);
      api.gate(gate);
      try (CheckpointDoctor s = start(api.url(), "--ha-replica-label", "prometheus_replica")) {
        long last = lastJmScrape(0);
        long first = now - Duration.ofHours(6).toMillis();
        // replica a's scrapes are those history has; b scrapes the same target 3 s earlier
        for (int k = 0; k <= 4; k++) {
          long t = last + k * SyntheticFleet.SCRAPE_MS; // k = 0: the history's last scrape
          send(s, "alpha", t, checkpointAt(first, t), "prometheus_replica", "a");
          send(s, "alpha", t - 3_000, checkpointAt(first, t), "prometheus_replica", "b");
        }
        Await.until("live samples held", Duration.ofSeconds(20),
            () -> metric(s, "checkpoint_doctor_bootstrap_held_samples") >= 10 * JM_GAUGES);
        gate.countDown();
        Await.until("bootstrap done", Duration.ofSeconds(60),
            () -> readyz(s).getString("status").equals("ready"));
        JsonObject age = Await.until("the last live scrape evaluated", Duration.ofSeconds(20),
            () -> {
              JsonObject b = baseline(s, "alpha", "checkpoint_age", "job");
              return b != null && Instant(b.getString("lastSeen"))
                  == last + 4 * SyntheticFleet.SCRAPE_MS - 3_000 ? b : null;
            });
        assertThat(age.getString("historySince")).isNotNull();
        DetectorStats stats = s.detector().stats();
        assertThat(stats.outOfOrder()).as("out of order").isZero();
        assertThat(stats.duplicate()).as("duplicates").isZero();
        // both replicas' scrapes up to the history's last: left out before the election
        assertThat(metric(s, "checkpoint_doctor_samples_dropped_total{reason=\"in_history\"}"))
            .isEqualTo(2 * JM_GAUGES);
        // replica b (heard first after the history) is learned from: its four new scrapes
        assertThat(metric(s, "checkpoint_doctor_samples_processed_total"))
            .isEqualTo(metric(s, "checkpoint_doctor_bootstrap_samples_fed_total")
                + 4 * JM_GAUGES);
        assertThat(metric(s, "checkpoint_doctor_detector_samples_dropped_total"
            + "{reason=\"ha_replica_standby\"}")).isGreaterThanOrEqualTo(3 * JM_GAUGES);
      }
    }
  }

  @Test
  void anUnreachableSourceIsLoggedOnceAndJobsLearnLive() throws Exception {
    try (CheckpointDoctor s = start("http://127.0.0.1:" + freePort())) {
      Await.until("start-up bootstrap given up", Duration.ofSeconds(30),
          () -> readyz(s).getString("status").equals("ready"));
      learnsLive(s, "beta");
      learnsLive(s, "gamma");
      assertThat(metric(s, "checkpoint_doctor_bootstrap_problems_total{reason=\"unreachable\"}"))
          .isEqualTo(1);
      assertThat(metric(s, "checkpoint_doctor_bootstrap_jobs{state=\"live\"}")).isEqualTo(2);
      assertThat(warningsMentioning("unreachable")).isEqualTo(1);
    }
  }

  @Test
  void aSlowSourceTimesOutOnceAndEveryJobLearnsLive() throws Exception {
    try (FakePromApi api = fake(Duration.ofHours(2), "alpha", "beta")) {
      api.stall(5_000);
      try (CheckpointDoctor s = start(api.url(), "--bootstrap-timeout", "500ms")) {
        Await.until("start-up bootstrap given up", Duration.ofSeconds(30),
            () -> readyz(s).getString("status").equals("ready"));
        learnsLive(s, "alpha");
        learnsLive(s, "delta");
        assertThat(metric(s, "checkpoint_doctor_bootstrap_problems_total{reason=\"timeout\"}"))
            .isEqualTo(1);
        assertThat(metric(s, "checkpoint_doctor_bootstrap_jobs{state=\"failed\"}")).isEqualTo(1);
        // the second listed job and the new one do not wait for a server known to be slow
        assertThat(metric(s, "checkpoint_doctor_bootstrap_jobs{state=\"live\"}")).isEqualTo(2);
        assertThat(warningsMentioning("timeout")).isEqualTo(1);
      }
    }
  }

  @Test
  void aRefusedQueryIsCountedPerJobLoggedOnceAndTheJobsLearnLive() throws Exception {
    try (FakePromApi api = fake(Duration.ofHours(2), "alpha", "beta")) {
      api.fail(422, "/api/v1/query_range");
      try (CheckpointDoctor s = start(api.url())) {
        Await.until("start-up bootstrap done", Duration.ofSeconds(30),
            () -> readyz(s).getString("status").equals("ready"));
        assertThat(metric(s, "checkpoint_doctor_bootstrap_problems_total{reason=\"rejected\"}"))
            .isEqualTo(2);
        assertThat(metric(s, "checkpoint_doctor_bootstrap_jobs{state=\"failed\"}")).isEqualTo(2);
        assertThat(warningsMentioning("rejected")).isEqualTo(1);
        learnsLive(s, "alpha");
      }
    }
  }

  @Test
  void aPartialAnswerIsNotUsedAndTheJobLearnsLive() throws Exception {
    try (FakePromApi api = fake(Duration.ofHours(2), "alpha", "beta")) {
      api.warn("store eu-1 unavailable, partial response");
      try (CheckpointDoctor s = start(api.url())) {
        Await.until("start-up bootstrap done", Duration.ofSeconds(30),
            () -> readyz(s).getString("status").equals("ready"));
        assertThat(metric(s, "checkpoint_doctor_bootstrap_problems_total{reason=\"partial\"}"))
            .isGreaterThanOrEqualTo(2);
        assertThat(metric(s, "checkpoint_doctor_bootstrap_samples_fed_total")).isZero();
        assertThat(warningsMentioning("partial")).isEqualTo(1);
        learnsLive(s, "beta");
      }
    }
  }

  @Test
  void aWindowLongerThanTheRetentionReadsWhatTheServerKeeps() throws Exception {
    try (FakePromApi api = fake(Duration.ofHours(6), "alpha")) {
      api.retention("2h");
      try (CheckpointDoctor s = start(api.url(), "--bootstrap-window", "7d")) {
        JsonObject d = Await.until("history read", Duration.ofSeconds(60),
            () -> readyz(s).getString("status").equals("ready")
                ? baseline(s, "alpha", "checkpoint_duration", "job") : null);
        long since = Instant(d.getString("historySince"));
        // the first step is at or after the window's start; its value is the scrape at or
        // before it, up to a scrape interval earlier
        assertThat(since).isBetween(now - Duration.ofHours(2).toMillis()
            - SyntheticFleet.SCRAPE_MS, now - Duration.ofHours(2).toMillis() + 120_000);
        assertThat(metric(s, "checkpoint_doctor_bootstrap_problems_total{reason=\"retention\"}"))
            .isEqualTo(1);
        assertThat(warningsMentioning("retention")).isEqualTo(1);
      }
    }
  }

  @Test
  void blockingReadinessAnswers503UntilTheStartUpBootstrapIsDone() throws Exception {
    try (FakePromApi api = fake(Duration.ofHours(1), "alpha")) {
      CountDownLatch gate = new CountDownLatch(1);
      api.gate(gate);
      try (CheckpointDoctor s = start(api.url(), "--bootstrap-blocks-readiness", "true")) {
        HttpResponse<String> r = Http.get(TestService.url(s, "/readyz"));
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(new JsonObject(r.body()).getString("status")).isEqualTo("bootstrapping");
        gate.countDown();
        Await.until("ready", Duration.ofSeconds(30),
            () -> Http.get(TestService.url(s, "/readyz")).statusCode() == 200);
      }
    }
  }

  /**
   * 25 live scrapes of a job, each completing a checkpoint, after the history's end: the job's
   * checkpoint baseline becomes ready from them alone (or on top of its history).
   */
  private void learnsLive(CheckpointDoctor s, String job) {
    long t0 = lastJmScrape(0) + SyntheticFleet.SCRAPE_MS;
    for (int k = 0; k < 25; k++) {
      send(s, job, t0 + k * SyntheticFleet.SCRAPE_MS, 1_000_000 + k);
    }
    JsonObject d = Await.until(job + " learns from live samples", Duration.ofSeconds(30),
        () -> {
          JsonObject b = baseline(s, job, "checkpoint_duration", "job");
          return b != null && b.getString("state").equals("ready")
              && Instant(b.getString("lastSeen")) == t0 + 24 * SyntheticFleet.SCRAPE_MS ? b : null;
        });
    assertThat(d.getDouble("expected")).isEqualTo(2000.0);
    assertThat(s.detector().stats().outOfOrder()).isZero();
  }

  /** The fake's checkpoint id at {@code t} for a history starting at {@code first}. */
  private static long checkpointAt(long first, long t) {
    return Math.floorDiv(t - first, SyntheticFleet.CHECKPOINT_MS);
  }

  private static long Instant(String rfc3339) {
    return java.time.Instant.parse(rfc3339).toEpochMilli();
  }

  /** The JobManager's last scrape in the fake history of job number {@code n}. */
  private long lastJmScrape(int n) {
    long phase = Math.floorMod(n * 1337L, SyntheticFleet.SCRAPE_MS);
    return phase + Math.floorDiv(historyEnd - phase, SyntheticFleet.SCRAPE_MS)
        * SyntheticFleet.SCRAPE_MS;
  }

  /** JobManager gauges per live scrape of {@link #send}. */
  static final int JM_GAUGES = 10;

  /** A live scrape of job number 0's JobManager gauges, as the fake's history has them. */
  private static void send(CheckpointDoctor s, String job, long ts, long checkpointId,
      String... extraLabels) {
    List<RemoteWriteTestEncoder.Proto> series = new ArrayList<>();
    // the JobManager gauges the history has (SyntheticFleet): a scrape's frame is finished once
    // every series of the job reported it, so a live scrape missing some would wait for them
    Map<String, Double> values = Map.of("lastCompletedCheckpointId", (double) checkpointId,
        "numberOfCompletedCheckpoints", (double) checkpointId, "numberOfFailedCheckpoints", 0.0,
        "numberOfInProgressCheckpoints", 0.0, "numRestarts", 0.0, "lastCheckpointDuration",
        2000.0, "lastCheckpointSize", 50_000_000.0, "lastCheckpointFullSize", 900_000_000.0,
        "lastCheckpointPersistedData", 50_000_000.0, "lastCheckpointCompletedTimestamp",
        (double) (ts - 5_000));
    values.forEach((name, v) -> {
      List<String> labels = new ArrayList<>(List.of("__name__", "flink_jobmanager_job_" + name,
          "host", "jm-0", "instance", "jm-0:9249", "job", "flink", "job_id",
          String.format("%032x", 1), "job_name", job));
      labels.addAll(List.of(extraLabels));
      series.add(RemoteWriteTestEncoder.series(labels.toArray(new String[0]), new long[] {ts},
          new double[] {v}));
    });
    HttpResponse<String> r = Http.post(TestService.url(s, "/api/v1/write"),
        RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
            series.toArray(new RemoteWriteTestEncoder.Proto[0]))), Http.remoteWriteHeaders());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
  }

  static JsonObject readyz(CheckpointDoctor s) {
    return new JsonObject(Http.get(TestService.url(s, "/readyz")).body());
  }

  static double metric(CheckpointDoctor s, String nameWithLabels) {
    double v = Http.metric(Http.get(TestService.url(s, "/metrics")).body(), nameWithLabels);
    return Double.isNaN(v) ? 0 : v;
  }

  static JsonObject baseline(CheckpointDoctor s, String job, String signal, String scope) {
    HttpResponse<String> r = Http.get(TestService.url(s, "/api/v1/jobs/" + job + "/baselines"));
    if (r.statusCode() != 200) {
      return null;
    }
    JsonArray b = new JsonObject(r.body()).getJsonArray("baselines");
    for (int i = 0; i < b.size(); i++) {
      JsonObject o = b.getJsonObject(i);
      if (o.getString("signal").equals(signal) && o.getString("scope").equals(scope)) {
        return o;
      }
    }
    return null;
  }

  private int warningsMentioning(String reason) {
    synchronized (warnings) {
      return (int) warnings.stream()
          .filter(r -> r.getMessage().contains("reason=\"" + reason + "\"")).count();
    }
  }

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
