package dev.checkpointdoctor.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** An external server process (Prometheus, Alertmanager, node_exporter, the service) with its log. */
final class Proc implements AutoCloseable {
  final String name;
  final Process process;
  final Path log;

  private Proc(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static Proc start(String name, List<String> command, Path log, Duration readyWithin,
      BooleanSupplier ready) throws IOException {
    Files.createDirectories(log.getParent());
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    Proc proc = new Proc(name, p, log);
    try {
      Wait.until(name + " ready", readyWithin, () -> {
        if (!p.isAlive()) {
          throw new IllegalStateException(name + " exited with " + p.exitValue());
        }
        return ready.getAsBoolean();
      });
    } catch (RuntimeException e) {
      proc.close();
      throw new IllegalStateException(e.getMessage() + "\n--- " + log + " ---\n" + proc.logTail(), e);
    }
    return proc;
  }

  static String binary(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
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
      process.destroyForcibly();
    }
  }
}
