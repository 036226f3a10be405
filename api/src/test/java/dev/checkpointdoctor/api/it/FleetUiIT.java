package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import dev.checkpointdoctor.api.shard.Hashmod;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Jobs and Anomalies pages of one shard in headless Chromium show the other shard's job too,
 * with a link to its page on the instance that holds it, and name the peer that is down; the
 * job's page works from either instance.
 */
class FleetUiIT {
  static final Path SHOTS = Path.of("target", "screenshots");
  static final long T0 = 1_796_000_000_000L;
  static final Duration WAIT = Duration.ofSeconds(30);

  static String jobOn(int shard, String prefix) {
    for (int i = 0; ; i++) {
      if (Hashmod.of(prefix + i, 2) == shard) {
        return prefix + i;
      }
    }
  }

  @Test
  void pagesOfOneShardListAndLinkTheOtherShardsJobs(@TempDir Path tmp) throws Exception {
    if (!HeadlessChromium.installed()) {
      if (System.getenv("CI") != null) {
        throw new AssertionError("chromium and chromedriver are not installed");
      }
      assumeTrue(false, "chromium/chromedriver not installed");
    }
    String sick = jobOn(0, "orders-enrichment-");
    String healthy = jobOn(1, "payments-dedup-");
    int p0 = PrometheusServer.freePort();
    int p1 = PrometheusServer.freePort();
    String u0 = "http://127.0.0.1:" + p0;
    String u1 = "http://127.0.0.1:" + p1;
    String down = "http://127.0.0.1:" + PrometheusServer.freePort();
    try (CheckpointDoctor s0 = TestService.startOnPort(tmp.resolve("s0"), "--port", "" + p0,
            "--shard", "0/2", "--peer", u1, "--peer", down, "--peer-timeout", "1s");
        CheckpointDoctor s1 = TestService.startOnPort(tmp.resolve("s1"), "--port", "" + p1,
            "--shard", "1/2", "--peer", u0, "--peer", down, "--peer-timeout", "1s")) {
      new CheckpointScenario(s0).checkpoints(sick, T0, 60, 1200, 40, 5200);
      new CheckpointScenario(s1).checkpoints(healthy, T0, 60, 800, Integer.MAX_VALUE, 0);
      JsonObject diagnosis = Await.until("the sick job diagnosed, asked through shard 1", WAIT,
          () -> new JsonObject(Http.get(u1 + "/api/v1/jobs/" + sick).body())
              .getJsonObject("diagnosis"));
      String cause = diagnosis.getString("cause");

      try (HeadlessChromium browser = HeadlessChromium.start(tmp.resolve("browser"), 1360, 700)) {
        browser.open(u1 + "/ui/");
        Await.until("both shards' jobs on shard 1's Jobs page, the sick one diagnosed", WAIT,
            () -> browser.script("""
                const sick = document.querySelector('tr.job-row[data-job="%s"] td.cause');
                return document.querySelectorAll('#jobs-table tr.job-row').length === 2
                    && sick && sick.dataset.cause !== '';
                """.formatted(sick)));
        @SuppressWarnings("unchecked")
        Map<String, Object> page = (Map<String, Object>) browser.script("""
            const cell = j => document.querySelector('tr.job-row[data-job="' + j + '"] td.instance');
            const note = document.getElementById('peers-note');
            return {sickLink: cell('%s').querySelector('a').href,
              sickText: cell('%s').textContent, healthyLink: cell('%s').querySelector('a').href,
              cause: document.querySelector('tr.job-row[data-job="%s"] td.cause').dataset.cause,
              column: getComputedStyle(cell('%s')).display,
              note: note.hidden ? null : note.textContent};
            """.formatted(sick, sick, healthy, sick, sick));
        assertThat(page.get("sickLink")).isEqualTo(u0 + "/ui/job.html?job=" + sick);
        assertThat((String) page.get("sickText")).contains("127.0.0.1:" + p0, "0/2");
        assertThat(page.get("healthyLink")).isEqualTo(u1 + "/ui/job.html?job=" + healthy);
        assertThat(page.get("cause")).isEqualTo(cause);
        assertThat(page.get("column")).isNotEqualTo("none");
        assertThat((String) page.get("note")).contains("1 of 2 other instances did not answer",
            down);
        browser.screenshot(SHOTS.resolve("jobs-page-fleet.png"));

        // The job's page, on the instance that holds it and through the other one.
        for (String base : List.of(u0, u1)) {
          browser.open(base + "/ui/job.html?job=" + sick);
          Await.until("the sick job's diagnosis card on " + base, WAIT, () -> browser.script(
              "const d = document.getElementById('diagnosis');"
                  + " return d && d.textContent.includes(arguments[0]);",
              cause.replace('_', ' ')));
        }

        browser.open(u1 + "/ui/anomalies.html");
        Await.until("the sick job's anomaly on shard 1's Anomalies page", WAIT, () ->
            browser.script("return document.querySelector('tr.anomaly-row[data-job=\"" + sick
                + "\"] td.instance a') !== null"));
        String href = (String) browser.script("return document.querySelector("
            + "'tr.anomaly-row[data-job=\"" + sick + "\"] td.instance a').href");
        assertThat(href).startsWith(u0 + "/ui/job.html?job=" + sick + "&at=");
        browser.screenshot(SHOTS.resolve("anomalies-page-fleet.png"));
      }
    }
  }
}
