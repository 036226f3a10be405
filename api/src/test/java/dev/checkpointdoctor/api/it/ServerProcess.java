package dev.checkpointdoctor.api.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** A real server binary on loopback for a test: started, awaited until ready, stopped by pid. */
final class ServerProcess implements AutoCloseable {
  private final Process process;
  private final Path log;

  private ServerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** The binary on PATH, or null when its package is not installed. */
  static String binary(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  /**
   * Fails when CI is set and the binary is missing (CI must install it), skips otherwise.
   */
  static String requireBinary(String name, String debianPackage) {
    String b = binary(name);
    if (b == null) {
      if (System.getenv("CI") != null) {
        throw new AssertionError(name + " missing; .ci/run must install " + debianPackage);
      }
      org.junit.jupiter.api.Assumptions.assumeTrue(false, name + " not installed");
    }
    return b;
  }

  static ServerProcess start(String what, List<String> command, Path log, BooleanSupplier ready)
      throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    ServerProcess server = new ServerProcess(p, log);
    try {
      Await.until(what + " ready", Duration.ofSeconds(30), () -> {
        if (!p.isAlive()) {
          throw new AssertionError(what + " exited with " + p.exitValue());
        }
        return ready.getAsBoolean();
      });
    } catch (AssertionError e) {
      server.close();
      throw new AssertionError(e.getMessage() + "\n" + server.logTail(), e);
    }
    return server;
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
    }
  }
}
