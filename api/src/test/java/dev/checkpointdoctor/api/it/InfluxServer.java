package dev.checkpointdoctor.api.it;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A real InfluxDB 1.6 (Debian's influxdb) on loopback with its data under the test's directory.
 * Restart with the same work directory and ports to keep its data.
 */
public final class InfluxServer implements AutoCloseable {
  private final ServerProcess process;
  private final int port;

  private InfluxServer(ServerProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  static String requireBinary() {
    return ServerProcess.requireBinary("influxd", "influxdb");
  }

  static InfluxServer start(Path workDir, int httpPort, int rpcPort) throws IOException {
    Path dir = workDir.toAbsolutePath();
    Files.createDirectories(dir);
    Path config = dir.resolve("influxdb.conf");
    Files.writeString(config, "reporting-disabled = true\n"
        + "bind-address = \"127.0.0.1:" + rpcPort + "\"\n"
        + "[meta]\n  dir = \"" + dir.resolve("meta") + "\"\n"
        + "[data]\n  dir = \"" + dir.resolve("data") + "\"\n"
        + "  wal-dir = \"" + dir.resolve("wal") + "\"\n  query-log-enabled = false\n"
        + "[monitor]\n  store-enabled = false\n"
        + "[http]\n  enabled = true\n  bind-address = \"127.0.0.1:" + httpPort + "\"\n"
        + "  log-enabled = false\n");
    ServerProcess p = ServerProcess.start("InfluxDB on " + httpPort,
        List.of(requireBinary(), "-config", config.toString()), dir.resolve("influxd.log"),
        () -> Http.get("http://127.0.0.1:" + httpPort + "/ping").statusCode() == 204);
    return new InfluxServer(p, httpPort);
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** Runs an InfluxQL query and returns the first result (with "series" or "error"). */
  public JsonObject query(String db, String influxql) {
    String body = Http.get(url() + "/query?db=" + enc(db) + "&epoch=ms&q=" + enc(influxql))
        .body();
    return new JsonObject(body).getJsonArray("results").getJsonObject(0);
  }

  /** The rows of every series of a query, or an empty array. */
  public JsonArray rows(String db, String influxql) {
    JsonObject r = query(db, influxql);
    if (r.containsKey("error")) {
      // A RuntimeException, so Await keeps polling (e.g. before the database exists).
      throw new IllegalStateException(influxql + ": " + r.getString("error"));
    }
    JsonArray out = new JsonArray();
    JsonArray series = r.getJsonArray("series", new JsonArray());
    for (int i = 0; i < series.size(); i++) {
      series.getJsonObject(i).getJsonArray("values").forEach(out::add);
    }
    return out;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  public String logTail() {
    return process.logTail();
  }

  @Override
  public void close() {
    process.close();
  }
}
