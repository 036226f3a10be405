package dev.checkpointdoctor.api.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A server under test started as a child process on loopback, with its /proc figures. */
final class ServerProcess implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();

  final String name;
  final int port;
  final Process process;
  final double startupSeconds;

  private ServerProcess(String name, int port, Process process, double startupSeconds) {
    this.name = name;
    this.port = port;
    this.process = process;
    this.startupSeconds = startupSeconds;
  }

  /** Starts {@code command} and polls {@code readyPath} until it answers 2xx (at most 60 s). */
  static ServerProcess start(String name, List<String> command, int port, String readyPath,
      Path log) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    URI ready = URI.create("http://127.0.0.1:" + port + readyPath);
    while (true) {
      if (!p.isAlive()) {
        throw new IOException(name + " exited with " + p.exitValue() + "; see " + log);
      }
      try {
        int code = HTTP.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode();
        if (code / 100 == 2) {
          break;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      if (System.nanoTime() - t0 > 60e9) {
        p.destroyForcibly();
        throw new IOException(name + " not ready after 60 s; see " + log);
      }
      Thread.sleep(10); // polling interval for readiness; the figure is rounded to it
    }
    return new ServerProcess(name, port, p, (System.nanoTime() - t0) / 1e9);
  }

  /** Peak resident set size (VmHWM) in MiB. */
  double peakRssMib() throws IOException {
    return procStatusKib("VmHWM") / 1024.0;
  }

  private long procStatusKib(String key) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()),
        "status"))) {
      if (line.startsWith(key + ":")) {
        return Long.parseLong(line.substring(key.length() + 1).replace("kB", "").trim());
      }
    }
    throw new IOException(key + " not in /proc/" + process.pid() + "/status");
  }

  /** User plus system CPU seconds used so far (all threads). */
  double cpuSeconds() throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // USER_HZ is 100 on Linux
  }

  /** Sum of the samples of {@code metric} (any labels matching {@code labelFilter}) in /metrics. */
  double metric(String metric, String labelFilter) throws IOException, InterruptedException {
    String body = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
        + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    Pattern p = Pattern.compile("^" + Pattern.quote(metric) + "(\\{[^}]*\\})? (\\S+)",
        Pattern.MULTILINE);
    Matcher m = p.matcher(body);
    double sum = 0;
    while (m.find()) {
      if (labelFilter == null || (m.group(1) != null && m.group(1).contains(labelFilter))) {
        sum += Double.parseDouble(m.group(2));
      }
    }
    return sum;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
