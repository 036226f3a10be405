package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.pipeline.ShardedDetector;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The read API over the detector's state. Reads wait for the detector's lock, so they run on a
 * worker thread, never on the event loop.
 */
final class ApiRoutes {
  private final Vertx vertx;
  private final ShardedDetector detector;

  ApiRoutes(Vertx vertx, ShardedDetector detector) {
    this.vertx = vertx;
    this.detector = detector;
  }

  void jobs(RoutingContext ctx) {
    respond(ctx, () -> {
      JsonArray jobs = new JsonArray();
      for (JobSummary j : detector.jobs()) {
        jobs.add(JsonViews.job(j));
      }
      return new Reply(200, new JsonObject().put("jobs", jobs));
    });
  }

  void job(RoutingContext ctx) {
    String name = ctx.pathParam("job");
    respond(ctx, () -> {
      Optional<JobSummary> job = detector.job(name);
      if (job.isEmpty()) {
        return Reply.error(404, "no job named \"" + name + "\"");
      }
      JsonObject body = JsonViews.job(job.get());
      body.put("diagnosis", detector.diagnosis(name).map(JsonViews::diagnosis).orElse(null));
      body.put("baselines", baselines(detector.baselines(name)));
      return new Reply(200, body);
    });
  }

  void baselines(RoutingContext ctx) {
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
    String job = ctx.queryParams().get("job");
    String state = ctx.queryParams().get("state");
    String since = ctx.queryParams().get("since");
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
    respond(ctx, () -> {
      JsonArray list = new JsonArray();
      for (Anomaly a : detector.anomalies(job == null || job.isEmpty() ? null : job, open, from)) {
        list.add(JsonViews.anomaly(a));
      }
      return new Reply(200, new JsonObject().put("anomalies", list));
    });
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
        Responses.json(ctx, ar.result().status, ar.result().body);
      } else {
        ctx.fail(ar.cause());
      }
    });
  }

  private record Reply(int status, JsonObject body) {
    static Reply error(int status, String message) {
      return new Reply(status, new JsonObject().put("error", message));
    }
  }
}
