package dev.checkpointdoctor.api.alerting;

import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Turns a job's diagnosis into the Alertmanager alert that announces it. */
public final class AlertMapper {
  public static final String ALERT_NAME = "FlinkCheckpointAnomaly";

  private final String externalUrl;
  private final Duration resendInterval;
  private final AlertPolicy policy;

  public AlertMapper(String externalUrl, Duration resendInterval) {
    this(externalUrl, resendInterval, AlertPolicy.defaults());
  }

  public AlertMapper(String externalUrl, Duration resendInterval, AlertPolicy policy) {
    this.externalUrl = externalUrl.endsWith("/")
        ? externalUrl.substring(0, externalUrl.length() - 1) : externalUrl;
    this.resendInterval = resendInterval;
    this.policy = policy;
  }

  public AlertPolicy policy() {
    return policy;
  }

  /**
   * The alert while the diagnosis holds. endsAt is now + 4 x resend interval, as Prometheus does:
   * should this service die, Alertmanager resolves the alert by itself after a few missed sends.
   */
  public Alert firing(Diagnosis d, Instant now) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("alertname", ALERT_NAME);
    labels.put("job_name", d.job());
    labels.put("cause", d.cause());
    labels.put("severity", policy.severity(d).label());
    labels.put("signal", d.signal() == null ? "unknown" : d.signal());
    CauseHypothesis top = d.top();
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put("summary", summary(d));
    annotations.put("description", top.evidence().stream()
        .map(CauseHypothesis.Evidence::sentence).collect(Collectors.joining("\n")));
    annotations.put("remedy", top.remedy() == null ? "" : top.remedy());
    annotations.put("runbook_url", runbookUrl(d.cause()));
    // Event time comes from the samples; an alert cannot have started after the wall clock.
    Instant since = Instant.ofEpochMilli(d.sinceMs());
    Instant startsAt = (since.isAfter(now) ? now : since).truncatedTo(ChronoUnit.MILLIS);
    return new Alert(labels, annotations, startsAt, endsAtWhileFiring(now),
        generatorUrl(d.job()));
  }

  /** The same alert ended now; Alertmanager then notifies receivers with send_resolved. */
  public Alert resolved(Alert firing, Instant now) {
    Instant end = now.truncatedTo(ChronoUnit.MILLIS);
    return firing.withEndsAt(end.isBefore(firing.startsAt()) ? firing.startsAt() : end);
  }

  /** The same alert re-sent while it still fires. */
  public Alert refreshed(Alert firing, Instant now) {
    return firing.withEndsAt(endsAtWhileFiring(now));
  }

  public Instant endsAtWhileFiring(Instant now) {
    return now.plus(resendInterval.multipliedBy(4)).truncatedTo(ChronoUnit.MILLIS);
  }

  public String generatorUrl(String job) {
    return externalUrl + "/api/v1/jobs/" + pathSegment(job);
  }

  public String runbookUrl(String cause) {
    return externalUrl + "/docs/causes/" + pathSegment(cause) + ".md";
  }

  static String summary(Diagnosis d) {
    String cause = d.cause().equals("unknown") ? "cause not identified"
        : "likely cause " + d.cause().replace('_', ' ');
    String urgency;
    if (d.checkpointsFailing()) {
      urgency = "checkpoints are failing";
    } else if (d.hoursToTimeout() != null) {
      urgency = String.format(Locale.ROOT, "checkpoints forecast to hit the timeout in %.1f h",
          d.hoursToTimeout());
    } else {
      urgency = "checkpoints are outside their normal band";
    }
    return String.format(Locale.ROOT, "Flink job %s: %s (%s); %s.", d.job(), urgency,
        d.signal() == null ? "unknown signal" : d.signal(), cause);
  }

  private static String pathSegment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
