package dev.checkpointdoctor.api.http;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** Writes JSON bodies and {@code {"error": "..."}} errors the same way everywhere. */
final class Responses {
  private Responses() {}

  static void json(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status)
        .putHeader("Content-Type", "application/json; charset=utf-8")
        .end(body.encode());
  }

  static void error(RoutingContext ctx, int status, String message) {
    if (ctx.response().ended()) {
      return;
    }
    json(ctx, status, new JsonObject().put("error", message));
  }
}
