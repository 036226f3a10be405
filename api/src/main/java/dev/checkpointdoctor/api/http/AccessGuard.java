package dev.checkpointdoctor.api.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Predicate;

/**
 * Lets a request through when it carries the configured credentials, else answers 401 with a
 * {@code WWW-Authenticate} challenge and the accepted schemes. Paths {@code open} accepts are
 * never guarded (probes carry no credentials; the web pages and docs hold no data; the write path
 * has its own guard).
 *
 * <p>The web UI marks its requests with {@code X-Requested-With: XMLHttpRequest} and asks for
 * credentials in a form of its own; a {@code Basic} challenge would make the browser put up its
 * own login dialog on top, so those requests get none (as Spring Security does for such calls).
 */
final class AccessGuard implements io.vertx.core.Handler<RoutingContext> {
  static final String UI_MARKER = "X-Requested-With";

  private final Credentials credentials;
  private final Predicate<String> open;
  private final Runnable onRefused;

  AccessGuard(Credentials credentials, Predicate<String> open, Runnable onRefused) {
    this.credentials = credentials;
    this.open = open;
    this.onRefused = onRefused;
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (open.test(ctx.normalizedPath())
        || credentials.accepts(ctx.request().getHeader("Authorization"))) {
      ctx.next();
      return;
    }
    onRefused.run();
    boolean fromUi = "XMLHttpRequest".equalsIgnoreCase(ctx.request().getHeader(UI_MARKER));
    String challenge = fromUi ? credentials.challengeWithoutBrowserDialog()
        : credentials.challenge();
    if (challenge != null) {
      ctx.response().putHeader("WWW-Authenticate", challenge);
    }
    JsonArray schemes = new JsonArray();
    if (credentials.bearerToken() != null) {
      schemes.add("bearer");
    }
    if (credentials.basicUser() != null) {
      schemes.add("basic");
    }
    Responses.json(ctx, 401, new JsonObject()
        .put("error", ctx.request().getHeader("Authorization") == null
            ? "credentials required" : "credentials not accepted")
        .put("schemes", schemes));
  }
}
