package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.api.http.Credentials;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where and how far back history is read at start-up and when a job first appears.
 *
 * @param url base URL of a Prometheus-compatible HTTP API (Prometheus, Thanos Query, Mimir's
 *     Prometheus prefix, VictoriaMetrics); {@code /api/v1/query_range} is appended
 * @param window how much history to read back from the moment a job is bootstrapped
 * @param credentials bearer token and/or basic auth sent to that API ({@link Credentials#NONE})
 * @param caFile PEM certificate(s) to trust for an https URL, or null for the JVM's trust store
 * @param timeout longest wait for one answer; a slower server counts as down
 * @param blocksReadiness whether /readyz answers 503 until the start-up bootstrap is done
 * @param holdSamples most live samples held, in total, while their jobs bootstrap
 */
public record BootstrapSettings(URI url, Duration window, Credentials credentials, Path caFile,
    Duration timeout, boolean blocksReadiness, long holdSamples) {

  /** Never prints secrets: settings end up in logs. */
  @Override
  public String toString() {
    return "BootstrapSettings[url=" + url + ", window=" + window + ", credentials=" + credentials
        + ", caFile=" + caFile + ", timeout=" + timeout + ", blocksReadiness=" + blocksReadiness
        + ", holdSamples=" + holdSamples + "]";
  }
}
