package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runnable jar as an operator uses it: flags, start-up line, SIGTERM snapshot. */
class RunnableJarIT {
  static final Path JAR = Path.of("target", "checkpoint-doctor.jar");

  private static Process run(Path dir, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-jar", JAR.toAbsolutePath().toString()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).directory(dir.toFile())
        .redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile()).start();
  }

  @Test
  void helpPrintsEveryFlagTheToolsAndTheUiAndVersionTheBuild(@TempDir Path dir)
      throws Exception {
    Process p = run(dir, "--help");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    String out = Files.readString(dir.resolve("out.txt"));
    assertThat(out).contains("--port", "CPD_PORT", "--data-dir", "CPD_DATA_DIR", "--help",
        "--version", "http://HOST:9877/ui/");
    for (String tool : List.of("replay", "accuracy", "scenarios", "nab", "nab-score")) {
      assertThat(out).containsPattern("(?m)^  " + tool + " +\\S");
    }
    Process v = run(dir, "--version");
    assertThat(v.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(v.exitValue()).isZero();
    assertThat(Files.readString(dir.resolve("out.txt")).strip())
        .matches("checkpoint-doctor \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
  }

  @Test
  void anUnusableDataDirStopsTheStartWithTheReason(@TempDir Path dir) throws Exception {
    Process p = run(dir, "--data-dir", "/proc/checkpoint-doctor");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(1);
    assertThat(Files.readString(dir.resolve("err.txt"))).contains("checkpoint-doctor: cannot "
        + "start: --data-dir /proc/checkpoint-doctor is not usable: cannot create it: ");
  }

  @Test
  void unknownFlagFailsAtStartUpWithAClearMessage(@TempDir Path dir) throws Exception {
    Process p = run(dir, "--data-dri", "x");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(Files.readString(dir.resolve("err.txt")))
        .contains("unknown option --data-dri", "--help");
  }

  @Test
  void startsWithDefaultsLogsOneLineAndSnapshotsOnSigterm(@TempDir Path dir) throws Exception {
    Process p = run(dir, "--host", "127.0.0.1", "--port", "0");
    try {
      Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");
      String port = Await.until("start-up line", Duration.ofSeconds(30), () -> {
        try {
          Matcher m = listening.matcher(Files.readString(dir.resolve("err.txt")));
          return m.find() ? m.group(1) : null;
        } catch (IOException e) {
          return null;
        }
      });
      String log = Files.readString(dir.resolve("err.txt"));
      assertThat(log).contains("no snapshot, starting empty",
          "web UI http://127.0.0.1:" + port + "/ui/", "snapshots every 1m to ");
      assertThat(Http.get("http://127.0.0.1:" + port + "/healthz").statusCode()).isEqualTo(200);
      p.destroy(); // SIGTERM
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(dir.resolve("data").resolve("state.snapshot")).exists();
      // The shutdown says what it saved: logging keeps working through the JVM's shutdown.
      assertThat(Files.readString(dir.resolve("err.txt"))).containsPattern(
          "stopped; saved 0 baselines of 0 jobs, 0 open and 0 resolved anomalies \\(\\d+ bytes\\)"
              + " to .*state\\.snapshot");
    } finally {
      p.destroyForcibly();
    }
  }
}
