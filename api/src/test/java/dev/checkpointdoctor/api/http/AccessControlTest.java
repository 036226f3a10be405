package dev.checkpointdoctor.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.it.Bodies;
import dev.checkpointdoctor.api.it.Http;
import dev.checkpointdoctor.api.it.TestService;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bearer and basic auth, separately for writing and reading; /healthz open; TLS from PEM. */
class AccessControlTest {
  static final long TS = System.currentTimeMillis() - 60_000;

  static Map<String, String> with(Map<String, String> h, String authorization) {
    Map<String, String> m = new HashMap<>(h);
    m.put("Authorization", authorization);
    return m;
  }

  static String basic(String userPass) {
    return "Basic " + Base64.getEncoder().encodeToString(userPass.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void writeTakesItsTokenApiTakesItsBasicAuthHealthzIsOpen(@TempDir Path tmp) throws Exception {
    Path tokenFile = tmp.resolve("write-token");
    Files.writeString(tokenFile, "s3cret-write\n");
    try (CheckpointDoctor service = TestService.start(tmp.resolve("data"),
        "--write-token-file", tokenFile.toString(), "--api-basic-auth", "ops:pa:ss")) {
      String write = TestService.url(service, "/api/v1/write");
      byte[] body = Bodies.checkpointScrape("job_a", TS, 1, 400);
      Map<String, String> rw = Http.remoteWriteHeaders();

      HttpResponse<String> none = Http.post(write, body, rw);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue(
          "Bearer realm=\"checkpoint-doctor\"");
      assertThat(Http.post(write, body, with(rw, "Bearer wrong")).statusCode()).isEqualTo(401);
      assertThat(Http.post(write, body, with(rw, basic("ops:pa:ss"))).statusCode())
          .as("API credentials do not open the write endpoint").isEqualTo(401);
      assertThat(Http.post(write, body, with(rw, "Bearer s3cret-write")).statusCode())
          .isEqualTo(204);

      String jobs = TestService.url(service, "/api/v1/jobs");
      HttpResponse<String> anonymous = Http.get(jobs);
      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(anonymous.headers().firstValue("WWW-Authenticate").orElseThrow())
          .startsWith("Basic realm=\"checkpoint-doctor\"");
      assertThat(get(jobs, basic("ops:wrong")).statusCode()).isEqualTo(401);
      assertThat(get(jobs, "Bearer s3cret-write").statusCode()).isEqualTo(401);
      assertThat(get(jobs, basic("ops:pa:ss")).statusCode()).isEqualTo(200);
      assertThat(Http.get(TestService.url(service, "/metrics")).statusCode()).isEqualTo(401);
      assertThat(Http.get(TestService.url(service, "/api/v1/openapi.yaml")).statusCode())
          .isEqualTo(401);
      assertThat(Http.get(TestService.url(service, "/healthz")).statusCode()).isEqualTo(200);
      assertThat(Http.get(TestService.url(service, "/readyz")).statusCode()).isEqualTo(200);
      // The pages and the runbooks hold no data: a browser gets them and the page asks for
      // credentials. The page's own requests get no Basic challenge (no browser dialog on top).
      assertThat(Http.get(TestService.url(service, "/ui/")).statusCode()).isEqualTo(200);
      assertThat(Http.get(TestService.url(service, "/ui/job.html")).statusCode()).isEqualTo(200);
      assertThat(Http.get(TestService.url(service, "/docs/causes/unknown.html")).statusCode())
          .isEqualTo(200);
      assertThat(Http.get(TestService.url(service, "/ui/../api/v1/jobs")).statusCode())
          .isEqualTo(401);
      HttpResponse<String> fromUi = send(HttpRequest.newBuilder(URI.create(jobs))
          .header("X-Requested-With", "XMLHttpRequest").build());
      assertThat(fromUi.statusCode()).isEqualTo(401);
      assertThat(fromUi.headers().firstValue("WWW-Authenticate")).isEmpty();
      assertThat(fromUi.body()).contains("\"schemes\":[\"basic\"]");

      String metrics = get(TestService.url(service, "/metrics"), basic("ops:pa:ss")).body();
      assertThat(Http.metric(metrics,
          "checkpoint_doctor_write_requests_rejected_total{reason=\"unauthorized\"}"))
          .isEqualTo(3);
      assertThat(Http.metric(metrics, "checkpoint_doctor_samples_received_total")).isEqualTo(7);
    }
  }

  @Test
  void aTokenAndItsFileTogetherFailAtStartUp(@TempDir Path tmp) {
    assertThatThrownBy(() -> TestService.start(tmp, "--api-token", "a", "--api-token-file",
        tmp.resolve("f").toString())).hasMessageContaining("exclusive");
  }

  @Test
  void servesHttpsFromPemWithASelfSignedCertificate(@TempDir Path tmp) throws Exception {
    Path cert = tmp.resolve("cert.pem");
    Path key = tmp.resolve("key.pem");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl CLI not installed");
    Process p = new ProcessBuilder(List.of("/usr/bin/openssl", "req", "-x509", "-newkey",
        "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key.toString(), "-out",
        cert.toString())).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();

    try (CheckpointDoctor service = TestService.start(tmp.resolve("data"), "--tls-cert",
        cert.toString(), "--tls-key", key.toString(), "--write-token", "t")) {
      HttpClient client = HttpClient.newBuilder().sslContext(trusting(cert)).build();
      String base = "https://127.0.0.1:" + service.port();
      HttpResponse<String> health = client.send(HttpRequest.newBuilder(
          URI.create(base + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      HttpRequest.Builder w = HttpRequest.newBuilder(URI.create(base + "/api/v1/write"))
          .POST(HttpRequest.BodyPublishers.ofByteArray(
              Bodies.checkpointScrape("job_a", TS, 1, 400)));
      Http.remoteWriteHeaders().forEach(w::header);
      assertThat(client.send(w.header("Authorization", "Bearer t").build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(204);
      assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + service.port() + "/healthz"))
              .timeout(java.time.Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.ofString())).as("plain HTTP is not served")
          .isInstanceOf(java.io.IOException.class);
    }
  }

  static HttpResponse<String> send(HttpRequest request) throws Exception {
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> get(String url, String authorization) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
        .header("Authorization", authorization).build(), HttpResponse.BodyHandlers.ofString());
  }

  static SSLContext trusting(Path certPem) throws Exception {
    KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
    ks.load(null, null);
    try (InputStream in = Files.newInputStream(certPem)) {
      ks.setCertificateEntry("service", CertificateFactory.getInstance("X.509")
          .generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(
        TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return ctx;
  }
}
