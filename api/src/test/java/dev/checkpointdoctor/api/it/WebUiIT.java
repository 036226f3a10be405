package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.checkpointdoctor.api.alerting.Alert;
import dev.checkpointdoctor.api.alerting.AlertMapper;
import dev.checkpointdoctor.api.app.CheckpointDoctor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web pages in real headless Chromium against the real service: a job whose checkpoints slow
 * down for good, a healthy one and a young one; then a service that wants credentials.
 * Screenshots land in target/screenshots/.
 */
class WebUiIT {
  static final Path SHOTS = Path.of("target", "screenshots");
  static final long T0 = 1_796_000_000_000L;
  static final String SICK = "orders-enrichment";
  static final String HEALTHY = "payments-dedup";
  static final String YOUNG = "clickstream-sessions";
  static final Duration WAIT = Duration.ofSeconds(30);
  static final int SUBTASKS = 6;

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
      scenario.startDelays(SICK, T0, 150, SUBTASKS);
      scenario.checkpoints(HEALTHY, T0, 150, 800, Integer.MAX_VALUE, 0);
      scenario.checkpoints(YOUNG, T0 + 147 * 60_000L, 3, 2000, Integer.MAX_VALUE, 0);
      // both node samples before the jobs' newest scrape, so event time has passed them
      scenario.lonelyNode(T0 + 148 * 60_000L);

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
        jobsPage(browser, service, diagnosis);
        jobPage(browser, service, diagnosis, sentences, openAnomaly);
        alertLinks(browser, service, diagnosis, openAnomaly);
        anomaliesPage(browser, service, openAnomaly);
        forecast(browser, service);
        try (CheckpointDoctor guarded = TestService.start(tmp.resolve("guarded"),
            "--api-token", "t0ken", "--api-basic-auth", "ops:pa:ss")) {
          new CheckpointScenario(guarded).checkpoints(HEALTHY, T0, 3, 800, Integer.MAX_VALUE, 0);
          login(browser, guarded);
        }
      }
    }
  }

  private void jobsPage(HeadlessChromium browser, CheckpointDoctor service, JsonObject diagnosis)
      throws Exception {
    String cause = diagnosis.getString("cause");
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

    // Learning shows its progress and when alerts become possible; the sick job its severity;
    // node series that joined no job are pointed out with the fix.
    JsonObject young = jobSummary(service, YOUNG);
    @SuppressWarnings("unchecked")
    Map<String, Object> extra = (Map<String, Object>) browser.script("""
        const p = document.querySelector('tr[data-job="%s"] .learning-progress');
        const sev = document.querySelector('tr[data-job="%s"] td.cause .severity');
        const healthy = document.querySelector('tr[data-job="%s"] .learning-progress');
        const note = document.getElementById('unjoined');
        return {progress: p ? p.textContent : null, checkpoints: p ? p.dataset.checkpoints : null,
          severity: sev ? sev.dataset.severity : null, healthyProgress: healthy !== null,
          unjoined: note.hidden ? null : note.textContent.replace(/\\s+/g, ' ')};
        """.formatted(YOUNG, SICK, HEALTHY));
    int toGo = young.getInteger("checkpointsUntilReady");
    assertThat(toGo).isPositive();
    assertThat(extra.get("checkpoints")).isEqualTo(Integer.toString(toGo));
    long minutes = Math.max(1, Math.round((Instant.parse(young.getString("readyAt"))
        .toEpochMilli() - Instant.parse(young.getString("lastSeen")).toEpochMilli()) / 60e3));
    assertThat(minutes).as("one checkpoint a minute").isBetween(toGo - 1L, toGo + 1L);
    assertThat((String) extra.get("progress")).isEqualTo(young.getInteger("baselinesReady")
        + " of " + young.getInteger("baselinesTotal") + " baselines ready; checkpoint alerts "
        + "possible after " + toGo + " more completed checkpoints (~" + minutes + " min at this "
        + "job's pace, about " + young.getString("readyAt").substring(11, 16) + " UTC)");
    assertThat(extra.get("severity")).isEqualTo(diagnosis.getString("severity"));
    assertThat(extra.get("healthyProgress")).isEqualTo(false);
    assertThat((String) extra.get("unjoined")).startsWith("2 node_exporter or cAdvisor samples "
        + "lately matched no job's TaskManagers").contains("--host-alias FLINK_HOST=NODE");
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
          forecast: c.querySelector('.forecast') !== null,
          severity: (c.querySelector('.severity') || {dataset: {}}).dataset.severity || null,
          runbook: (c.querySelector('a.runbook') || {}).href || null};
        """);
    String cause = diagnosis.getString("cause");
    assertThat(card.get("cause")).isEqualTo(cause);
    assertThat(((String) card.get("shown")).toLowerCase()).contains(cause.replace('_', ' '));
    assertThat(card.get("confidence")).isEqualTo(
        Math.round(diagnosis.getDouble("confidence") * 100) + " % confidence");
    assertThat(card.get("evidence")).isEqualTo(sentences);
    assertThat(card.get("remedy")).isEqualTo(diagnosis.getString("remedy"));
    assertThat(card.get("forecast")).isEqualTo(diagnosis.getValue("hoursToTimeout") != null);
    assertThat(card.get("severity")).isEqualTo(diagnosis.getString("severity"));
    assertThat(card.get("runbook")).isEqualTo(TestService.url(service, diagnosis.getString(
        "runbook")));

    // Time ticks fall on round times, each label once; the observed line is made of steps,
    // and the step up sits where the anomaly starts, not a ramp before it.
    @SuppressWarnings("unchecked")
    Map<String, Object> axis = (Map<String, Object>) browser.script("""
        const svg = document.querySelector('svg.chart[data-signal=checkpoint_duration]');
        const ticks = [...svg.querySelectorAll('text.tick-time')];
        const pts = [...svg.querySelector('polyline.observed').points].map(p => [p.x, p.y]);
        let jumpX = null, jump = 0, slanted = 0;
        for (let i = 1; i < pts.length; i++) {
          const dx = Math.abs(pts[i][0] - pts[i - 1][0]), dy = Math.abs(pts[i][1] - pts[i - 1][1]);
          if (dx > 0.05 && dy > 0.05) slanted++;
          if (dx <= 0.05 && dy > jump) { jump = dy; jumpX = pts[i][0]; }
        }
        return {labels: ticks.map(t => t.textContent),
          offRound: ticks.filter(t => Number(t.dataset.t) % Number(t.dataset.step) !== 0).length,
          slanted, jumpX,
          periodX: svg.querySelector('rect.anomaly-period').getBBox().x};
        """);
    @SuppressWarnings("unchecked")
    List<String> labels = (List<String>) axis.get("labels");
    assertThat(labels).hasSizeBetween(3, 7).doesNotHaveDuplicates();
    assertThat(axis.get("offRound")).isEqualTo(0L);
    assertThat(axis.get("slanted")).isEqualTo(0L);
    assertThat(((Number) axis.get("jumpX")).doubleValue())
        .isCloseTo(((Number) axis.get("periodX")).doubleValue(), within(0.5));

    Number height = (Number) browser.script("return document.documentElement.scrollHeight");
    browser.resize(1360, Math.min(4000, height.intValue() + 140));
    browser.screenshot(SHOTS.resolve("job-page.png"));
    browser.resize(1360, 900);

    // Six subtasks: four charts and a link that shows the other two.
    String moreScopes = "return [document.querySelectorAll("
        + "'.chart-card[data-signal=checkpoint_start_delay]').length, (document.querySelector("
        + "'.chart-card[data-signal=checkpoint_start_delay] a.more-scopes') || {}).textContent]";
    assertThat(browser.script(moreScopes)).isEqualTo(List.of(4L, "+2 more scopes"));
    browser.script("document.querySelector('.chart-card[data-signal=checkpoint_start_delay] "
        + "a.more-scopes').click()");
    Await.until("every start-delay scope charted", WAIT, () -> browser.script(
        "return document.body.dataset.loaded === 'true' && document.querySelectorAll("
            + "'.chart-card[data-signal=checkpoint_start_delay]').length === " + SUBTASKS));
    assertThat(browser.script(moreScopes)).isEqualTo(List.of((long) SUBTASKS, "show fewer"));
    assertThat((String) browser.script("return location.search"))
        .contains("expand=checkpoint_start_delay");
    // The anomalies of the job carry units.
    assertThat((String) browser.script("return document.querySelector("
        + "'#job-anomalies tr.anomaly-row td.num').textContent")).matches("[0-9.]+ (ms|s)");
  }

  /**
   * The links of the alert Alertmanager gets for this diagnosis: the job page centred on the
   * anomaly's start, and the runbook as a page whose links lead on to the other runbooks.
   */
  private void alertLinks(HeadlessChromium browser, CheckpointDoctor service,
      JsonObject diagnosis, JsonObject openAnomaly) throws Exception {
    long start = Instant.parse(openAnomaly.getString("startedAt")).toEpochMilli();
    Alert alert = new AlertMapper(TestService.url(service, ""), Duration.ofMinutes(1),
        d -> start).firing(service.detector().diagnosis(SICK).orElseThrow(), Instant.now());
    browser.open(alert.generatorUrl());
    Await.until("the job page at the anomaly's start", WAIT, () -> browser.script(
        "return document.body.dataset.loaded === 'true' && document.querySelector("
            + "'svg.chart[data-signal=checkpoint_duration] line.at-marker') !== null"));
    @SuppressWarnings("unchecked")
    List<Object> marker = (List<Object>) browser.script("""
        const svg = document.querySelector('svg.chart[data-signal=checkpoint_duration]');
        return [svg.querySelector('line.at-marker').x1.baseVal.value,
          svg.querySelector('rect.anomaly-period').getBBox().x,
          document.querySelector('#diagnosis a.runbook').href,
          (Date.parse(svg.dataset.to) - Date.parse(svg.dataset.from)) / 60000];
        """);
    assertThat(((Number) marker.get(0)).doubleValue())
        .isCloseTo(((Number) marker.get(1)).doubleValue(), within(0.5));
    assertThat(marker.get(2)).isEqualTo(alert.annotations().get("runbook_url"));
    // The 6 h window around the anomaly shows the 2.5 h of data there is, not empty hours.
    assertThat(((Number) marker.get(3)).doubleValue()).isBetween(150.0, 153.0);

    browser.script("document.querySelector('#diagnosis a.runbook').click()");
    Await.until("the runbook page", WAIT, () -> browser.script(
        "return document.body.dataset.page === 'docs' && document.querySelector('main h1')"
            + " !== null"));
    @SuppressWarnings("unchecked")
    Map<String, Object> page = (Map<String, Object>) browser.script("""
        const links = [...document.querySelectorAll('main.doc a')].map(a => a.getAttribute('href'));
        return {url: location.href, h1: document.querySelector('main h1').textContent,
          title: document.title, css: getComputedStyle(document.querySelector('header.top'))
            .backgroundColor, mdLinks: links.filter(h => h.endsWith('.md')).length,
          headings: document.querySelectorAll('main h2').length};
        """);
    String cause = diagnosis.getString("cause");
    assertThat(page.get("url")).isEqualTo(alert.annotations().get("runbook_url"));
    assertThat((String) page.get("h1")).startsWith(cause);
    assertThat((String) page.get("title")).endsWith("· Checkpoint Doctor");
    assertThat(page.get("css")).isEqualTo("rgb(31, 78, 121)");
    assertThat(page.get("mdLinks")).as("only the source link is Markdown").isEqualTo(1L);
    assertThat(((Number) page.get("headings")).intValue()).isGreaterThanOrEqualTo(2);
    browser.screenshot(SHOTS.resolve("runbook-page.png"));
    browser.script("[...document.querySelectorAll('header nav a')].find(a => a.textContent"
        + " === 'Causes').click()");
    Await.until("the causes index", WAIT, () -> browser.script(
        "return location.pathname === '/docs/causes/README.html' && document.querySelectorAll("
            + "'main.doc table a[href$=\".html\"]').length >= 10"));
  }

  /** With --api-token and --api-basic-auth the pages ask for either, once per browser tab. */
  private void login(HeadlessChromium browser, CheckpointDoctor guarded) throws Exception {
    String jobRow = "return document.querySelector('tr.job-row[data-job=\"" + HEALTHY
        + "\"]') !== null && document.getElementById('login') === null";
    browser.open(TestService.url(guarded, "/ui/"));
    Await.until("the login form", WAIT, () -> browser.script(
        "return document.getElementById('login') !== null"));
    assertThat(browser.script("return [!!document.getElementById('login-token'),"
        + "!!document.getElementById('login-user'), !!document.getElementById('login-password')]"))
        .isEqualTo(List.of(true, true, true));
    browser.screenshot(SHOTS.resolve("login.png"));
    submit(browser, "login-token", "wrong");
    Await.until("the refusal", WAIT, () -> browser.script(
        "const e = document.querySelector('#login .error'); return e && e.textContent"));
    submit(browser, "login-token", "t0ken");
    Await.until("the jobs after signing in with the token", WAIT, () -> browser.script(jobRow));
    // Kept for the tab: another page loads without asking again.
    browser.open(TestService.url(guarded, "/ui/job.html?job=" + HEALTHY));
    Await.until("the job page without a login", WAIT, () -> browser.script(
        "return document.body.dataset.loaded === 'true' && !document.getElementById('login')"));
    browser.script("document.getElementById('sign-out').click()");
    Await.until("the login form after signing out", WAIT, () -> browser.script(
        "return document.getElementById('login') !== null"));
    browser.open(TestService.url(guarded, "/ui/"));
    Await.until("the login form", WAIT, () -> browser.script(
        "return document.getElementById('login') !== null"));
    browser.script("document.getElementById('login-user').value = 'ops';"
        + "document.getElementById('login-password').value = 'pa:ss';"
        + "document.getElementById('login-submit').click()");
    Await.until("the jobs after signing in with user and password", WAIT,
        () -> browser.script(jobRow));
  }

  private static void submit(HeadlessChromium browser, String field, String value) {
    browser.script("document.getElementById(arguments[0]).value = arguments[1];"
        + "document.getElementById('login-submit').click()", field, value);
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
    // Numbers with their units: observed, expected and the normal band.
    assertThat(browser.script("return [...document.querySelectorAll('#anomalies-table "
        + "tr.anomaly-row td.num')].map(td => td.textContent)"))
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
        .allSatisfy(t -> assertThat((String) t).matches(".*[0-9] (ms|s)"))
        .hasSize(3);
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

  private static JsonObject jobSummary(CheckpointDoctor service, String job) {
    JsonArray jobs = json(service, "/api/v1/jobs").getJsonArray("jobs");
    for (int i = 0; i < jobs.size(); i++) {
      if (jobs.getJsonObject(i).getString("job").equals(job)) {
        return jobs.getJsonObject(i);
      }
    }
    throw new AssertionError("no job " + job);
  }

  private static JsonObject json(CheckpointDoctor service, String path) {
    return new JsonObject(Http.get(TestService.url(service, path)).body());
  }
}
