package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.api.series.SeriesPoint;
import dev.checkpointdoctor.api.series.SeriesStore;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Detector;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /api/v1/jobs/{job}/series}: one signal's downsampled history with its band and the
 * anomaly periods in the range, for charts. The range defaults to the 24 h of event time that end
 * at the series' newest observation.
 */
final class SeriesRoutes {
  static final int DEFAULT_POINTS = 300;
  static final int MAX_POINTS = 5000;
  private static final long DEFAULT_RANGE_MS = Duration.ofHours(24).toMillis();

  private final Vertx vertx;
  private final Detector detector;
  private final SeriesStore store;

  SeriesRoutes(Vertx vertx, Detector detector, SeriesStore store) {
    this.vertx = vertx;
    this.detector = detector;
    this.store = store;
  }

  void series(RoutingContext ctx) {
    if (!QueryParams.accept(ctx, List.of("signal", "scope", "from", "to", "points"))) {
      return;
    }
    String job = ctx.pathParam("job");
    Query q;
    try {
      q = Query.parse(ctx);
    } catch (IllegalArgumentException e) {
      Responses.error(ctx, 400, e.getMessage());
      return;
    }
    vertx.executeBlocking(() -> {
      Optional<JobSummary> summary = detector.job(job);
      if (summary.isEmpty()) {
        return new JsonObject().put("error", "no job named \"" + job + "\"");
      }
      return body(job, summary.get(), q);
    }, false).onComplete(ar -> {
      if (ar.failed()) {
        ctx.fail(ar.cause());
      } else {
        Responses.json(ctx, ar.result().containsKey("error") ? 404 : 200, ar.result());
      }
    });
  }

  private JsonObject body(String job, JobSummary summary, Query q) {
    List<String> scopes = store.scopes(job, q.signal);
    String scope = q.scope != null ? q.scope
        : scopes.contains("job") ? "job" : scopes.isEmpty() ? null : scopes.get(0);
    long newest = scope == null ? summary.lastSeenMs()
        : store.newestMs(job, q.signal, scope).orElse(summary.lastSeenMs());
    long to = q.toMs != null ? q.toMs : newest + 1;
    long from = q.fromMs != null ? q.fromMs : to - DEFAULT_RANGE_MS;
    if (from >= to) {
      from = to - DEFAULT_RANGE_MS;
    }
    JsonObject body = new JsonObject().put("job", job).put("signal", q.signal.id())
        .put("scope", scope).put("unit", q.signal.unit()).put("scopes", new JsonArray(scopes))
        .put("from", JsonViews.time(from)).put("to", JsonViews.time(to));
    JsonArray points = new JsonArray();
    long f = from;
    long t = to;
    store.query(job, q.signal, scope, from, to, q.points).ifPresentOrElse(d -> {
      body.put("bucketSeconds", d.bucketMs() / 1000).put("bucketsPerPoint", d.bucketsPerPoint());
      for (SeriesPoint p : d.points()) {
        points.add(point(p));
      }
    }, () -> body.put("bucketSeconds", null).put("bucketsPerPoint", null));
    body.put("points", points);
    JsonArray periods = new JsonArray();
    for (Anomaly a : detector.anomalies(job, null, f)) {
      if (a.signal() == q.signal && a.scope().equals(scope) && a.startedAtMs() < t) {
        periods.add(new JsonObject().put("id", Long.toString(a.id())).put("state", a.state())
            .put("startedAt", JsonViews.time(a.startedAtMs()))
            .put("endedAt", a.open() ? null : JsonViews.time(a.endedAtMs())));
      }
    }
    return body.put("anomalies", periods);
  }

  private static JsonObject point(SeriesPoint p) {
    return new JsonObject().put("start", JsonViews.time(p.startMs()))
        .put("end", JsonViews.time(p.endMs()))
        .put("firstAt", JsonViews.time(p.firstMs()))
        .put("min", JsonViews.number(p.min()))
        .put("max", JsonViews.number(p.max()))
        .put("last", JsonViews.number(p.last()))
        .put("expected", JsonViews.number(p.expected()))
        .put("lower", JsonViews.number(p.lower()))
        .put("upper", JsonViews.number(p.upper()))
        .put("outside", p.outside());
  }

  private record Query(Signal signal, String scope, Long fromMs, Long toMs, int points) {
    static Query parse(RoutingContext ctx) {
      String s = ctx.queryParams().get("signal");
      if (s == null || s.isEmpty()) {
        throw new IllegalArgumentException("signal is required, e.g. signal=checkpoint_duration");
      }
      Signal signal = Signal.byId(s).orElseThrow(() ->
          new IllegalArgumentException("unknown signal \"" + s + "\""));
      String scope = ctx.queryParams().get("scope");
      Long from = time(ctx, "from");
      Long to = time(ctx, "to");
      if (from != null && to != null && from >= to) {
        throw new IllegalArgumentException("from must be before to");
      }
      String p = ctx.queryParams().get("points");
      int points = DEFAULT_POINTS;
      if (p != null && !p.isEmpty()) {
        try {
          points = Integer.parseInt(p);
        } catch (NumberFormatException e) {
          points = -1;
        }
        if (points < 2 || points > MAX_POINTS) {
          throw new IllegalArgumentException("points must be an integer from 2 to " + MAX_POINTS
              + ", got \"" + p + "\"");
        }
      }
      return new Query(signal, scope == null || scope.isEmpty() ? null : scope, from, to, points);
    }

    private static Long time(RoutingContext ctx, String name) {
      String v = ctx.queryParams().get(name);
      if (v == null || v.isEmpty()) {
        return null;
      }
      try {
        return Instant.parse(v).toEpochMilli();
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(name + " must be an RFC 3339 time like "
            + "2026-12-02T14:05:00Z, got \"" + v + "\"");
      }
    }
  }
}
