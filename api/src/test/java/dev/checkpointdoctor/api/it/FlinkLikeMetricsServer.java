package dev.checkpointdoctor.api.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Serves a real Flink PrometheusReporter scrape (a fixture) on {@code /metrics}, with the values
 * that matter moving on every scrape as a running job's would: a checkpoint completes every
 * second scrape, counters grow, durations wobble.
 */
public final class FlinkLikeMetricsServer implements AutoCloseable {
  private static final Pattern LINE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)$");

  private final List<String> lines;
  private final HttpServer server;
  private final AtomicInteger scrapes = new AtomicInteger();

  public FlinkLikeMetricsServer(Path fixture) throws IOException {
    this.lines = Files.readAllLines(fixture, StandardCharsets.UTF_8);
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/metrics", exchange -> {
      byte[] body = render(scrapes.getAndIncrement()).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public int scrapes() {
    return scrapes.get();
  }

  String render(int n) {
    StringBuilder sb = new StringBuilder(400_000);
    for (String line : lines) {
      Matcher m = LINE.matcher(line);
      if (line.startsWith("#") || !m.matches()) {
        sb.append(line).append('\n');
        continue;
      }
      String name = m.group(1);
      String labels = m.group(2) == null ? "" : m.group(2);
      double value = Double.parseDouble(m.group(3));
      sb.append(name).append(labels).append(' ').append(evolve(name, value, n)).append('\n');
    }
    return sb.toString();
  }

  private static double evolve(String name, double value, int n) {
    int completed = n / 2;
    return switch (name) {
      case "flink_jobmanager_job_lastCompletedCheckpointId" -> value + completed;
      case "flink_jobmanager_job_numberOfCompletedCheckpoints" -> value + completed;
      case "flink_jobmanager_job_totalNumberOfCheckpoints" -> value + completed;
      case "flink_jobmanager_job_lastCheckpointDuration" -> 400 + (completed % 5) * 20;
      case "flink_jobmanager_job_lastCheckpointSize" -> 400_000 + (completed % 3) * 1000;
      case "flink_jobmanager_job_lastCheckpointFullSize" -> 4_000_000 + completed * 1000;
      case "flink_taskmanager_job_task_numRecordsIn" -> value + n * 5000.0;
      case "flink_taskmanager_Status_JVM_GarbageCollector_G1_Young_Generation_Time" ->
          value + n * 3.0;
      case "flink_taskmanager_job_task_operator_rocksdb_stall_micros" -> value;
      default -> value;
    };
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
