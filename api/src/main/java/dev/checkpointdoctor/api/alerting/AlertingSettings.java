package dev.checkpointdoctor.api.alerting;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Where alerts go and how often firing ones are repeated.
 *
 * @param alertmanagers base URLs; empty means alerting is off
 * @param externalUrl base of generatorURL and runbook_url, or null for http://host:port
 */
public record AlertingSettings(List<URI> alertmanagers, Duration resendInterval,
    String externalUrl) {
  public AlertingSettings {
    alertmanagers = List.copyOf(alertmanagers);
  }

  public boolean enabled() {
    return !alertmanagers.isEmpty();
  }
}
