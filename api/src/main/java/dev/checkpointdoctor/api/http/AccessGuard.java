package dev.checkpointdoctor.api.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * Lets a request through when it carries the configured credentials, else answers 401 with a
 * {@code WWW-Authenticate} challenge. Paths in {@code open} are never guarded (liveness and
 * readiness probes carry no credentials; the write path has its own guard).
 */
final class AccessGuard implements Handler<RoutingContext> {
  private final Credentials credentials;
  private final Set<String> open;
  private final Runnable onRefused;

  AccessGuard(Credentials credentials, Set<String> open, Runnable onRefused) {
    this.credentials = credentials;
    this.open = open;
    this.onRefused = onRefused;
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (open.contains(ctx.normalizedPath())
        || credentials.accepts(ctx.request().getHeader("Authorization"))) {
      ctx.next();
      return;
    }
    onRefused.run();
    ctx.response().putHeader("WWW-Authenticate", credentials.challenge());
    Responses.error(ctx, 401, ctx.request().getHeader("Authorization") == null
        ? "credentials required" : "credentials not accepted");
  }
}
