package dev.checkpointdoctor.api.alerting;

import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.JobIdentity;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.Set;
import java.util.stream.Collectors;

/** Turns a job's diagnosis into the Alertmanager alert that announces it. */
public final class AlertMapper {
  public static final String ALERT_NAME = "FlinkCheckpointAnomaly";
  /** Labels an identity label cannot replace. */
  private static final Set<String> OWN_LABELS =
      Set.of("alertname", "job_name", "cause", "severity", "signal");

  private final String externalUrl;
  private final Duration resendInterval;
  private final ToLongFunction<Diagnosis> troubleStart;
  private final JobIdentity identity;
  private final AlertPolicy policy;

  /** Links the job page at the time the diagnosis began. */
  public AlertMapper(String externalUrl, Duration resendInterval) {
    this(externalUrl, resendInterval, Diagnosis::sinceMs, JobIdentity.jobNameOnly());
  }

  /** With an alert policy other than the default (which diagnoses alert, and how severe). */
  public AlertMapper(String externalUrl, Duration resendInterval, AlertPolicy policy) {
    this(externalUrl, resendInterval, Diagnosis::sinceMs, JobIdentity.jobNameOnly(), policy);
  }

  /** @param troubleStart when the job's trouble began, the time its alert's job page shows */
  public AlertMapper(String externalUrl, Duration resendInterval,
      ToLongFunction<Diagnosis> troubleStart) {
    this(externalUrl, resendInterval, troubleStart, JobIdentity.jobNameOnly());
  }

  /** With job identity labels, alerts carry them (e.g. {@code cluster}) beside job_name. */
  public AlertMapper(String externalUrl, Duration resendInterval, JobIdentity identity) {
    this(externalUrl, resendInterval, Diagnosis::sinceMs, identity);
  }

  public AlertMapper(String externalUrl, Duration resendInterval,
      ToLongFunction<Diagnosis> troubleStart, JobIdentity identity) {
    this(externalUrl, resendInterval, troubleStart, identity, AlertPolicy.defaults());
  }

  /**
   * @param troubleStart when the job's trouble began (its earliest open anomaly's start): the
   *     time the alert's job page is centred on
   * @param identity what a job key is made of: alerts carry its labels beside job_name
   * @param policy which diagnoses alert ({@code unknown} only when checkpoints fail, unless
   *     --alert-unknown) and when a forecast makes one critical
   */
  public AlertMapper(String externalUrl, Duration resendInterval,
      ToLongFunction<Diagnosis> troubleStart, JobIdentity identity, AlertPolicy policy) {
    this.externalUrl = externalUrl.endsWith("/")
        ? externalUrl.substring(0, externalUrl.length() - 1) : externalUrl;
    this.resendInterval = resendInterval;
    this.troubleStart = troubleStart;
    this.identity = identity;
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
    labels.put("job_name", identity.jobName(d.job()));
    identity.labelsOf(d.job()).forEach((name, value) -> {
      if (!OWN_LABELS.contains(name) && !value.isEmpty()) {
        labels.put(name, value);
      }
    });
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
        generatorUrl(d.job(), troubleStart.applyAsLong(d)));
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

  /** The job's page in the web UI, its charts centred on {@code atMs} (event time). */
  public String generatorUrl(String job, long atMs) {
    return externalUrl + "/ui/job.html?job=" + queryValue(job) + "&at="
        + queryValue(Instant.ofEpochMilli(atMs).toString());
  }

  /** The cause's runbook as a web page (rendered from docs/causes/CAUSE.md). */
  public String runbookUrl(String cause) {
    return externalUrl + "/docs/causes/" + pathSegment(cause) + ".html";
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

  private static String queryValue(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String pathSegment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
