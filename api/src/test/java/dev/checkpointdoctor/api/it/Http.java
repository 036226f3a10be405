package dev.checkpointdoctor.api.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A small blocking HTTP client for tests against a service on loopback. */
public final class Http {
  private static final HttpClient client = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

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

  private static HttpResponse<String> send(HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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
