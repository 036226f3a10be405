package dev.checkpointdoctor.api.app;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Several HTTP servers on one address, each on its own event loop. A server made outside a
 * verticle lives on a single event loop, so one core decoded every remote-write body however many
 * connections Prometheus opened; Vert.x hands the connections of servers sharing an address out
 * in turn. A connection stays on one event loop, so the requests of one remote-write shard (and
 * with them the samples of each series) still reach the detector queue in order.
 */
final class Listeners {
  private final Vertx vertx;
  private final String deployment;
  private final List<HttpServer> servers;

  private Listeners(Vertx vertx, String deployment, List<HttpServer> servers) {
    this.vertx = vertx;
    this.deployment = deployment;
    this.servers = List.copyOf(servers);
  }

  /** Event loops to serve on: one per available core. */
  static int defaultCount() {
    return Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  /** Listens {@code count} servers on the options' address (port 0: one free port for all). */
  static Listeners listen(Vertx vertx, HttpServerOptions options,
      Handler<HttpServerRequest> handler, int count) throws Exception {
    // Vert.x shares one random port between servers that ask for the same negative port
    HttpServerOptions shared = options.getPort() == 0 && count > 1
        ? new HttpServerOptions(options).setPort(-1) : options;
    List<HttpServer> servers = new CopyOnWriteArrayList<>();
    String id = vertx.deployVerticle(() -> new VerticleBase() {
          @Override
          public Future<?> start() {
            return vertx.createHttpServer(shared).requestHandler(handler).listen()
                .onSuccess(servers::add);
          }
        }, new DeploymentOptions().setInstances(count))
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    return new Listeners(vertx, id, servers);
  }

  int port() {
    return servers.get(0).actualPort();
  }

  int count() {
    return servers.size();
  }

  /** Stops listening (undeploying closes the servers). */
  void close() throws Exception {
    vertx.undeploy(deployment).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }
}
