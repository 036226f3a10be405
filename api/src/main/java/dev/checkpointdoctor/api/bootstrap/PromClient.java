package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.api.http.Credentials;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * The three calls of the Prometheus HTTP API that history needs, as every compatible server
 * answers them (Prometheus, Thanos Query, Mimir, VictoriaMetrics): {@code GET
 * /api/v1/query_range}, {@code GET /api/v1/label/NAME/values} and, for the retention, {@code GET
 * /api/v1/status/runtimeinfo} (Prometheus only; others simply do not say). Every failure is a
 * {@link Problem.Failure} naming the problem; a whole answer must arrive within the timeout, body
 * included (a watchdog closes a stream that stalls).
 */
final class PromClient implements AutoCloseable {
  private static final int ERROR_BODY_BYTES = 64 * 1024;

  private final URI base;
  private final String authorization;
  private final Duration timeout;
  private final HttpClient http;
  private final ScheduledExecutorService watchdog;
  private final AtomicLong queries = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  PromClient(URI base, Credentials credentials, Path caFile, Duration timeout)
      throws IOException, GeneralSecurityException {
    String b = base.toString();
    this.base = URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
    this.authorization = authorization(credentials);
    this.timeout = timeout;
    HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL);
    if (caFile != null) {
      builder.sslContext(trusting(caFile));
    }
    this.http = builder.build();
    this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "bootstrap-watchdog");
      t.setDaemon(true);
      return t;
    });
  }

  URI base() {
    return base;
  }

  /** Requests sent so far. */
  long queries() {
    return queries.get();
  }

  /** Answer bytes read so far. */
  long bytes() {
    return bytes.get();
  }

  Matrix queryRange(String query, Grid grid, int maxSeries) throws Problem.Failure {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("query", query);
    params.put("start", Grid.seconds(grid.startMs()));
    params.put("end", Grid.seconds(grid.endMs()));
    params.put("step", Grid.seconds(grid.stepMs()));
    return get("/api/v1/query_range", params, in -> AnswerParser.matrix(in, grid, maxSeries));
  }

  /**
   * The raw samples of {@code selector} over {@code rangeMs} before {@code atMs} (an instant
   * query of a range selector): their own timestamps, for the scrape cadence.
   */
  List<AnswerParser.RawSeries> raw(String selector, long rangeMs, long atMs, int maxSeries)
      throws Problem.Failure {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("query", selector + "[" + Math.max(1, rangeMs / 1000) + "s]");
    params.put("time", Grid.seconds(atMs));
    return get("/api/v1/query", params, in -> AnswerParser.raw(in, maxSeries));
  }

  List<String> labelValues(String label, String match, long startMs, long endMs)
      throws Problem.Failure {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("match[]", match);
    params.put("start", Grid.seconds(startMs));
    params.put("end", Grid.seconds(endMs));
    return get("/api/v1/label/" + label + "/values", params, AnswerParser::strings);
  }

  /**
   * How long the server keeps data, when it says (Prometheus' {@code storageRetention}, e.g.
   * {@code "15d"} or {@code "15d or 10GiB"}); empty when it does not or cannot be asked.
   */
  Optional<Duration> retention() {
    try {
      String body = get("/api/v1/status/runtimeinfo", Map.of(),
          in -> new String(in.readAllBytes(), StandardCharsets.UTF_8));
      String r = new JsonObject(body).getJsonObject("data", new JsonObject())
          .getString("storageRetention");
      return r == null ? Optional.empty() : retentionOf(r);
    } catch (Problem.Failure | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static final Pattern DURATION = Pattern.compile("^\\s*((?:\\d+(?:y|w|d|h|m|s|ms))+)");

  static Optional<Duration> retentionOf(String s) {
    Matcher m = DURATION.matcher(s);
    if (!m.find()) {
      return Optional.empty(); // size-based only
    }
    try {
      return Optional.of(dev.checkpointdoctor.api.app.PromDuration.parsePositive(m.group(1)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private interface BodyReader<T> {
    T read(InputStream in) throws IOException, Problem.Failure;
  }

  private <T> T get(String path, Map<String, String> params, BodyReader<T> reader)
      throws Problem.Failure {
    StringBuilder url = new StringBuilder(base.toString()).append(path);
    char sep = '?';
    for (Map.Entry<String, String> p : params.entrySet()) {
      url.append(sep).append(URLEncoder.encode(p.getKey(), StandardCharsets.UTF_8)).append('=')
          .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
      sep = '&';
    }
    HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url.toString())).GET()
        .timeout(timeout).header("Accept", "application/json");
    if (authorization != null) {
      req.header("Authorization", authorization);
    }
    queries.incrementAndGet();
    AtomicBoolean expired = new AtomicBoolean();
    HttpResponse<InputStream> response;
    try {
      response = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpConnectTimeoutException e) {
      throw new Problem.Failure(Problem.UNREACHABLE, "connect timed out");
    } catch (HttpTimeoutException e) {
      throw new Problem.Failure(Problem.TIMEOUT, "no answer within " + timeout.toMillis() + " ms");
    } catch (ConnectException | SSLException e) {
      throw new Problem.Failure(Problem.UNREACHABLE, describe(e));
    } catch (IOException e) {
      throw new Problem.Failure(Problem.UNREACHABLE, describe(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Problem.Failure(Problem.TIMEOUT, "interrupted");
    }
    InputStream body = new CountingStream(response.body(), bytes);
    ScheduledFuture<?> deadline = watchdog.schedule(() -> {
      expired.set(true);
      try {
        body.close();
      } catch (IOException ignored) {
        // the reader fails on its next read either way
      }
    }, timeout.toMillis(), TimeUnit.MILLISECONDS);
    try (body) {
      int status = response.statusCode();
      if (status / 100 != 2) {
        String error = AnswerParser.errorOf(new java.io.ByteArrayInputStream(
            body.readNBytes(ERROR_BODY_BYTES)));
        String detail = "HTTP " + status + (error == null ? "" : ": " + error);
        throw new Problem.Failure(switch (status) {
          case 401, 403 -> Problem.UNAUTHORIZED;
          case 404 -> Problem.NOT_FOUND;
          default -> status >= 500 ? Problem.SERVER_ERROR : Problem.REJECTED;
        }, detail);
      }
      return reader.read(body);
    } catch (IOException e) {
      if (expired.get()) {
        throw new Problem.Failure(Problem.TIMEOUT, "answer not complete within "
            + timeout.toMillis() + " ms");
      }
      throw new Problem.Failure(Problem.UNREACHABLE, describe(e));
    } finally {
      deadline.cancel(false);
    }
  }

  private static String describe(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  private static String authorization(Credentials c) {
    if (c == null || !c.required()) {
      return null;
    }
    if (c.bearerToken() != null) {
      return "Bearer " + c.bearerToken();
    }
    return "Basic " + Base64.getEncoder().encodeToString(
        (c.basicUser() + ":" + c.basicPassword()).getBytes(StandardCharsets.UTF_8));
  }

  /** An SSL context that trusts exactly the PEM certificates in {@code caFile}. */
  static SSLContext trusting(Path caFile) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    try (InputStream in = Files.newInputStream(caFile)) {
      int n = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + n++, c);
      }
      if (n == 0) {
        throw new GeneralSecurityException("no certificate in " + caFile);
      }
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    return ssl;
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
  }

  /** Counts what is read, for the bytes metric. */
  private static final class CountingStream extends java.io.FilterInputStream {
    private final AtomicLong counter;

    CountingStream(InputStream in, AtomicLong counter) {
      super(in);
      this.counter = counter;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        counter.incrementAndGet();
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        counter.addAndGet(n);
      }
      return n;
    }
  }
}
