package dev.checkpointdoctor.api.alerting;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Where alerts go, how often firing ones are repeated, and which diagnoses alert how urgently.
 *
 * @param alertmanagers base URLs; empty means alerting is off
 * @param externalUrl base of generatorURL and runbook_url, or null for http://host:port
 */
public record AlertingSettings(List<URI> alertmanagers, Duration resendInterval,
    String externalUrl, AlertPolicy policy) {
  public AlertingSettings {
    alertmanagers = List.copyOf(alertmanagers);
    policy = policy == null ? AlertPolicy.defaults() : policy;
  }

  public AlertingSettings(List<URI> alertmanagers, Duration resendInterval, String externalUrl) {
    this(alertmanagers, resendInterval, externalUrl, AlertPolicy.defaults());
  }

  public boolean enabled() {
    return !alertmanagers.isEmpty();
  }
}
