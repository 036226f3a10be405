package dev.checkpointdoctor.api.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.api.it.Bodies;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.PrometheusServer;
import dev.checkpointdoctor.api.it.TestService;
import dev.checkpointdoctor.api.shard.Hashmod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three instances (shard 0 twice, as an HA pair, and shard 1) that name each other and one peer
 * that is down: every instance's jobs and anomalies lists hold every shard's, once, each entry
 * naming its instance; ?local=true holds the instance's own; the peer that is down is reported.
 */
class FleetApiTest {
  static final Duration WAIT = Duration.ofSeconds(20);
  final long t0 = (System.currentTimeMillis() / 60_000L - 60) * 60_000L;

  /** A job name whose hashmod over 2 shards is {@code shard}. */
  static String jobOn(int shard, String prefix) {
    for (int i = 0; ; i++) {
      if (Hashmod.of(prefix + i, 2) == shard) {
        return prefix + i;
      }
    }
  }

  void feed(CheckpointDoctor s, String job, int from, int count, double durationMs) {
    for (int i = from; i < from + count; i++) {
      HttpResponse<String> r = Http.post(TestService.url(s, "/api/v1/write"),
          Bodies.checkpointScrape(job, t0 + i * 60_000L, i + 1, durationMs),
          Http.remoteWriteHeaders());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
    }
  }

  static JsonObject get(CheckpointDoctor s, String path) {
    HttpResponse<String> r = Http.get(TestService.url(s, path));
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }

  static Map<String, JsonObject> byJob(JsonArray list) {
    return list.stream().map(JsonObject.class::cast)
        .collect(Collectors.toMap(j -> j.getString("job"), j -> j));
  }

  @Test
  void everyInstanceListsEveryShardsJobsOnce(@TempDir Path dir) throws Exception {
    String a = jobOn(0, "orders-");
    String b = jobOn(1, "payments-");
    int p0a = PrometheusServer.freePort();
    int p0b = PrometheusServer.freePort();
    int p1 = PrometheusServer.freePort();
    int down = PrometheusServer.freePort();
    String u0a = "http://127.0.0.1:" + p0a;
    String u0b = "http://127.0.0.1:" + p0b;
    String u1 = "http://127.0.0.1:" + p1;
    String uDown = "http://127.0.0.1:" + down;
    List<String> all = List.of(u0a, u0b, u1, uDown);
    try (CheckpointDoctor s0a = start(dir, "0a", p0a, "0/2", all);
        CheckpointDoctor s0b = start(dir, "0b", p0b, "0/2", all);
        CheckpointDoctor s1 = start(dir, "1", p1, "1/2", all)) {
      feed(s0a, a, 0, 8, 1000);
      feed(s0b, a, 0, 8, 1000);
      feed(s1, b, 0, 8, 1000);
      // Job b reaches shard 0 too (a relabelling that disagrees): dropped there and counted.
      feed(s0a, b, 8, 1, 1000);
      // A fault of job a, seen by both replicas.
      feed(s0a, a, 8, 4, 5000);
      feed(s0b, a, 8, 4, 5000);

      for (CheckpointDoctor s : List.of(s0a, s0b, s1)) {
        String self = TestService.url(s, "");
        JsonObject answer = Await.until("jobs a and b on " + self, WAIT, () -> {
          JsonObject o = get(s, "/api/v1/jobs");
          return o.getJsonArray("jobs").size() == 2
              && byJob(o.getJsonArray("jobs")).get(a).getString("status").equals("anomalous")
              ? o : null;
        });
        Map<String, JsonObject> jobs = byJob(answer.getJsonArray("jobs"));
        JsonObject ja = jobs.get(a);
        JsonObject jb = jobs.get(b);
        assertThat(jb.getString("instance")).isEqualTo(u1);
        assertThat(jb.getString("shard")).isEqualTo("1/2");
        assertThat(jb.getJsonArray("replicas").getList()).containsExactly(u1);
        assertThat(ja.getString("shard")).isEqualTo("0/2");
        assertThat(ja.getJsonArray("replicas").getList()).containsExactlyInAnyOrder(u0a, u0b);
        // This instance's own copy when it holds the job; else the replicas saw it at the same
        // time and the first URL in order wins.
        String first = u0a.compareTo(u0b) < 0 ? u0a : u0b;
        assertThat(ja.getString("instance")).isEqualTo(s == s1 ? first : self);
        assertThat(answer.getJsonObject("instance").getString("url")).isEqualTo(self);

        JsonArray peers = answer.getJsonArray("peers");
        assertThat(peers).hasSize(3); // itself is recognised and left out
        JsonObject dead = peers.stream().map(JsonObject.class::cast)
            .filter(p -> p.getString("url").equals(uDown)).findFirst().orElseThrow();
        assertThat(dead.getBoolean("ok")).isFalse();
        assertThat(dead.getString("error")).isNotBlank();
        assertThat(peers.stream().map(JsonObject.class::cast)
            .filter(p -> !p.getString("url").equals(uDown)))
            .allMatch(p -> p.getBoolean("ok"));

        JsonObject own = get(s, "/api/v1/jobs?local=true");
        assertThat(byJob(own.getJsonArray("jobs")).keySet())
            .containsExactly(s == s1 ? b : a);
        assertThat(own.containsKey("peers")).isFalse();

        JsonObject anomalies = get(s, "/api/v1/anomalies?state=open&job=" + a);
        assertThat(anomalies.getJsonArray("anomalies")).isNotEmpty();
        List<String> keys = new ArrayList<>();
        for (Object o : anomalies.getJsonArray("anomalies")) {
          JsonObject an = (JsonObject) o;
          assertThat(an.getString("job")).isEqualTo(a);
          assertThat(an.getJsonArray("replicas").getList()).containsExactlyInAnyOrder(u0a, u0b);
          keys.add(an.getString("signal") + "/" + an.getString("scope") + "/"
              + an.getString("startedAt"));
        }
        assertThat(keys).doesNotHaveDuplicates();
        assertThat(get(s, "/api/v1/anomalies?state=open&job=" + a + "&local=true")
            .getJsonArray("anomalies").size()).isEqualTo(s == s1 ? 0 : keys.size());
      }
      assertThat(Http.metric(Http.get(TestService.url(s0a, "/metrics")).body(),
          "checkpoint_doctor_samples_dropped_total{reason=\"not_this_shard\"}")).isEqualTo(7);
      assertThat(Http.get(TestService.url(s1, "/api/v1/jobs?local=yes")).statusCode())
          .isEqualTo(400);
    }
  }

  /**
   * Two clusters run a job of the same name; with {@code --job-identity-labels cluster} and the
   * shard hashed from {@code cluster,job_name} they are two jobs, on the shards their keys'
   * parts hash to; every instance lists both keys and answers for the other's key (URL-encoded
   * as one path segment) by asking its peer.
   */
  @Test
  void jobsKeyedByClusterAreListedAndRoutedByTheirKey(@TempDir Path dir) throws Exception {
    String name = null;
    for (int i = 0; name == null; i++) {
      if (Hashmod.of(List.of("eu-1", "orders-" + i), 2) == 0
          && Hashmod.of(List.of("us-1", "orders-" + i), 2) == 1) {
        name = "orders-" + i;
      }
    }
    int p0 = PrometheusServer.freePort();
    int p1 = PrometheusServer.freePort();
    String u0 = "http://127.0.0.1:" + p0;
    String u1 = "http://127.0.0.1:" + p1;
    String[] keyed = {"--job-identity-labels", "cluster", "--shard-labels", "cluster,job_name"};
    try (CheckpointDoctor s0 = start(dir, "0", p0, "0/2", List.of(u0, u1), keyed);
        CheckpointDoctor s1 = start(dir, "1", p1, "1/2", List.of(u0, u1), keyed)) {
      for (int i = 0; i < 8; i++) {
        for (CheckpointDoctor s : List.of(s0, s1)) {
          // Both clusters' series reach both shards: each keeps its own cluster's job.
          for (String cluster : new String[] {"eu-1", "us-1"}) {
            HttpResponse<String> r = Http.post(TestService.url(s, "/api/v1/write"),
                Bodies.checkpointScrape(name, t0 + i * 60_000L, i + 1,
                    cluster.equals("eu-1") ? 1000 : 3000, Map.of("cluster", cluster)),
                Http.remoteWriteHeaders());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
          }
        }
      }
      String eu = "eu-1/" + name;
      String us = "us-1/" + name;
      for (CheckpointDoctor s : List.of(s0, s1)) {
        JsonObject answer = Await.until("both keys on " + TestService.url(s, ""), WAIT, () -> {
          JsonObject o = get(s, "/api/v1/jobs");
          return o.getJsonArray("jobs").size() == 2 ? o : null;
        });
        Map<String, JsonObject> jobs = byJob(answer.getJsonArray("jobs"));
        assertThat(jobs.get(eu).getString("instance")).isEqualTo(u0);
        assertThat(jobs.get(us).getString("instance")).isEqualTo(u1);
        assertThat(jobs.get(us).getString("jobName")).isEqualTo(name);
        assertThat(jobs.get(us).getJsonObject("labels").getMap())
            .isEqualTo(Map.of("cluster", "us-1"));
        for (String key : List.of(eu, us)) {
          String path = "/api/v1/jobs/" + key.replace("/", "%2F");
          JsonObject job = get(s, path);
          assertThat(job.getString("job")).isEqualTo(key);
          assertThat(job.getString("instance")).isEqualTo(key == eu ? u0 : u1);
          assertThat(get(s, path + "/baselines").getJsonArray("baselines")).isNotEmpty();
          boolean own = (s == s0) == (key == eu);
          assertThat(Http.get(TestService.url(s, path + "?local=true")).statusCode())
              .isEqualTo(own ? 200 : 404);
        }
      }
      for (CheckpointDoctor s : List.of(s0, s1)) {
        assertThat(Http.metric(Http.get(TestService.url(s, "/metrics")).body(),
            "checkpoint_doctor_samples_dropped_total{reason=\"not_this_shard\"}"))
            .as("the other cluster's series").isEqualTo(8 * 7);
      }
    }
  }

  @Test
  void peersAskEachOtherWithTheApiCredentials(@TempDir Path dir) throws Exception {
    String a = jobOn(0, "orders-");
    int p0 = PrometheusServer.freePort();
    int p1 = PrometheusServer.freePort();
    int p2 = PrometheusServer.freePort();
    List<String> all = List.of("http://127.0.0.1:" + p0, "http://127.0.0.1:" + p1,
        "http://127.0.0.1:" + p2);
    try (CheckpointDoctor s0 = start(dir, "0", p0, "0/2", all, "--api-token", "s3cret");
        CheckpointDoctor s1 = start(dir, "1", p1, "1/2", all, "--api-token", "s3cret");
        CheckpointDoctor other = start(dir, "x", p2, "1/2", all, "--api-token", "another")) {
      feed(s0, a, 0, 3, 1000);
      JsonObject answer = Await.until("job a seen through s1", WAIT, () -> {
        HttpResponse<String> r = Http.get(TestService.url(s1, "/api/v1/jobs"),
            Map.of("Authorization", "Bearer s3cret"));
        JsonObject o = new JsonObject(r.body());
        return o.getJsonArray("jobs").size() == 1 ? o : null;
      });
      assertThat(answer.getJsonArray("jobs").getJsonObject(0).getString("instance"))
          .isEqualTo(all.get(0));
      JsonObject refused = answer.getJsonArray("peers").stream().map(JsonObject.class::cast)
          .filter(p -> p.getString("url").equals(all.get(2))).findFirst().orElseThrow();
      assertThat(refused.getBoolean("ok")).isFalse();
      assertThat(refused.getString("error")).contains("401");
      assertThat(other.port()).isEqualTo(p2);
    }
  }

  @Test
  void peersAreFoundThroughDns(@TempDir Path dir) throws Exception {
    // "localhost" resolves to 127.0.0.1 only: the instance there is itself, and the peer of
    // the one on 127.0.0.2 (same port, as pods behind a headless Service).
    String a = jobOn(0, "orders-");
    String b = jobOn(1, "payments-");
    int port = PrometheusServer.freePort();
    try (CheckpointDoctor s0 = TestService.startOnPort(dir.resolve("0"), "--port", "" + port,
            "--shard", "0/2", "--peers-dns", "localhost:" + port);
        CheckpointDoctor s1 = TestService.startOnPort(dir.resolve("1"), "--host", "127.0.0.2",
            "--port", "" + port, "--shard", "1/2", "--peers-dns", "localhost:" + port)) {
      feed(s0, a, 0, 3, 1000);
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> w = Http.post("http://127.0.0.2:" + port + "/api/v1/write",
            Bodies.checkpointScrape(b, t0 + i * 60_000L, i + 1, 1000), Http.remoteWriteHeaders());
        assertThat(w.statusCode()).isEqualTo(204);
      }
      JsonObject through1 = Await.until("job a through the instance on 127.0.0.2", WAIT, () -> {
        JsonObject o = new JsonObject(Http.get("http://127.0.0.2:" + port + "/api/v1/jobs")
            .body());
        return o.getJsonArray("jobs").size() == 2 ? o : null;
      });
      assertThat(byJob(through1.getJsonArray("jobs")).get(a).getString("instance"))
          .isEqualTo("http://127.0.0.1:" + port);
      assertThat(through1.getJsonArray("peers")).singleElement()
          .satisfies(p -> assertThat(((JsonObject) p).getString("url"))
              .isEqualTo("http://127.0.0.1:" + port));
      // The instance on 127.0.0.1 finds only itself: no peer to ask.
      JsonObject through0 = get(s0, "/api/v1/jobs");
      assertThat(byJob(through0.getJsonArray("jobs")).keySet()).containsExactly(a);
      assertThat(through0.getJsonArray("peers")).isEmpty();
      assertThat(s1.port()).isEqualTo(port);
    }
  }

  @Test
  void overTlsPeersTrustTheFleetsCertificateAndNoOther(@TempDir Path dir) throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl CLI not installed");
    // Names no peer address: host names are not what peers check, the certificate is.
    Path[] fleet = certificate(dir, "fleet");
    Path[] stranger = certificate(dir, "stranger");
    String a = jobOn(0, "orders-");
    int p0 = PrometheusServer.freePort();
    int p1 = PrometheusServer.freePort();
    int p2 = PrometheusServer.freePort();
    List<String> all = List.of("https://127.0.0.1:" + p0, "https://127.0.0.1:" + p1,
        "https://127.0.0.1:" + p2);
    try (CheckpointDoctor s0 = start(dir, "0", p0, "0/2", all, "--tls-cert",
            fleet[0].toString(), "--tls-key", fleet[1].toString());
        CheckpointDoctor s1 = start(dir, "1", p1, "1/2", all, "--tls-cert",
            fleet[0].toString(), "--tls-key", fleet[1].toString());
        CheckpointDoctor other = start(dir, "x", p2, "1/2", all, "--tls-cert",
            stranger[0].toString(), "--tls-key", stranger[1].toString())) {
      HttpClient client = HttpClient.newBuilder().sslContext(trustingAll()).build();
      for (int i = 0; i < 3; i++) {
        HttpRequest.Builder w = HttpRequest.newBuilder(URI.create(all.get(0) + "/api/v1/write"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(Bodies.checkpointScrape(a,
                t0 + i * 60_000L, i + 1, 1000)));
        Http.remoteWriteHeaders().forEach(w::header);
        assertThat(client.send(w.build(), HttpResponse.BodyHandlers.ofString()).statusCode())
            .isEqualTo(204);
      }
      JsonObject answer = Await.until("job a seen over TLS through s1", WAIT, () -> {
        try {
          JsonObject o = new JsonObject(client.send(HttpRequest.newBuilder(URI.create(
              all.get(1) + "/api/v1/jobs")).build(), HttpResponse.BodyHandlers.ofString())
              .body());
          return o.getJsonArray("jobs").size() == 1 ? o : null;
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      assertThat(answer.getJsonArray("jobs").getJsonObject(0).getString("instance"))
          .isEqualTo(all.get(0));
      JsonObject refused = answer.getJsonArray("peers").stream().map(JsonObject.class::cast)
          .filter(p -> p.getString("url").equals(all.get(2))).findFirst().orElseThrow();
      assertThat(refused.getBoolean("ok")).as(refused.encode()).isFalse();
      assertThat(other.port()).isEqualTo(p2);
      assertThat(s0.port()).isEqualTo(p0);
    }
  }

  static Path[] certificate(Path dir, String name) throws Exception {
    Path cert = dir.resolve(name + "-cert.pem");
    Path key = dir.resolve(name + "-key.pem");
    Process p = new ProcessBuilder(List.of("/usr/bin/openssl", "req", "-x509", "-newkey",
        "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=" + name + ".example", "-keyout",
        key.toString(), "-out", cert.toString())).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
    return new Path[] {cert, key};
  }

  /** The test's own client trusts anything: what it checks is what peers trust. */
  static SSLContext trustingAll() throws Exception {
    // Extended: the JDK then leaves the host name check to it, and it checks nothing.
    TrustManager[] all = {new X509ExtendedTrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType, Socket s) {}

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType, Socket s) {}

      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    }};
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, all, null);
    return ctx;
  }

  static CheckpointDoctor start(Path dir, String name, int port, String shard, List<String> peers,
      String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("--port", Integer.toString(port), "--shard",
        shard, "--min-observations", "5", "--peer-timeout", "1s"));
    for (String p : peers) {
      args.add("--peer");
      args.add(p);
    }
    args.addAll(List.of(extra));
    return TestService.startOnPort(dir.resolve(name), args.toArray(String[]::new));
  }
}
