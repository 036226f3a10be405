package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Signal;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Slow state growth through the whole detector (trend test, trend anomaly, state_growth rule,
 * forecast), at production time scales: the cases of issue 15 that the band alone missed or got
 * wrong.
 */
class StateGrowthTrendTest {
  private static final String STATE_GROWTH = "state_growth";
  private static final long HOUR = TrendSim.HOUR;
  /** The trend test reads every 5 min: how far a restart may move the moment a trend is seen. */
  private static final long READING_EVERY_MS = 5 * 60_000L;

  /**
   * A job with a steady input rate that ran 12 h, then its full snapshots grow a few percent an
   * hour, compounding. (With a daily load cycle and less than two days of history, growth at the
   * rising half of the cycle is taken for load and named late, and 2 %/h is not yet named within
   * 2.5 h even with a steady input: issue 15 item 3, not done.)
   */
  private static TrendSim growing(long seed, double perHour) {
    TrendSim sim = new TrendSim(seed, 60_000);
    sim.dailyAmplitude = 0;
    sim.growthPerHour = perHour;
    sim.growthStartMs = TrendSim.T0 + 12 * HOUR;
    return sim;
  }

  @ParameterizedTest(name = "{1} per hour, seed {0}")
  @CsvSource({"12, 0.035", "14, 0.05"})
  void compoundingGrowthIsNamedWithAForecastWithinTwoHours(long seed, double perHour) {
    TrendSim sim = growing(seed, perHour);
    sim.run(12 + 2.5);

    List<Anomaly> trend = sim.trendAnomalies();
    assertThat(trend).as("trend anomalies").isNotEmpty();
    // a trend anomaly starts when growth was first read, after the growth began
    assertThat(trend.get(0).startedAtMs() - sim.growthStartMs).as("trend anomaly start")
        .isBetween(0L, 2 * HOUR);
    assertThat(List.of(Signal.CHECKPOINT_FULL_SIZE, Signal.CHECKPOINT_DURATION))
        .contains(trend.get(0).signal());

    long named = sim.firstNamedAtMs(STATE_GROWTH);
    assertThat(named).as("state_growth named").isGreaterThan(sim.growthStartMs);
    assertThat(named - sim.growthStartMs).as("state_growth named after the onset")
        .isLessThanOrEqualTo(2 * HOUR);
    Diagnosis d = sim.detector.diagnosis(sim.job).orElseThrow();
    assertThat(d.cause()).isEqualTo(STATE_GROWTH);
    assertThat(d.hoursToTimeout()).as("forecast").isNotNull();
    // the true time left: the duration compounds at the state's rate up to the timeout
    double durationNow = sim.baseDurationMs
        * Math.pow(1 + perHour, (sim.now - sim.growthStartMs) / (double) HOUR);
    double truth = Math.log(sim.settings.checkpointTimeout().toMillis() / durationNow)
        / Math.log1p(perHour);
    assertThat(d.hoursToTimeout()).as("forecast against %.0f h", truth)
        .isBetween(truth / 2, truth * 2);
    assertThat(sentences(d)).anyMatch(s -> s.contains("checkpoints reach the timeout"));
  }

  /**
   * The state grows 4 % an hour and is certain of it within the hour; the checkpoint duration
   * follows it under noise of +-20 %, so its own rise stays short of 95 % confidence for hours.
   * Growth is named within 2 h all the same (family 1: growth named at all 32/40 while the
   * duration had to be confidently rising, 37/40 since).
   */
  @ParameterizedTest(name = "seed {0}")
  @CsvSource({"52", "53"})
  void growthBesideANoisyDurationIsNamedWithinTwoHours(long seed) {
    TrendSim sim = growing(seed, 0.04);
    sim.noise = 0.2;
    sim.run(12 + 2);

    long named = sim.firstNamedAtMs(STATE_GROWTH);
    assertThat(named).as("state_growth named (trend anomalies %s, diagnoses %s)",
        sim.trendAnomalies(), sim.diagnoses).isGreaterThan(sim.growthStartMs);
    assertThat(named - sim.growthStartMs).as("state_growth named after the onset")
        .isLessThanOrEqualTo(2 * HOUR);
  }

  @Test
  void aRestartInTheMiddleMakesTheSameDiagnosisAsAnUninterruptedRun() {
    TrendSim straight = growing(21, 0.03);
    straight.run(12 + 3);
    TrendSim restarted = growing(21, 0.03);
    restarted.run(12 + 1);
    restarted.restart();
    restarted.run(2);

    long named = straight.firstNamedAtMs(STATE_GROWTH);
    assertThat(named).as("uninterrupted run names state_growth").isPositive();
    // the recent window is raw history: without it the restarted run would need the trend
    // test's 90 minutes of points again and name the growth at least an hour later
    assertThat(restarted.firstNamedAtMs(STATE_GROWTH)).as("restarted run")
        .isBetween(named - READING_EVERY_MS, named + READING_EVERY_MS);
    Diagnosis a = straight.detector.diagnosis(straight.job).orElseThrow();
    Diagnosis b = restarted.detector.diagnosis(restarted.job).orElseThrow();
    assertThat(b.cause()).isEqualTo(a.cause());
    assertThat(b.signal()).isEqualTo(a.signal());
    assertThat(b.hoursToTimeout()).isNotNull();
    assertThat(b.hoursToTimeout()).isCloseTo(a.hoursToTimeout(),
        org.assertj.core.data.Percentage.withPercentage(10));
  }

  /**
   * Issue 15's new user: a 2-minute-old job whose checkpoints became 20 times slower in one step
   * (its young RocksDB state drifting up meanwhile) is not state growth, and nothing quoted
   * reaches back before the job started.
   */
  @Test
  void aOneStepSlowdownOfATwoMinuteOldJobIsNotStateGrowth() {
    TrendSim sim = new TrendSim(31, 10_000, DetectorSettings.defaults().withMinObservations(5));
    sim.baseSize = 40e6;
    sim.growthPerHour = 2.0; // a young state filling up: +3 MiB over the first minutes
    sim.growthStartMs = TrendSim.T0;
    sim.stepFactor = 20;
    sim.stepAtMs = TrendSim.T0 + 2 * 60_000;
    long jobStart = TrendSim.T0 + sim.intervalMs;
    sim.run(0.25);

    assertThat(sim.diagnoses).as("the slowdown is diagnosed").isNotEmpty();
    assertThat(sim.diagnoses).extracting(Diagnosis::cause).doesNotContain(STATE_GROWTH);
    for (int i = 0; i < sim.diagnoses.size(); i++) {
      long at = sim.diagnosedAtMs.get(i);
      for (String s : sentences(sim.diagnoses.get(i))) {
        assertThat(quotedStartMs(s, at)).as("window quoted by \"%s\" at %s", s,
            Instant.ofEpochMilli(at)).isGreaterThanOrEqualTo(jobStart - 60_000);
      }
    }
  }

  /**
   * A week of a healthy job with a daily load cycle (its full size following the load a little):
   * no trend, no state growth.
   */
  @Test
  void aHealthyJobWithADailyCycleOpensNoTrendAnomalyInAWeek() {
    TrendSim sim = new TrendSim(41, 300_000);
    sim.dailyAmplitude = 0.3;
    sim.noise = 0.1;
    sim.run(7 * 24);

    assertThat(sim.trendAnomalies()).as("trend anomalies").isEmpty();
    assertThat(sim.diagnoses).extracting(Diagnosis::cause).doesNotContain(STATE_GROWTH);
  }

  /**
   * The first two days of a healthy job whose +-40 % daily load cycle the full size and the
   * checkpoint duration follow (the corpus's healthy_daily_load): the daily cycle is not learned
   * yet, and the rising half of the cycle climbs up to 10 % an hour, as fast as growth the test
   * must name. The input rate rose as much: no trend anomaly, no state growth. (Seed 44 opened a
   * trend anomaly on the duration while the input rate's rise was read from the medians of the
   * window's two ends.)
   *
   * @param sizeFollowsLoad how much the full size follows the load (1: proportionally)
   */
  @ParameterizedTest(name = "seed {0}: size follows the load {1}")
  @CsvSource({"42, 1.0", "44, 1.0", "45, 0.5", "46, 0.5"})
  void aYoungJobsDailyLoadCycleIsNotGrowth(long seed, double sizeFollowsLoad) {
    TrendSim sim = new TrendSim(seed, 60_000);
    sim.dailyAmplitude = 0.4;
    sim.sizeFollowsLoad = sizeFollowsLoad;
    sim.run(47);

    assertThat(sim.trendAnomalies()).as("trend anomalies").isEmpty();
    assertThat(sim.diagnoses).extracting(Diagnosis::cause).doesNotContain(STATE_GROWTH);
  }

  private static List<String> sentences(Diagnosis d) {
    return d.ranked().stream().flatMap(h -> h.evidence().stream())
        .map(CauseHypothesis.Evidence::sentence).toList();
  }

  private static final Pattern SINCE = Pattern.compile("since (\\d{2}):(\\d{2}) UTC");
  private static final Pattern SPAN = Pattern.compile(
      "(?:(\\d+(?:\\.\\d+)?) (s|min|h|days) ago|(?:last|over) (?:the )?(?:last )?"
          + "(\\d+(?:\\.\\d+)?) ?(s|min|h|days))");

  /** The earliest time a sentence quotes ("since 14:05 UTC", "90 min ago", "the last 2 h"). */
  private static long quotedStartMs(String sentence, long atMs) {
    long earliest = atMs;
    Matcher m = SINCE.matcher(sentence);
    while (m.find()) {
      LocalTime clock = LocalTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      long t = Instant.ofEpochMilli(atMs).atZone(ZoneOffset.UTC).with(clock).toInstant()
          .toEpochMilli();
      earliest = Math.min(earliest, t > atMs ? t - 24 * HOUR : t);
    }
    m = SPAN.matcher(sentence);
    while (m.find()) {
      String n = m.group(1) != null ? m.group(1) : m.group(3);
      String unit = m.group(2) != null ? m.group(2) : m.group(4);
      double ms = switch (unit) {
        case "s" -> 1_000;
        case "min" -> 60_000;
        case "h" -> HOUR;
        default -> 24 * HOUR;
      };
      earliest = Math.min(earliest, atMs - Math.round(Double.parseDouble(n) * ms));
    }
    return earliest;
  }
}
