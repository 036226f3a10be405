package dev.checkpointdoctor.api.history;

import dev.checkpointdoctor.api.alerting.AlertPolicy;
import dev.checkpointdoctor.api.alerting.Severity;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.JobIdentity;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.influxdb.dto.Point;

/**
 * The InfluxDB schema of the history, one measurement per kind of event, time = event time of
 * the observation. The Grafana dashboard in deploy/grafana queries exactly these names (a test
 * keeps them in step).
 */
public final class HistoryPoints {
  /** Every evaluated observation: the value and the band it was judged against. */
  public static final String SIGNAL = "signal";
  /** Anomalies opening and resolving (Grafana annotations). */
  public static final String ANOMALY = "anomaly";
  /** A job's diagnosis opening, changing cause or closing (Grafana annotations). */
  public static final String DIAGNOSIS = "diagnosis";

  public static final List<String> SIGNAL_TAGS = List.of("job", "signal", "scope");
  public static final List<String> SIGNAL_FIELDS =
      List.of("observed", "expected", "lower", "upper", "score", "ready", "outside");
  public static final List<String> ANOMALY_TAGS =
      List.of("job", "signal", "scope", "state", "cause");
  public static final List<String> ANOMALY_FIELDS =
      List.of("id", "observed", "expected", "lower", "upper", "score", "text");
  public static final List<String> DIAGNOSIS_TAGS =
      List.of("job", "cause", "state", "severity", "signal");
  public static final List<String> DIAGNOSIS_FIELDS =
      List.of("confidence", "checkpoints_failing", "hours_to_timeout", "text");

  private HistoryPoints() {}

  private static final java.util.Set<String> OWN_TAGS =
      java.util.Set.of("job", "signal", "scope", "state", "cause", "severity");

  /**
   * Tags the job: {@code job} is its key; with job identity labels, each (e.g. {@code cluster})
   * is a tag of its own too, unless it would replace one of the schema's tags.
   */
  private static Point.Builder job(Point.Builder b, String key, JobIdentity identity) {
    b.tag("job", key);
    identity.labelsOf(key).forEach((name, value) -> {
      if (!OWN_TAGS.contains(name) && !value.isEmpty()) {
        b.tag(name, value);
      }
    });
    return b;
  }

  /**
   * The observation and, once the baseline is ready, its band. NaN or infinite values are left
   * out: InfluxDB cannot store them.
   */
  public static Point of(Evaluation e) {
    return of(e, JobIdentity.jobNameOnly());
  }

  public static Point of(Evaluation e, JobIdentity identity) {
    Point.Builder b = job(Point.measurement(SIGNAL).time(e.timestampMs(), TimeUnit.MILLISECONDS),
        e.job(), identity).tag("signal", e.signal().id()).tag("scope", e.scope());
    number(b, "observed", e.observed());
    if (e.ready()) {
      number(b, "expected", e.expected());
      number(b, "lower", e.lower());
      number(b, "upper", e.upper());
      number(b, "score", e.score());
    }
    return b.addField("ready", e.ready()).addField("outside", e.outside()).build();
  }

  public static Point of(Anomaly a) {
    return of(a, JobIdentity.jobNameOnly());
  }

  public static Point of(Anomaly a, JobIdentity identity) {
    String cause = a.causes().isEmpty() ? "undiagnosed" : a.causes().get(0).cause();
    Point.Builder b = job(Point.measurement(ANOMALY)
        .time(a.open() ? a.startedAtMs() : a.endedAtMs(), TimeUnit.MILLISECONDS), a.job(),
        identity).tag("signal", a.signal().id()).tag("scope", a.scope())
        .tag("state", a.state()).tag("cause", cause).addField("id", a.id());
    number(b, "observed", a.observed());
    number(b, "expected", a.expected());
    number(b, "lower", a.lower());
    number(b, "upper", a.upper());
    number(b, "score", a.score());
    String text = String.format(Locale.ROOT, "%s %s at %s: %s %s, expected %s (band %s..%s)",
        a.signal().id(), a.open() ? "anomalous" : "back to normal", a.scope(), fmt(a.observed()),
        a.signal().unit(), fmt(a.expected()), fmt(a.lower()), fmt(a.upper()));
    return b.addField("text", text).build();
  }

  /** As {@link #of(String, Diagnosis, Diagnosis, long, JobIdentity, Duration)} with defaults. */
  public static Point of(String job, Diagnosis before, Diagnosis after, long eventTimeMs) {
    return of(job, before, after, eventTimeMs, JobIdentity.jobNameOnly(),
        AlertPolicy.defaults().forecastHorizon());
  }

  /**
   * {@code after} null: the diagnosis closed; the point then carries the cause that ended. The
   * severity tag is the alert's, with the same forecast horizon.
   */
  public static Point of(String job, Diagnosis before, Diagnosis after, long eventTimeMs,
      JobIdentity identity, Duration forecastHorizon) {
    Diagnosis d = after != null ? after : before;
    String state = after == null ? "closed" : before == null ? "opened" : "changed";
    Point.Builder b = job(Point.measurement(DIAGNOSIS).time(eventTimeMs, TimeUnit.MILLISECONDS),
        job, identity).tag("cause", d.cause()).tag("state", state)
        .tag("severity", Severity.of(d, forecastHorizon).label())
        .tag("signal", d.signal() == null ? "unknown" : d.signal())
        .addField("confidence", d.confidence())
        .addField("checkpoints_failing", d.checkpointsFailing());
    if (d.hoursToTimeout() != null && Double.isFinite(d.hoursToTimeout())) {
      b.addField("hours_to_timeout", d.hoursToTimeout());
    }
    String evidence = d.top().evidence().stream().map(CauseHypothesis.Evidence::sentence)
        .collect(Collectors.joining(" "));
    String text = after == null ? "diagnosis closed: " + d.cause() + " no longer applies"
        : "cause " + d.cause() + (before == null ? "" : " (was " + before.cause() + ")") + ": "
            + evidence;
    return b.addField("text", text).build();
  }

  private static void number(Point.Builder b, String field, double v) {
    if (Double.isFinite(v)) {
      b.addField(field, v);
    }
  }

  private static String fmt(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4g", v) : "?";
  }
}
