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
  static final Path PROMETHEUS = Path.of("..", "deploy", "prometheus", "prometheus.yml");
  static final Path ALERTMANAGER = Path.of("..", "deploy", "alertmanager", "alertmanager.yml");
  static final Path DEPLOY = Path.of("..", "deploy");

  @Test
  void keepRegexMatchesTheCatalog() throws Exception {
    for (Path file : List.of(REMOTE_WRITE, PROMETHEUS)) {
      Matcher m = Pattern.compile("regex: '([^']+)'").matcher(Files.readString(file));
      assertThat(m.find()).as("a keep regex in " + file).isTrue();
      assertThat(m.group(1)).as(file.toString()).isEqualTo(SignalCatalog.defaults().keepRegex());
    }
  }

  @Test
  void promtoolAcceptsTheCompletePrometheusConfigAndTheReadmeExample(@TempDir Path dir)
      throws Exception {
    check(PROMETHEUS);
    // README's example: the first yaml block with scrape_configs and remote_write, as is.
    Matcher m = Pattern.compile("(?s)```yaml\n(global:.*?scrape_configs:.*?remote_write:.*?)```")
        .matcher(Files.readString(Path.of("..", "README.md")));
    assertThat(m.find()).as("a complete prometheus.yml in README.md").isTrue();
    assertThat(m.group(1)).contains("job_name: flink", "job_name: node",
        "url: http://checkpoint-doctor:9877/api/v1/write");
    Path readmeExample = dir.resolve("prometheus.yml");
    Files.writeString(readmeExample, m.group(1));
    check(readmeExample);
  }

  @Test
  void deployReadmeListsEveryFile() throws Exception {
    String readme = Files.readString(DEPLOY.resolve("README.md"));
    try (var files = Files.walk(DEPLOY)) {
      List<String> all = files.filter(Files::isRegularFile).map(f -> DEPLOY.relativize(f)
          .toString()).filter(f -> !f.equals("README.md")).sorted().toList();
      assertThat(all).hasSizeGreaterThanOrEqualTo(6);
      for (String f : all) {
        assertThat(readme).as("deploy/README.md lists %s", f).contains("`" + f + "`");
      }
    }
  }

  private static void check(Path config) throws Exception {
    Path promtool = Path.of("/usr/bin/promtool");
    if (!Files.isExecutable(promtool)) {
      if (System.getenv("CI") != null) {
        throw new AssertionError("promtool missing; .ci/run must install prometheus");
      }
      assumeTrue(false, "promtool not installed");
    }
    Process p = new ProcessBuilder(List.of(promtool.toString(), "check", "config",
        config.toString())).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("SUCCESS");
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
