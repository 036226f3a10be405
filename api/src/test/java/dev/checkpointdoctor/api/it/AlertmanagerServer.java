package dev.checkpointdoctor.api.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A real Alertmanager 0.25 (Debian's prometheus-alertmanager) on loopback, gossip off. Restart
 * with the same work directory and port to keep its storage (silences, notification log).
 */
public final class AlertmanagerServer implements AutoCloseable {
  static final String BINARY = "prometheus-alertmanager";
  private final ServerProcess process;
  private final int port;

  private AlertmanagerServer(ServerProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  static String requireBinary() {
    return ServerProcess.requireBinary(BINARY, "prometheus-alertmanager");
  }

  /** A config that sends every group to {@code webhookUrl} at once, resolutions included. */
  static String webhookConfig(String webhookUrl) {
    return "route:\n"
        + "  receiver: webhook\n"
        + "  group_by: ['alertname', 'job_name', 'cause']\n"
        + "  group_wait: 1s\n"
        + "  group_interval: 1s\n"
        + "  repeat_interval: 1h\n"
        + "receivers:\n"
        + "  - name: webhook\n"
        + "    webhook_configs:\n"
        + "      - url: " + webhookUrl + "\n"
        + "        send_resolved: true\n";
  }

  static AlertmanagerServer start(Path workDir, String configYaml, int port) throws IOException {
    Files.createDirectories(workDir);
    Path config = workDir.resolve("alertmanager.yml");
    Files.writeString(config, configYaml);
    ServerProcess p = ServerProcess.start("Alertmanager on " + port, List.of(requireBinary(),
        "--config.file=" + config, "--storage.path=" + workDir.resolve("data"),
        "--web.listen-address=127.0.0.1:" + port, "--cluster.listen-address="),
        workDir.resolve("alertmanager.log"),
        () -> Http.get("http://127.0.0.1:" + port + "/-/ready").statusCode() == 200);
    return new AlertmanagerServer(p, port);
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public String logTail() {
    return process.logTail();
  }

  @Override
  public void close() {
    process.close();
  }
}
