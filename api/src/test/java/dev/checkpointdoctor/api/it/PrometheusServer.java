package dev.checkpointdoctor.api.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** A real Prometheus (the Debian package's binary) started on loopback for a test. */
public final class PrometheusServer implements AutoCloseable {
  private final ServerProcess process;
  private final int port;

  private PrometheusServer(ServerProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The binary; fails on CI when Prometheus is not installed, skips the test elsewhere. */
  public static String requireBinary() {
    return ServerProcess.requireBinary("prometheus", "prometheus");
  }

  public static PrometheusServer start(Path workDir, String configYaml) throws IOException {
    Files.createDirectories(workDir);
    Path config = workDir.resolve("prometheus.yml");
    Files.writeString(config, configYaml);
    int port = freePort();
    ServerProcess p = ServerProcess.start("Prometheus on " + port, List.of(requireBinary(),
        "--config.file=" + config, "--storage.tsdb.path=" + workDir.resolve("tsdb"),
        "--web.listen-address=127.0.0.1:" + port, "--storage.remote.flush-deadline=1s"),
        workDir.resolve("prometheus.log"),
        () -> Http.get("http://127.0.0.1:" + port + "/-/ready").statusCode() == 200);
    return new PrometheusServer(p, port);
  }

  /**
   * A Prometheus serving history from {@code tsdb} (blocks made by promtool), keeping {@code
   * retention} of it; no scrape jobs.
   */
  public static PrometheusServer startWithData(Path workDir, Path tsdb, String retention)
      throws IOException {
    Files.createDirectories(workDir);
    Path config = workDir.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  scrape_interval: 15s\nscrape_configs: []\n");
    int port = freePort();
    ServerProcess p = ServerProcess.start("Prometheus on " + port, List.of(requireBinary(),
        "--config.file=" + config, "--storage.tsdb.path=" + tsdb,
        "--storage.tsdb.retention.time=" + retention,
        "--web.listen-address=127.0.0.1:" + port, "--storage.remote.flush-deadline=1s"),
        workDir.resolve("prometheus.log"),
        () -> Http.get("http://127.0.0.1:" + port + "/-/ready").statusCode() == 200);
    return new PrometheusServer(p, port);
  }

  public int port() {
    return port;
  }

  public String logTail() {
    return process.logTail();
  }

  /**
   * A port free now, for a server started later. Picked below the kernel's ephemeral range: a
   * port from that range (what {@code new ServerSocket(0)} hands out) may be taken, before the
   * server binds it, by any outgoing connection or port-0 listener of the same test (a fleet of
   * services, Prometheus and Alertmanager started one after the other), which CI saw as
   * "Address already in use".
   */
  public static int freePort() throws IOException {
    int ephemeralLow = ephemeralLow();
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    if (ephemeralLow > 21_000) {
      for (int attempt = 0; attempt < 200; attempt++) {
        int port = rnd.nextInt(20_000, ephemeralLow);
        try (ServerSocket s = new ServerSocket()) {
          s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
          return port;
        } catch (IOException taken) {
          // try another
        }
      }
    }
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** The lowest port of the kernel's ephemeral range (Linux), or 32768 when it cannot be read. */
  private static int ephemeralLow() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }

  @Override
  public void close() {
    process.close();
  }
}
