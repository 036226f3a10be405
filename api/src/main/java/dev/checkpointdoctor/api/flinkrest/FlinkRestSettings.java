package dev.checkpointdoctor.api.flinkrest;

import dev.checkpointdoctor.api.http.Credentials;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Which JobManagers to ask and how.
 *
 * @param endpoints JobManager REST base URLs; empty: the service never polls (metrics only)
 * @param credentials sent on every request (bearer token and/or basic auth), or none
 * @param caFile PEM certificate(s) to trust for https endpoints, or null for the JVM's default
 */
public record FlinkRestSettings(List<URI> endpoints, Duration interval, Credentials credentials,
    Path caFile) {
  public FlinkRestSettings {
    endpoints = List.copyOf(endpoints);
    credentials = credentials == null ? Credentials.NONE : credentials;
  }

  public boolean enabled() {
    return !endpoints.isEmpty();
  }
}
