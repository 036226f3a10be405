package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.checkpointdoctor.api.app.CheckpointDoctor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web pages in real headless Chromium against the real service: a job whose checkpoints slow
 * down for good, a healthy one and a young one. Screenshots land in target/screenshots/.
 */
class WebUiIT {
  static final Path SHOTS = Path.of("target", "screenshots");
  static final long T0 = 1_796_000_000_000L;
  static final String SICK = "orders-enrichment";
  static final String HEALTHY = "payments-dedup";
  static final String YOUNG = "clickstream-sessions";
  static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void pagesShowJobsChartsWithBandAndAnomalyAndTheDiagnosis(@TempDir Path tmp) throws Exception {
    if (!HeadlessChromium.installed()) {
      if (System.getenv("CI") != null) {
        throw new AssertionError("chromium and chromedriver are not installed; .ci/run must "
            + "apt-get install chromium chromium-driver");
      }
      assumeTrue(false, "chromium/chromedriver not installed (apt-get install chromium "
          + "chromium-driver)");
    }
    try (CheckpointDoctor service = TestService.start(tmp.resolve("data"))) {
      CheckpointScenario scenario = new CheckpointScenario(service);
      scenario.checkpoints(SICK, T0, 150, 1200, 120, 5200);
      scenario.checkpoints(HEALTHY, T0, 150, 800, Integer.MAX_VALUE, 0);
      scenario.checkpoints(YOUNG, T0 + 147 * 60_000L, 3, 2000, Integer.MAX_VALUE, 0);

      JsonObject openAnomaly = Await.until("an open checkpoint_duration anomaly with history",
          WAIT, () -> {
            JsonObject s = json(service, "/api/v1/jobs/" + SICK + "/series?signal=checkpoint_duration");
            JsonArray periods = s.getJsonArray("anomalies");
            return s.getJsonArray("points").size() >= 150 && periods.size() == 1
                ? periods.getJsonObject(0) : null;
          });
      JsonObject diagnosis = json(service, "/api/v1/jobs/" + SICK).getJsonObject("diagnosis");
      assertThat(diagnosis).as("the sick job's diagnosis").isNotNull();
      List<String> sentences = diagnosis.getJsonArray("evidence").stream()
          .map(e -> ((JsonObject) e).getString("sentence")).toList();
      assertThat(sentences).isNotEmpty();

      try (HeadlessChromium browser = HeadlessChromium.start(tmp.resolve("browser"), 1360, 900)) {
        jobsPage(browser, service, diagnosis.getString("cause"));
        jobPage(browser, service, diagnosis, sentences, openAnomaly);
        anomaliesPage(browser, service, openAnomaly);
        forecast(browser, service);
      }
    }
  }

  private void jobsPage(HeadlessChromium browser, CheckpointDoctor service, String cause)
      throws Exception {
    browser.open(TestService.url(service, "/"));
    Await.until("three job rows with the sick job's cause", WAIT, () -> browser.script("""
        const rows = document.querySelectorAll('#jobs-table tr.job-row');
        const sick = document.querySelector('tr.job-row[data-job="%s"] td.cause');
        return rows.length === 3 && sick && sick.dataset.cause !== '';
        """.formatted(SICK)));
    assertThat(browser.script("return location.pathname")).isEqualTo("/ui/");
    @SuppressWarnings("unchecked")
    Map<String, Object> rows = (Map<String, Object>) browser.script("""
        const out = {};
        for (const r of document.querySelectorAll('#jobs-table tr.job-row')) {
          out[r.dataset.job] = {status: r.dataset.status,
            cause: r.querySelector('td.cause').dataset.cause,
            since: r.querySelector('td.since').textContent,
            open: r.querySelector('td.open-anomalies').textContent};
        }
        return out;
        """);
    assertThat(rows).containsOnlyKeys(SICK, HEALTHY, YOUNG);
    assertThat(rows.get(SICK)).asString().contains("status=anomalous", "cause=" + cause,
        "open=1").doesNotContain("since=–");
    assertThat(rows.get(HEALTHY)).asString().contains("status=ok", "cause=,", "open=0");
    assertThat(rows.get(YOUNG)).asString().contains("status=learning", "open=0");
    assertThat(browser.script(jobOrder())).isEqualTo(List.of(SICK, HEALTHY, YOUNG));
    browser.script("document.querySelector('th[data-sort=job]').click()");
    assertThat(browser.script(jobOrder())).isEqualTo(List.of(YOUNG, SICK, HEALTHY));
    browser.script("document.querySelector('th[data-sort=job]').click()");
    assertThat(browser.script(jobOrder())).isEqualTo(List.of(HEALTHY, SICK, YOUNG));
    browser.screenshot(SHOTS.resolve("jobs-page.png"));
  }

  private void jobPage(HeadlessChromium browser, CheckpointDoctor service, JsonObject diagnosis,
      List<String> sentences, JsonObject openAnomaly) throws Exception {
    browser.open(TestService.url(service, "/ui/job.html?job=" + SICK));
    Await.until("the job page loaded with its duration chart", WAIT, () -> browser.script(
        "return document.body.dataset.loaded === 'true' && document.querySelector("
            + "'svg.chart[data-signal=checkpoint_duration]') !== null"));
    @SuppressWarnings("unchecked")
    Map<String, Object> chart = (Map<String, Object>) browser.script("""
        const svg = document.querySelector('svg.chart[data-signal=checkpoint_duration]');
        const period = svg.querySelector('rect.anomaly-period');
        const band = svg.querySelector('polygon.band');
        const plot = svg.querySelector('polyline.observed');
        return {points: Number(svg.dataset.points), bands: svg.querySelectorAll('.band').length,
          bandWidth: band ? band.getBBox().width : 0, bandHeight: band ? band.getBBox().height : 0,
          observed: plot ? plot.points.numberOfItems : 0,
          periods: svg.querySelectorAll('rect.anomaly-period').length,
          periodState: period && period.dataset.state,
          periodStart: period && period.dataset.startedAt,
          periodX: period ? period.getBBox().x : -1, periodWidth: period ? period.getBBox().width : 0,
          outside: svg.querySelectorAll('.outside-point').length,
          fill: period ? getComputedStyle(period).fill : ''};
        """);
    assertThat(((Number) chart.get("points")).intValue()).isGreaterThanOrEqualTo(150);
    assertThat(((Number) chart.get("bands")).intValue()).isGreaterThanOrEqualTo(1);
    assertThat(((Number) chart.get("bandWidth")).doubleValue()).isGreaterThan(300);
    assertThat(((Number) chart.get("bandHeight")).doubleValue()).isGreaterThan(1);
    assertThat(((Number) chart.get("observed")).intValue()).isGreaterThanOrEqualTo(150);
    assertThat(chart.get("periods")).isEqualTo(1L);
    assertThat(chart.get("periodState")).isEqualTo("open");
    assertThat(chart.get("periodStart")).isEqualTo(openAnomaly.getString("startedAt"));
    // The shift came at checkpoint 120 of 150: the shading covers the last fifth of the plot.
    double x = ((Number) chart.get("periodX")).doubleValue();
    double w = ((Number) chart.get("periodWidth")).doubleValue();
    assertThat(x).isBetween(500.0, 650.0);
    assertThat(x + w).isGreaterThan(690.0);
    assertThat(((Number) chart.get("outside")).intValue()).isGreaterThanOrEqualTo(20);
    assertThat((String) chart.get("fill")).startsWith("rgba(192, 57, 43");

    @SuppressWarnings("unchecked")
    Map<String, Object> card = (Map<String, Object>) browser.script("""
        const c = document.getElementById('diagnosis');
        return {cause: c.dataset.cause, shown: c.querySelector('.cause').textContent,
          confidence: c.querySelector('.confidence').textContent,
          evidence: [...c.querySelectorAll('ul.evidence li')].map(li => li.textContent),
          remedy: (c.querySelector('.remedy') || {}).textContent || null,
          forecast: c.querySelector('.forecast') !== null};
        """);
    String cause = diagnosis.getString("cause");
    assertThat(card.get("cause")).isEqualTo(cause);
    assertThat(((String) card.get("shown")).toLowerCase()).contains(cause.replace('_', ' '));
    assertThat(card.get("confidence")).isEqualTo(
        Math.round(diagnosis.getDouble("confidence") * 100) + " % confidence");
    assertThat(card.get("evidence")).isEqualTo(sentences);
    assertThat(card.get("remedy")).isEqualTo(diagnosis.getString("remedy"));
    assertThat(card.get("forecast")).isEqualTo(diagnosis.getValue("hoursToTimeout") != null);

    Number height = (Number) browser.script("return document.documentElement.scrollHeight");
    browser.resize(1360, Math.min(4000, height.intValue() + 140));
    browser.screenshot(SHOTS.resolve("job-page.png"));
    browser.resize(1360, 900);
  }

  private void anomaliesPage(HeadlessChromium browser, CheckpointDoctor service,
      JsonObject openAnomaly) throws Exception {
    browser.open(TestService.url(service, "/ui/anomalies.html?state=open&job=" + SICK));
    Await.until("the filtered anomaly list", WAIT, () -> browser.script(
        "return document.body.dataset.loaded === 'true'"));
    @SuppressWarnings("unchecked")
    List<Object> rows = (List<Object>) browser.script("""
        return [...document.querySelectorAll('#anomalies-table tr.anomaly-row')].map(r =>
          [r.dataset.job, r.dataset.state, r.dataset.signal, r.querySelector('a.at-link').href]);
        """);
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0)).asString().contains(SICK, "open", "checkpoint_duration",
        "at=" + openAnomaly.getString("startedAt").replace(":", "%3A"));
    browser.script("const s = document.getElementById('filter-state'); s.value = 'resolved';"
        + "s.dispatchEvent(new Event('input'))");
    assertThat(browser.script("return document.querySelectorAll('tr.anomaly-row').length"))
        .isEqualTo(0L);
    assertThat(browser.script("return location.search")).isEqualTo("?job=" + SICK
        + "&state=resolved");
    browser.script("const s = document.getElementById('filter-state'); s.value = '';"
        + "s.dispatchEvent(new Event('input'))");
    browser.screenshot(SHOTS.resolve("anomalies-page.png"));

    browser.script("document.querySelector('a.at-link').click()");
    Await.until("the job page centred on the anomaly's start", WAIT, () -> browser.script(
        "return document.body.dataset.loaded === 'true' && document.querySelector("
            + "'svg.chart[data-signal=checkpoint_duration] line.at-marker') !== null"));
    assertThat((String) browser.script("return location.search")).contains("job=" + SICK,
        "at=");
    browser.screenshot(SHOTS.resolve("job-page-at-anomaly.png"));
  }

  /** The service's diagnoser may not forecast yet; the card must show one when it does. */
  private void forecast(HeadlessChromium browser, CheckpointDoctor service) throws Exception {
    browser.beforeEveryPage("""
        const realFetch = window.fetch;
        window.fetch = async (url, opts) => {
          const r = await realFetch(url, opts);
          if (!String(url).endsWith('/api/v1/jobs/%s')) return r;
          const body = await r.json();
          body.diagnosis.hoursToTimeout = 13.6;
          return new Response(JSON.stringify(body), {status: r.status,
            headers: {'Content-Type': 'application/json'}});
        };
        """.formatted(SICK));
    browser.open(TestService.url(service, "/ui/job.html?job=" + SICK));
    String text = Await.until("a forecast on the diagnosis card", WAIT, () -> (String) browser
        .script("const f = document.querySelector('#diagnosis .forecast');"
            + "return f ? f.textContent : null"));
    assertThat(text).isEqualTo("Checkpoints time out in ~14 h at the current trend.");
  }

  private static String jobOrder() {
    return "return [...document.querySelectorAll('#jobs-table tr.job-row')]"
        + ".map(r => r.dataset.job)";
  }

  private static JsonObject json(CheckpointDoctor service, String path) {
    return new JsonObject(Http.get(TestService.url(service, path)).body());
  }
}
