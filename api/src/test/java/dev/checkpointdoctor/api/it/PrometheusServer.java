package dev.checkpointdoctor.api.it;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real Prometheus (the Debian package's binary) started on loopback for a test. */
public final class PrometheusServer implements AutoCloseable {
  private final Process process;
  private final int port;
  private final Path log;

  private PrometheusServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** The binary, or null when Prometheus is not installed. */
  public static String binary() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
      Path p = Path.of(dir, "prometheus");
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  public static PrometheusServer start(Path workDir, String configYaml) throws IOException {
    Files.createDirectories(workDir);
    Path config = workDir.resolve("prometheus.yml");
    Files.writeString(config, configYaml);
    int port = freePort();
    Path log = workDir.resolve("prometheus.log");
    Process p = new ProcessBuilder(List.of(binary(), "--config.file=" + config,
        "--storage.tsdb.path=" + workDir.resolve("tsdb"),
        "--web.listen-address=127.0.0.1:" + port, "--storage.remote.flush-deadline=1s"))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    PrometheusServer server = new PrometheusServer(p, port, log);
    try {
      Await.until("Prometheus ready on " + port, Duration.ofSeconds(30),
          () -> Http.get("http://127.0.0.1:" + port + "/-/ready").statusCode() == 200);
    } catch (AssertionError e) {
      server.close();
      throw new AssertionError(e.getMessage() + "\n" + server.logTail(), e);
    }
    return server;
  }

  public int port() {
    return port;
  }

  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
