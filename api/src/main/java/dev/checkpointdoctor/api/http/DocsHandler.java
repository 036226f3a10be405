package dev.checkpointdoctor.api.http;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Serves the repository's {@code docs/} pages packaged in the jar, so an alert's runbook_url
 * works wherever the service runs. Only plain relative .md paths: nothing else of the classpath
 * is reachable through it.
 */
final class DocsHandler implements Handler<RoutingContext> {
  static final String ROUTE = "/docs/*";
  private static final Pattern PAGE = Pattern.compile("[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\\.md");
  private final Map<String, byte[]> cache = new ConcurrentHashMap<>();

  @Override
  public void handle(RoutingContext ctx) {
    String page = ctx.pathParam("*");
    if (page == null || !PAGE.matcher(page).matches()) {
      Responses.error(ctx, 404, "no docs page " + ctx.request().path());
      return;
    }
    byte[] body = cache.computeIfAbsent(page, DocsHandler::load);
    if (body.length == 0) {
      Responses.error(ctx, 404, "no docs page " + ctx.request().path());
      return;
    }
    ctx.response().putHeader("Content-Type", "text/markdown; charset=utf-8")
        .end(Buffer.buffer(body));
  }

  private static byte[] load(String page) {
    try (InputStream in = DocsHandler.class.getResourceAsStream("/docs/" + page)) {
      return in == null ? new byte[0] : in.readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }
}
