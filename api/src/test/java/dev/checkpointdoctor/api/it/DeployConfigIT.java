package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator snippets in deploy/ are valid and keep exactly what the catalog uses. */
class DeployConfigIT {
  static final Path REMOTE_WRITE = Path.of("..", "deploy", "prometheus", "remote-write.yml");
  static final Path ALERTMANAGER = Path.of("..", "deploy", "alertmanager", "alertmanager.yml");

  @Test
  void keepRegexMatchesTheCatalog() throws Exception {
    Matcher m = Pattern.compile("regex: '([^']+)'").matcher(Files.readString(REMOTE_WRITE));
    assertThat(m.find()).as("a keep regex in " + REMOTE_WRITE).isTrue();
    assertThat(m.group(1)).isEqualTo(SignalCatalog.defaults().keepRegex());
  }

  @Test
  void promtoolAcceptsTheRemoteWriteSnippet(@TempDir Path dir) throws Exception {
    Path promtool = Path.of("/usr/bin/promtool");
    if (!Files.isExecutable(promtool)) {
      if (System.getenv("CI") != null) {
        throw new AssertionError("promtool missing; .ci/run must install prometheus");
      }
      assumeTrue(false, "promtool not installed");
    }
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  scrape_interval: 15s\n"
        + Files.readString(REMOTE_WRITE));
    Process p = new ProcessBuilder(List.of(promtool.toString(), "check", "config",
        config.toString())).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("SUCCESS");
  }

  @Test
  void amtoolAcceptsTheAlertmanagerExample() throws Exception {
    String amtool = ServerProcess.requireBinary("amtool", "prometheus-alertmanager");
    Process p = new ProcessBuilder(List.of(amtool, "check-config", ALERTMANAGER.toString()))
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("SUCCESS").contains("1 inhibit rules");
  }

  @Test
  void alertmanagerExampleRoutesAndInhibitsOnTheAlertLabels() throws Exception {
    String yaml = Files.readString(ALERTMANAGER);
    assertThat(yaml).contains("alertname = \"FlinkCheckpointAnomaly\"")
        .contains("severity = \"critical\"").contains("severity = \"warning\"")
        .contains("equal: ['job_name']").contains("'cause'");
  }
}
