package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.detector.facts.JobFacts;
import dev.checkpointdoctor.detector.facts.JobFactsSource;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Detector;
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
  private final Detector detector;
  private final JobFactsSource facts;

  ApiRoutes(Vertx vertx, Detector detector, JobFactsSource facts) {
    this.vertx = vertx;
    this.detector = detector;
    this.facts = facts;
  }

  static final List<String> ANOMALY_FILTERS = List.of("job", "state", "signal", "since");

  void jobs(RoutingContext ctx) {
    if (!QueryParams.accept(ctx, List.of())) {
      return;
    }
    respond(ctx, () -> {
      JsonArray jobs = new JsonArray();
      for (JobSummary j : detector.jobs()) {
        jobs.add(JsonViews.job(j, detector.jobIdentity()));
      }
      return new Reply(200, new JsonObject().put("jobs", jobs)
          .put("unjoinedSamples", detector.unjoinedSamples()));
    });
  }

  void job(RoutingContext ctx) {
    if (!QueryParams.accept(ctx, List.of())) {
      return;
    }
    String name = ctx.pathParam("job");
    respond(ctx, () -> {
      Optional<JobSummary> job = detector.job(name);
      if (job.isEmpty()) {
        return Reply.error(404, "no job named \"" + name + "\"");
      }
      JsonObject body = JsonViews.job(job.get(), detector.jobIdentity());
      JobFacts known = facts.facts(name);
      body.put("diagnosis", detector.diagnosis(name).map(JsonViews::diagnosis)
          .map(d -> FlinkRestViews.timeout(d, known, detector.settings())).orElse(null));
      body.put("flinkRest", FlinkRestViews.facts(known));
      body.put("baselines", baselines(detector.baselines(name)));
      return new Reply(200, body);
    });
  }

  void baselines(RoutingContext ctx) {
    if (!QueryParams.accept(ctx, List.of())) {
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
    if (!QueryParams.accept(ctx, ANOMALY_FILTERS)) {
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
    respond(ctx, () -> {
      JsonArray list = new JsonArray();
      for (Anomaly a : detector.anomalies(job == null || job.isEmpty() ? null : job, open, from)) {
        if (only == null || a.signal() == only) {
          list.add(JsonViews.anomaly(a));
        }
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
