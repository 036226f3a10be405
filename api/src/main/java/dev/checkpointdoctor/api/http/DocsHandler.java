package dev.checkpointdoctor.api.http;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Serves the repository's {@code docs/} pages packaged in the jar, so an alert's runbook_url
 * works wherever the service runs: {@code PAGE.html} is the page rendered for a browser, {@code
 * PAGE.md} its Markdown source. Only plain relative paths: nothing else of the classpath is
 * reachable through it.
 */
final class DocsHandler implements Handler<RoutingContext> {
  static final String ROUTE = "/docs/*";
  private static final Pattern PAGE =
      Pattern.compile("[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\\.(md|html)");
  private static final byte[] MISSING = new byte[0];
  private final Map<String, byte[]> cache = new ConcurrentHashMap<>();
  private final DocsRenderer renderer = new DocsRenderer();

  @Override
  public void handle(RoutingContext ctx) {
    String page = ctx.pathParam("*");
    if (page == null || page.isEmpty() || page.endsWith("/")) {
      // /docs/causes/ lists the causes: the folder's README, as GitHub shows it
      page = (page == null ? "" : page) + "README.html";
    }
    if (!PAGE.matcher(page).matches()) {
      Responses.error(ctx, 404, "no docs page " + ctx.request().path());
      return;
    }
    byte[] body = cache.computeIfAbsent(page, this::load);
    if (body == MISSING) {
      Responses.error(ctx, 404, "no docs page " + ctx.request().path());
      return;
    }
    ctx.response().putHeader("Content-Type", page.endsWith(".html")
            ? "text/html; charset=utf-8" : "text/markdown; charset=utf-8")
        .putHeader("X-Content-Type-Options", "nosniff")
        .end(Buffer.buffer(body));
  }

  private byte[] load(String page) {
    boolean html = page.endsWith(".html");
    String source = html ? page.substring(0, page.length() - ".html".length()) + ".md" : page;
    byte[] markdown = read(source);
    if (markdown == MISSING || !html) {
      return markdown;
    }
    return renderer.page(source, new String(markdown, StandardCharsets.UTF_8))
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] read(String page) {
    try (InputStream in = DocsHandler.class.getResourceAsStream("/docs/" + page)) {
      return in == null ? MISSING : in.readAllBytes();
    } catch (IOException e) {
      return MISSING;
    }
  }
}
