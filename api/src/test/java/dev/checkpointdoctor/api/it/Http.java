package dev.checkpointdoctor.api.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A small blocking HTTP client for tests against a service on loopback. */
public final class Http {
  // Replaced when a request outlives its deadline: the JDK client's own request timeout did not
  // fire once (a verify run stalled 20 min inside HttpClient.send on a loaded machine), so each
  // call also waits with a deadline of its own and a stuck client is not used again.
  private static volatile HttpClient client = newClient();

  private Http() {}

  public static HttpResponse<String> get(String url) {
    return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET()
        .build());
  }

  public static HttpResponse<String> get(String url, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(10)).GET();
    headers.forEach(b::header);
    return send(b.build());
  }

  public static HttpResponse<String> post(String url, byte[] body, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return send(b.build());
  }

  /** The headers Prometheus 2.42 sends with every remote-write request. */
  public static Map<String, String> remoteWriteHeaders() {
    return Map.of("Content-Encoding", "snappy", "Content-Type", "application/x-protobuf",
        "X-Prometheus-Remote-Write-Version", "0.1.0");
  }

  // HTTP/1.1 as Prometheus, Alertmanager and browsers talk to the service over plain HTTP: the
  // JDK client's default would open every connection with an h2c upgrade, a path none of them
  // takes and the suspect of two stalled GETs of the OpenAPI document in one CI run.
  private static HttpClient newClient() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
  }

  private static HttpResponse<String> send(HttpRequest request) {
    try {
      return sendOnce(request);
    } catch (TimeoutException e) {
      client = newClient();
      if (!request.method().equals("GET")) {
        throw new UncheckedIOException(new IOException("no answer to " + request.method() + " "
            + request.uri() + " within its deadline", e));
      }
      try {
        return sendOnce(request);
      } catch (TimeoutException again) {
        throw new UncheckedIOException(new IOException("no answer to GET " + request.uri()
            + " within its deadline, twice", again));
      }
    }
  }

  private static HttpResponse<String> sendOnce(HttpRequest request) throws TimeoutException {
    long deadlineMs = request.timeout().orElse(Duration.ofSeconds(10)).toMillis() + 5_000;
    try {
      return client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
          .get(deadlineMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw new UncheckedIOException(io);
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Reads one sample value from a Prometheus text exposition, or NaN when absent. */
  public static double metric(String exposition, String nameWithLabels) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(nameWithLabels + " ")) {
        return Double.parseDouble(line.substring(nameWithLabels.length() + 1).trim());
      }
    }
    return Double.NaN;
  }
}
