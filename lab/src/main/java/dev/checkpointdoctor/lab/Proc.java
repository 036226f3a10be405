package dev.checkpointdoctor.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

  /** A system binary: on the PATH, else in the sbin/bin directories a non-login shell may lack. */
  static String sbin(String name) {
    String b = binary(name);
    if (b == null) {
      for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
        if (Files.isExecutable(Path.of(dir, name))) {
          return Path.of(dir, name).toString();
        }
      }
    }
    return b;
  }

  /** Runs a system command to its end (60 s at most); returns its output, throws on failure. */
  static String run(String... cmd) throws IOException, InterruptedException {
    List<String> c = new ArrayList<>(List.of(cmd));
    c.set(0, sbin(cmd[0]) == null ? cmd[0] : sbin(cmd[0]));
    Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", cmd) + ": timed out");
    }
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + out.strip());
    }
    return out;
  }

  /**
   * Unmounts, retrying for 10 s while files are still open (the MiniCluster closes RocksDB
   * asynchronously after the job is cancelled), then lazily so that the device can go.
   */
  static void unmount(Path mount) {
    try {
      for (int i = 0; ; i++) {
        try {
          run("umount", mount.toString());
          return;
        } catch (IOException e) {
          if (i >= 20) {
            throw e;
          }
          Thread.sleep(500);
        }
      }
    } catch (IOException | InterruptedException e) {
      System.err.println("umount " + mount + ": " + e.getMessage() + "; lazy unmount");
      try {
        run("umount", "-l", mount.toString());
      } catch (IOException | InterruptedException e2) {
        System.err.println("umount -l " + mount + ": " + e2.getMessage());
      }
    }
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
