package dev.checkpointdoctor.api.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The web pages: a fixed list of classpath files under {@code /ui/}, read once at start-up and
 * served from memory. A fixed list rather than a static-file handler means no path from a request
 * ever reaches the file system or the class loader, and nothing is cached to disk.
 */
final class UiRoutes {
  static final String PREFIX = "/ui/";
  static final List<String> FILES = List.of("index.html", "job.html", "anomalies.html",
      "app.css", "common.js", "chart.js", "jobs.js", "job.js", "anomalies.js", "favicon.svg",
      "flinkrest.js");
  private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
      "css", "text/css; charset=utf-8", "js", "text/javascript; charset=utf-8",
      "svg", "image/svg+xml");

  private final Map<String, Buffer> files = new LinkedHashMap<>();

  UiRoutes() {
    for (String f : FILES) {
      files.put(f, Buffer.buffer(read(f)));
    }
  }

  void mount(Router router) {
    router.get("/").handler(ctx -> ctx.response().setStatusCode(302)
        .putHeader("Location", PREFIX).end());
    router.get(PREFIX).handler(ctx -> serve(ctx, "index.html"));
    router.get(PREFIX + ":file").handler(ctx -> serve(ctx, ctx.pathParam("file")));
  }

  private void serve(RoutingContext ctx, String name) {
    Buffer body = files.get(name);
    if (body == null) {
      ctx.next();
      return;
    }
    String ext = name.substring(name.lastIndexOf('.') + 1);
    // Pages and scripts change with the jar; revalidating is cheap on loopback and LAN.
    ctx.response().putHeader("Content-Type", TYPES.get(ext))
        .putHeader("Cache-Control", "no-cache")
        .putHeader("X-Content-Type-Options", "nosniff")
        .end(body);
  }

  private static byte[] read(String name) {
    try (InputStream in = UiRoutes.class.getResourceAsStream("/ui/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing UI resource ui/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
