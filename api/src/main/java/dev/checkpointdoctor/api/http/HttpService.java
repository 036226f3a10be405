package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.api.alerting.AlertPolicy;
import dev.checkpointdoctor.api.fleet.FleetView;
import dev.checkpointdoctor.api.ingest.DetectorWorker;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.api.metrics.ServiceMetrics.DropReason;
import dev.checkpointdoctor.api.series.SeriesStore;
import dev.checkpointdoctor.detector.facts.JobFactsSource;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import dev.checkpointdoctor.detector.pipeline.ShardedDetector;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Builds the one router that serves remote-write, the API, health and metrics. */
public final class HttpService {
  private static final Logger logger = Logger.getLogger(HttpService.class.getName());
  static final String OPENAPI_PATH = "/api/v1/openapi.yaml";

  private HttpService() {}

  /**
   * @param notReady why the service is not ready (a snapshot failing), or null when it is
   */
  public static Router router(Vertx vertx, ShardedDetector detector, DetectorWorker worker,
      ServiceMetrics metrics, DecodeLimits limits, MetricNameFilter filter,
      SeriesStore series, Supplier<String> notReady, IngressPolicy policy, FleetView fleet) {
    return router(vertx, detector, worker, metrics, limits, filter, series, notReady, () -> null,
        () -> false, policy, fleet, JobFactsSource.NONE, AlertPolicy.defaults());
  }

  /**
   * @param bootstrapping what the bootstrap from history is doing while it runs, or null: /readyz
   *     says {@code "bootstrapping"} meanwhile
   * @param bootstrapBlocks whether that answers 503 (--bootstrap-blocks-readiness) rather than 200
   * @param facts what Flink's REST API said of each job, shown with it
   * @param alerting the alert policy, for the severity the API shows with a diagnosis
   */
  public static Router router(Vertx vertx, ShardedDetector detector, DetectorWorker worker,
      ServiceMetrics metrics, DecodeLimits limits, MetricNameFilter filter,
      SeriesStore series, Supplier<String> notReady, Supplier<String> bootstrapping,
      java.util.function.BooleanSupplier bootstrapBlocks, IngressPolicy policy, FleetView fleet,
      JobFactsSource facts, AlertPolicy alerting) {
    Router router = Router.router(vertx);
    router.route().handler(ctx -> {
      ctx.addHeadersEndHandler(v -> metrics.request(routeLabel(ctx),
          ctx.response().getStatusCode()));
      ctx.next();
    });
    // Everything but the probes, the pages, the docs and the write path (guarded below, before
    // its body is read). Pages and docs are the jar's static files; the data they show comes
    // from the API, with credentials the page asks the user for.
    Set<String> openPaths = Set.of("/", "/healthz", "/readyz", RemoteWriteHandler.PATH);
    router.route().handler(new AccessGuard(policy.api(), path -> openPaths.contains(path)
        || path.startsWith(UiRoutes.PREFIX) || path.startsWith("/docs/"), () -> { }));

    // A route of its own: Vert.x wants body handlers first on a route.
    router.post(RemoteWriteHandler.PATH).handler(new AccessGuard(policy.write(), path -> false,
        () -> metrics.rejected(DropReason.UNAUTHORIZED)));
    router.post(RemoteWriteHandler.PATH)
        .handler(new PooledBodyReader(limits.maxCompressedBytes(),
            new RemoteWriteHandler(metrics, worker, limits, filter, policy)));

    ApiRoutes api = new ApiRoutes(vertx, detector, fleet, facts, alerting);
    router.get("/api/v1/jobs").handler(api::jobs);
    router.get("/api/v1/jobs/:job").handler(api::job);
    router.get("/api/v1/jobs/:job/baselines").handler(api::baselines);
    router.get("/api/v1/anomalies").handler(api::anomalies);
    SeriesRoutes seriesRoutes = new SeriesRoutes(vertx, detector, series, fleet);
    router.get("/api/v1/jobs/:job/series").handler(seriesRoutes::series);
    new UiRoutes().mount(router);

    byte[] openapi = resource("openapi.yaml");
    router.get(OPENAPI_PATH).handler(ctx -> ctx.response()
        .putHeader("Content-Type", "application/yaml").end(Buffer.buffer(openapi)));
    router.get(DocsHandler.ROUTE).handler(new DocsHandler());
    router.get("/healthz").handler(ctx -> Responses.json(ctx, 200,
        new JsonObject().put("status", "ok")));
    router.get("/readyz").handler(ctx -> {
      String problem = worker.alive() ? notReady.get() : "the detector worker stopped";
      String history = bootstrapping.get();
      boolean blocked = history != null && bootstrapBlocks.getAsBoolean();
      JsonObject body = new JsonObject().put("status", problem != null ? "not ready"
          : history != null ? "bootstrapping" : "ready");
      if (problem != null) {
        body.put("reason", problem);
      }
      if (history != null) {
        body.put("bootstrap", history);
      }
      Responses.json(ctx, problem == null && !blocked ? 200 : 503, body);
    });
    router.get("/metrics").handler(ctx -> vertx.executeBlocking(metrics::scrape, false)
        .onSuccess(bytes -> ctx.response().putHeader("Content-Type", metrics.contentType())
            .end(Buffer.buffer(bytes)))
        .onFailure(ctx::fail));

    router.route().last().handler(ctx -> Responses.error(ctx, 404,
        "no route for " + ctx.request().method() + " " + ctx.request().path()));
    router.route().failureHandler(ctx -> failure(ctx, metrics));
    return router;
  }

  private static void failure(RoutingContext ctx, ServiceMetrics metrics) {
    int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
    if (status == 413) {
      metrics.rejected(DropReason.TOO_LARGE);
      Responses.error(ctx, 413, "request body exceeds the limit (raise --max-body-bytes)");
      return;
    }
    if (status >= 500) {
      logger.log(Level.SEVERE, "request " + ctx.request().path() + " failed", ctx.failure());
    }
    Responses.error(ctx, status, ctx.failure() != null && ctx.failure().getMessage() != null
        ? ctx.failure().getMessage() : "request failed with status " + status);
  }

  private static String routeLabel(RoutingContext ctx) {
    Route r = ctx.currentRoute();
    String path = r == null ? null : r.getPath();
    return path == null ? "other" : path;
  }

  private static byte[] resource(String name) {
    try (InputStream in = HttpService.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
