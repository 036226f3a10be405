package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.api.alerting.AlertPolicy;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.MissingSource;
import dev.checkpointdoctor.detector.model.JobSummary;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/** Record to JSON, explicitly, so the wire shape is visible in one place and matches OpenAPI. */
final class JsonViews {
  private JsonViews() {}

  /** RFC 3339 UTC, or null when the time is unknown. */
  static String time(long epochMs) {
    return epochMs == Long.MIN_VALUE || epochMs < 0 ? null : Instant.ofEpochMilli(epochMs)
        .toString();
  }

  /** JSON has no NaN or infinity; an unknown number is null. */
  static Double number(double d) {
    return Double.isFinite(d) ? d : null;
  }

  /** {@code job} is the key; {@code jobName} Flink's job_name; {@code labels} the identity. */
  static JsonObject job(JobSummary j, JobIdentity identity) {
    JsonObject labels = new JsonObject();
    identity.labelsOf(j.job()).forEach(labels::put);
    return new JsonObject()
        .put("job", j.job())
        .put("jobName", identity.jobName(j.job()))
        .put("labels", labels)
        .put("status", j.status())
        .put("signals", new JsonArray(j.signals()))
        .put("openAnomalies", j.openAnomalies())
        .put("lastSeen", time(j.lastSeenMs()))
        .put("baselinesReady", j.baselinesReady())
        .put("baselinesTotal", j.baselinesTotal())
        .put("checkpointsUntilReady", j.checkpointsUntilReady())
        .put("readyAt", time(j.readyAtMs()));
  }

  static JsonObject baseline(BaselineSummary b) {
    JsonObject o = new JsonObject()
        .put("signal", b.signal().id())
        .put("scope", b.scope())
        .put("unit", b.signal().unit())
        .put("state", b.state())
        .put("expected", number(b.expected()))
        .put("lower", number(b.lower()))
        .put("upper", number(b.upper()))
        .put("observations", b.observations())
        .put("lastObserved", number(b.lastObserved()))
        .put("lastSeen", time(b.lastTimestampMs()))
        .put("historySince", time(b.historySinceMs()));
    if (b.join() != null) {
      o.put("join", b.join());
    }
    return o;
  }

  static JsonObject anomaly(Anomaly a) {
    JsonArray causes = new JsonArray();
    for (CauseHypothesis c : a.causes()) {
      causes.add(cause(c));
    }
    return new JsonObject()
        .put("id", Long.toString(a.id()))
        .put("job", a.job())
        .put("signal", a.signal().id())
        .put("scope", a.scope())
        .put("unit", a.signal().unit())
        .put("state", a.state())
        .put("startedAt", time(a.startedAtMs()))
        .put("endedAt", a.open() ? null : time(a.endedAtMs()))
        .put("observed", number(a.observed()))
        .put("expected", number(a.expected()))
        .put("lower", number(a.lower()))
        .put("upper", number(a.upper()))
        .put("score", number(a.score()))
        .put("causes", causes);
  }

  /** @param alerting the policy whose severity the alert of this diagnosis carries */
  static JsonObject diagnosis(Diagnosis d, AlertPolicy alerting) {
    CauseHypothesis top = d.top();
    JsonArray ranked = new JsonArray();
    for (CauseHypothesis c : d.ranked()) {
      ranked.add(cause(c));
    }
    return new JsonObject()
        .put("cause", d.cause())
        .put("confidence", d.confidence())
        .put("since", time(d.sinceMs()))
        .put("severity", alerting.severity(d).label())
        .put("alerted", alerting.alerts(d))
        .put("signal", d.signal())
        .put("checkpointsFailing", d.checkpointsFailing())
        .put("hoursToTimeout", d.hoursToTimeout())
        .put("evidence", cause(top).getJsonArray("evidence"))
        .put("remedy", top.remedy())
        .put("docs", top.docsUrl())
        .put("runbook", runbook(top.docsUrl()))
        .put("causes", ranked)
        .put("missingSources", missingSources(d));
  }

  static JsonArray missingSources(Diagnosis d) {
    JsonArray out = new JsonArray();
    for (MissingSource m : d.missingSources()) {
      out.add(new JsonObject()
          .put("source", m.source())
          .put("cause", m.cause())
          .put("why", m.why())
          .put("fix", m.fix()));
    }
    return out;
  }

  static JsonObject cause(CauseHypothesis c) {
    JsonArray evidence = new JsonArray();
    for (CauseHypothesis.Evidence e : c.evidence()) {
      evidence.add(new JsonObject()
          .put("signal", e.signal())
          .put("scope", e.scope())
          .put("observed", number(e.observed()))
          .put("expected", number(e.expected()))
          .put("relation", e.relation())
          .put("spread", number(e.spread()))
          .put("confidence", number(e.confidence()))
          .put("since", e.sinceMs() < 0 ? null : time(e.sinceMs()))
          .put("sentence", e.sentence()));
    }
    return new JsonObject()
        .put("cause", c.cause())
        .put("confidence", c.confidence())
        .put("evidence", evidence)
        .put("remedy", c.remedy())
        .put("docs", c.docsUrl())
        .put("runbook", runbook(c.docsUrl()));
  }

  /**
   * Where a browser reads a cause's runbook: a page of the repository's docs/ is served by this
   * service as HTML ({@code docs/causes/x.md} is {@code /docs/causes/x.html}); a web address is
   * kept as it is.
   */
  static String runbook(String docs) {
    if (docs == null || docs.isEmpty()) {
      return null;
    }
    if (docs.startsWith("docs/") && docs.endsWith(".md")) {
      return "/" + docs.substring(0, docs.length() - ".md".length()) + ".html";
    }
    return docs.startsWith("http://") || docs.startsWith("https://") ? docs : null;
  }
}
