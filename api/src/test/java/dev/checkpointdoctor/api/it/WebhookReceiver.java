package dev.checkpointdoctor.api.it;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** Alertmanager's webhook receiver inside the test: keeps every notification, per path. */
public final class WebhookReceiver implements AutoCloseable {
  public record Notification(String path, JsonObject body, String raw) {}

  private final HttpServer server;
  private final List<Notification> received = new CopyOnWriteArrayList<>();

  public WebhookReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      String raw;
      try (InputStream in = exchange.getRequestBody()) {
        raw = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      JsonObject body;
      try {
        body = new JsonObject(raw);
      } catch (RuntimeException e) {
        body = new JsonObject().put("unparsable", e.toString());
      }
      received.add(new Notification(exchange.getRequestURI().getPath(), body, raw));
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
  }

  public String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public List<Notification> received() {
    return List.copyOf(received);
  }

  /** The first notification on {@code path} matching {@code p}, or null. */
  public JsonObject first(String path, Predicate<JsonObject> p) {
    return received.stream().filter(n -> n.path().equals(path)).map(Notification::body)
        .filter(p).findFirst().orElse(null);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
