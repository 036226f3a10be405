package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.api.alerting.AlertPolicy;
import dev.checkpointdoctor.detector.facts.JobFacts;
import dev.checkpointdoctor.detector.facts.JobFactsSource;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.ShardedDetector;
import dev.checkpointdoctor.api.fleet.FleetView;
import dev.checkpointdoctor.api.fleet.Instance;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The read API over the detector's state. Reads wait for the detector's lock, so they run on a
 * worker thread, never on the event loop. The jobs and anomalies lists merge every peer's list
 * ({@link FleetView}) unless {@code ?local=true} asks for this instance's own.
 */
final class ApiRoutes {
  private final Vertx vertx;
  private final ShardedDetector detector;
  private final FleetView fleet;
  private final JobFactsSource facts;
  private final AlertPolicy alerting;

  ApiRoutes(Vertx vertx, ShardedDetector detector, FleetView fleet, JobFactsSource facts,
      AlertPolicy alerting) {
    this.vertx = vertx;
    this.detector = detector;
    this.fleet = fleet;
    this.facts = facts;
    this.alerting = alerting;
  }

  static final String LOCAL = "local";
  static final List<String> ANOMALY_FILTERS = List.of("job", "state", "signal", "since");

  void jobs(RoutingContext ctx) {
    if (!QueryParams.accept(ctx, List.of(LOCAL))) {
      return;
    }
    Boolean localOnly = localOnly(ctx);
    if (localOnly == null) {
      return;
    }
    Instance self = fleet.self();
    Future<JsonObject> own = vertx.executeBlocking(() -> {
      JsonArray jobs = new JsonArray();
      for (JobSummary j : detector.jobs()) {
        jobs.add(JsonViews.job(j, detector.jobIdentity()).put("instance", self.url())
            .put("shard", self.shard()));
      }
      JsonObject body = new JsonObject().put("jobs", jobs).put("instance", self.json());
      // On a shard, node and container series of other shards' hosts join nothing here, as
      // expected: that count is no sign of a missing --host-alias.
      if (!self.sharded()) {
        body.put("unjoinedSamples", detector.unjoinedSamples());
      }
      return body;
    }, false);
    answer(ctx, localOnly || !fleet.hasPeers() ? own : own.compose(fleet::jobs));
  }

  /** {@code ?local=true|false}; null after answering 400 for anything else. */
  static Boolean localOnly(RoutingContext ctx) {
    String v = ctx.queryParams().get(LOCAL);
    if (v == null || v.isEmpty() || v.equals("false")) {
      return false;
    }
    if (v.equals("true")) {
      return true;
    }
    Responses.error(ctx, 400, "local must be true or false, got \"" + v + "\"");
    return null;
  }

  private static void answer(RoutingContext ctx, Future<JsonObject> body) {
    body.onComplete(ar -> {
      if (ar.succeeded()) {
        Responses.json(ctx, 200, ar.result());
      } else {
        ctx.fail(ar.cause());
      }
    });
  }

  void job(RoutingContext ctx) {
    if (!QueryParams.accept(ctx, List.of(LOCAL)) || localOnly(ctx) == null) {
      return;
    }
    String name = ctx.pathParam("job");
    Instance self = fleet.self();
    respond(ctx, () -> {
      Optional<JobSummary> job = detector.job(name);
      if (job.isEmpty()) {
        return Reply.error(404, "no job named \"" + name + "\"");
      }
      JsonObject body = JsonViews.job(job.get(), detector.jobIdentity())
          .put("instance", self.url()).put("shard", self.shard());
      JobFacts known = facts.facts(name);
      body.put("diagnosis", detector.diagnosis(name)
          .map(d -> JsonViews.diagnosis(d, alerting))
          .map(d -> FlinkRestViews.timeout(d, known, detector.settings())).orElse(null));
      body.put("flinkRest", FlinkRestViews.facts(known));
      body.put("baselines", baselines(detector.baselines(name)));
      return new Reply(200, body);
    });
  }

  void baselines(RoutingContext ctx) {
    if (!QueryParams.accept(ctx, List.of(LOCAL)) || localOnly(ctx) == null) {
      return;
    }
    String name = ctx.pathParam("job");
    respond(ctx, () -> {
      if (detector.job(name).isEmpty()) {
        return Reply.error(404, "no job named \"" + name + "\"");
      }
      return new Reply(200, new JsonObject().put("baselines",
          baselines(detector.baselines(name))));
    });
  }

  void anomalies(RoutingContext ctx) {
    List<String> accepted = new java.util.ArrayList<>(ANOMALY_FILTERS);
    accepted.add(LOCAL);
    if (!QueryParams.accept(ctx, accepted)) {
      return;
    }
    Boolean localOnly = localOnly(ctx);
    if (localOnly == null) {
      return;
    }
    String job = ctx.queryParams().get("job");
    String state = ctx.queryParams().get("state");
    String since = ctx.queryParams().get("since");
    String signalId = ctx.queryParams().get("signal");
    Signal signal = null;
    if (signalId != null && !signalId.isEmpty()) {
      signal = Signal.byId(signalId).orElse(null);
      if (signal == null) {
        Responses.error(ctx, 400, "unknown signal \"" + signalId + "\", e.g. "
            + "checkpoint_duration (every signal: README, How detection works)");
        return;
      }
    }
    Boolean open;
    if (state == null || state.isEmpty()) {
      open = null;
    } else if (state.equals("open")) {
      open = true;
    } else if (state.equals("resolved")) {
      open = false;
    } else {
      Responses.error(ctx, 400, "state must be open or resolved, got \"" + state + "\"");
      return;
    }
    long sinceMs = Long.MIN_VALUE;
    if (since != null && !since.isEmpty()) {
      try {
        sinceMs = Instant.parse(since).toEpochMilli();
      } catch (DateTimeParseException e) {
        Responses.error(ctx, 400, "since must be an RFC 3339 time like 2026-12-02T14:05:00Z, got \""
            + since + "\"");
        return;
      }
    }
    long from = sinceMs;
    Signal only = signal;
    Instance self = fleet.self();
    Future<JsonObject> own = vertx.executeBlocking(() -> {
      JsonArray list = new JsonArray();
      for (Anomaly a : detector.anomalies(job == null || job.isEmpty() ? null : job, open, from)) {
        if (only == null || a.signal() == only) {
          list.add(JsonViews.anomaly(a).put("instance", self.url()).put("shard", self.shard()));
        }
      }
      return new JsonObject().put("anomalies", list).put("instance", self.json());
    }, false);
    if (localOnly || !fleet.hasPeers()) {
      answer(ctx, own);
      return;
    }
    // Every instance filters its own list alike.
    StringBuilder query = new StringBuilder();
    for (String name : ANOMALY_FILTERS) {
      String v = ctx.queryParams().get(name);
      if (v != null && !v.isEmpty()) {
        query.append(query.length() == 0 ? "" : "&").append(name).append('=')
            .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
      }
    }
    answer(ctx, own.compose(body -> fleet.anomalies(body, query.toString())));
  }

  private static JsonArray baselines(List<BaselineSummary> list) {
    JsonArray out = new JsonArray();
    for (BaselineSummary b : list) {
      out.add(JsonViews.baseline(b));
    }
    return out;
  }

  private void respond(RoutingContext ctx, Callable<Reply> work) {
    vertx.executeBlocking(work, false).onComplete(ar -> {
      if (ar.succeeded()) {
        replyOrAskPeers(ctx, fleet, ar.result().status, ar.result().body);
      } else {
        ctx.fail(ar.cause());
      }
    });
  }

  /**
   * Answers with this instance's reply, unless it is a 404 for a job that a peer may hold: then
   * with the first peer's answer that has it (unless the request said local=true), so a job's
   * page works on every instance of the fleet.
   */
  static void replyOrAskPeers(RoutingContext ctx, FleetView fleet, int status, JsonObject body) {
    if (status != 404 || !fleet.hasPeers() || Boolean.TRUE.equals(localOnly(ctx))) {
      Responses.json(ctx, status, body);
      return;
    }
    StringBuilder path = new StringBuilder(ctx.request().path()).append("?local=true");
    for (String name : ctx.queryParams().names()) {
      if (!name.equals(LOCAL)) {
        path.append('&').append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
            .append(URLEncoder.encode(ctx.queryParams().get(name), StandardCharsets.UTF_8));
      }
    }
    fleet.elsewhere(path.toString()).onComplete(ar -> {
      if (ar.succeeded() && ar.result() != null) {
        Responses.json(ctx, 200, ar.result());
      } else {
        Responses.json(ctx, status, body);
      }
    });
  }

  private record Reply(int status, JsonObject body) {
    static Reply error(int status, String message) {
      return new Reply(status, new JsonObject().put("error", message));
    }
  }
}
