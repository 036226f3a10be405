package dev.checkpointdoctor.api.it;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Debian's chromedriver on a free loopback port driving headless Chromium, spoken to over the W3C
 * WebDriver HTTP protocol with {@code java.net.http} (no Selenium: the handful of commands a page
 * test needs are plain JSON).
 */
public final class HeadlessChromium implements AutoCloseable {
  public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final HttpClient client = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  private final Process driver;
  private final Path profile;
  private final Path log;
  private final String base;
  private final String session;

  private HeadlessChromium(Process driver, Path profile, Path log, String base, String session) {
    this.driver = driver;
    this.profile = profile;
    this.log = log;
    this.base = base;
    this.session = session;
  }

  public static boolean installed() {
    return Files.isExecutable(CHROMEDRIVER) && Files.isExecutable(CHROMIUM);
  }

  public static HeadlessChromium start(Path workDir, int width, int height) throws IOException {
    Files.createDirectories(workDir);
    Path profile = Files.createTempDirectory(workDir, "chromium-profile-");
    Path log = workDir.resolve("chromedriver.log");
    int port = freePort();
    Process driver = new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port,
        "--allowed-ips=127.0.0.1").redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    String base = "http://127.0.0.1:" + port;
    try {
      Await.until("chromedriver ready on port " + port, Duration.ofSeconds(30), () -> {
        if (!driver.isAlive()) {
          throw new AssertionError("chromedriver exited: " + read(log));
        }
        JsonObject status = call("GET", base + "/status", null);
        return status.getJsonObject("value").getBoolean("ready", false);
      });
      JsonArray args = new JsonArray(List.of("--headless", "--no-sandbox", "--disable-gpu",
          "--disable-quic", "--no-first-run", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
          "--hide-scrollbars", "--force-device-scale-factor=1",
          "--window-size=" + width + "," + height, "--user-data-dir=" + profile));
      JsonObject caps = new JsonObject().put("capabilities", new JsonObject().put("alwaysMatch",
          new JsonObject().put("browserName", "chrome").put("goog:chromeOptions",
              new JsonObject().put("binary", CHROMIUM.toString()).put("args", args))));
      JsonObject created = call("POST", base + "/session", caps);
      String session = created.getJsonObject("value").getString("sessionId");
      return new HeadlessChromium(driver, profile, log, base, session);
    } catch (RuntimeException | Error e) {
      driver.destroyForcibly();
      throw e;
    }
  }

  public void open(String url) {
    command("POST", "/url", new JsonObject().put("url", url));
  }

  /** Runs a script in the page (W3C "execute sync") and returns its JSON-able result. */
  public Object script(String body, Object... args) {
    JsonObject r = command("POST", "/execute/sync", new JsonObject().put("script", body)
        .put("args", new JsonArray(List.of(args))));
    return plain(r.getValue("value"));
  }

  /** JSON values as plain Java: Map, List, String, Boolean, Long or Double. */
  private static Object plain(Object v) {
    if (v instanceof JsonObject o) {
      java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
      o.forEach(e -> m.put(e.getKey(), plain(e.getValue())));
      return m;
    }
    if (v instanceof JsonArray a) {
      List<Object> l = new ArrayList<>();
      a.forEach(e -> l.add(plain(e)));
      return l;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof java.math.BigInteger) {
      return ((Number) v).longValue();
    }
    return v;
  }

  /** Runs a script in the browser before any page script of every later page load. */
  public void beforeEveryPage(String source) {
    command("POST", "/goog/cdp/execute", new JsonObject()
        .put("cmd", "Page.addScriptToEvaluateOnNewDocument")
        .put("params", new JsonObject().put("source", source)));
  }

  public void resize(int width, int height) {
    command("POST", "/window/rect", new JsonObject().put("width", width).put("height", height));
  }

  /** A PNG of the viewport, written to {@code file}. */
  public Path screenshot(Path file) throws IOException {
    String png = command("GET", "/screenshot", null).getString("value");
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(png));
    return file;
  }

  @Override
  public void close() throws IOException {
    try {
      call("DELETE", base + "/session/" + session, null);
    } catch (RuntimeException e) {
      // The driver is stopped below either way.
    }
    driver.destroy();
    try {
      if (!driver.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        driver.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      driver.destroyForcibly();
    }
    try (Stream<Path> files = Files.walk(profile)) {
      List<Path> all = new ArrayList<>(files.sorted(Comparator.reverseOrder()).toList());
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // A profile left in target/ does no harm.
    }
  }

  public String driverLog() {
    return read(log);
  }

  private JsonObject command(String method, String path, JsonObject body) {
    return call(method, base + "/session/" + session + path, body);
  }

  private static JsonObject call(String method, String url, JsonObject body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json");
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body.encode()));
    try {
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      JsonObject json = r.body().isEmpty() ? new JsonObject() : new JsonObject(r.body());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(method + " " + url + " -> " + r.statusCode() + ": "
            + json.encode());
      }
      return json;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
