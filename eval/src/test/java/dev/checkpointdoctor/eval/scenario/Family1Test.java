package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Family 1 at production time scale, measured from the samples it plays (not through the
 * detector): every scenario of seed 1 is played once, streaming, and what the tests need is
 * collected on the way.
 */
class Family1Test {
  private static final long SEED = 1;
  private static final double HOUR_MS = 3_600_000.0;
  private static final Map<String, Played> PLAYED = new LinkedHashMap<>();

  @BeforeAll
  static void playSeedOne() {
    for (GeneratedScenario s : new Family1().scenarios(SEED)) {
      Played p = new Played(s.truth());
      s.play(p);
      PLAYED.put(s.truth().name(), p);
    }
  }

  @Test
  void drawsEveryCauseTwiceGrowthControlsAndNewUsers() {
    Map<String, Integer> perCause = new HashMap<>();
    for (Played p : PLAYED.values()) {
      if (ScenarioKind.of(p.truth) == ScenarioKind.FAULT) {
        perCause.merge(p.truth.expected(), 1, Integer::sum);
      }
    }
    assertThat(perCause).hasSize(ScenarioSpec.Fault.values().length)
        .allSatisfy((cause, n) -> assertThat(n).as(cause).isEqualTo(2));
    assertThat(kinds(ScenarioKind.GROWTH)).hasSize(4);
    assertThat(kinds(ScenarioKind.HEALTHY)).hasSizeGreaterThanOrEqualTo(6);
    assertThat(kinds(ScenarioKind.NEW_USER)).extracting(p -> p.truth.name())
        .contains("new_user_step");
    for (Played p : kinds(ScenarioKind.FAULT)) {
      assertThat(p.truth.faultStartMs() - p.truth.startMs()).isEqualTo(12 * 3_600_000L);
      assertThat(p.truth.endMs() - p.truth.faultStartMs()).isGreaterThanOrEqualTo(4 * 3_600_000L);
      int scrape = p.truth.shape().getInteger("scrapeIntervalSeconds");
      int interval = p.truth.shape().getInteger("checkpointIntervalSeconds");
      assertThat(scrape).isBetween(15, 60);
      assertThat(interval).isBetween(30, 300);
    }
    Set<String> shapes = new TreeSet<>();
    for (Played p : PLAYED.values()) {
      shapes.add(p.truth.shape().getString("flinkVersion"));
      shapes.add(p.truth.shape().getString("rocksdb"));
      shapes.add(p.truth.shape().getBoolean("kubernetes") ? "k8s" : "bare");
    }
    assertThat(shapes).contains("1.20.3", "2.3.0", "column_family_label", "per_state_name",
        "k8s", "bare");
    assertThat(kinds(ScenarioKind.HEALTHY)).filteredOn(
        p -> p.truth.endMs() - p.truth.startMs() == 14 * 24 * 3_600_000L).hasSizeGreaterThan(3);
  }

  @Test
  void sameSeedSameScenariosAndSamples() {
    List<GeneratedScenario> again = new Family1().scenarios(SEED);
    assertThat(again).extracting(s -> s.truth().toString())
        .containsExactlyElementsOf(PLAYED.values().stream().map(p -> p.truth.toString()).toList());
    GeneratedScenario young = again.stream()
        .filter(s -> s.truth().name().equals("new_user_step")).findFirst().orElseThrow();
    Played p = new Played(young.truth());
    young.play(p);
    assertThat(p.samples).isPositive().isEqualTo(PLAYED.get("new_user_step").samples);
    assertThat(p.digest).isEqualTo(PLAYED.get("new_user_step").digest);
    assertThat(new Family1().scenarios(2)).extracting(s -> s.truth().toString())
        .isNotEqualTo(again.stream().map(s -> s.truth().toString()).toList());
  }

  @Test
  void everyScenarioPlaysInNonDecreasingEventTime() {
    assertThat(PLAYED.values()).allSatisfy(p -> {
      assertThat(p.samples).as(p.truth.name()).isPositive();
      assertThat(p.backwards).as(p.truth.name() + ": " + p.firstBackwards).isZero();
      assertThat(p.firstTs).as(p.truth.name()).isGreaterThanOrEqualTo(p.truth.startMs());
    });
  }

  @Test
  void growthJobsGrowAtTheirDrawnRateAndDurationFollows() {
    List<Played> growing = PLAYED.values().stream()
        .filter(p -> p.truth.shape().getDouble("growthPerHour") > 0).toList();
    assertThat(growing).hasSizeGreaterThanOrEqualTo(6);
    for (Played p : growing) {
      double rate = p.truth.shape().getDouble("growthPerHour");
      long fault = p.truth.faultStartMs();
      double[] size = trendFit(p.fullSize, p.truth.startMs() + 1_800_000L, fault);
      assertThat(Math.exp(size[1]) - 1).as(p.truth.name() + " growth per hour, drawn %.4f", rate)
          .isCloseTo(rate, org.assertj.core.data.Offset.offset(0.002 + 0.1 * rate));
      assertThat(Math.abs(size[0])).as(p.truth.name() + " trend before the growth")
          .isLessThan(0.003);
      // duration follows the size: the time per byte stays put while the size grows (for a
      // duration that did not follow, it would fall by the size's growth, 16-25 % at 3-5 %/h)
      long end = p.truth.endMs();
      long window = 2 * 3_600_000L;
      double sizeFactor = median(p.fullSize, end - window, end)
          / median(p.fullSize, fault, fault + window);
      double perByteFirst = median(p.duration, fault, fault + window)
          / median(p.fullSize, fault, fault + window);
      double perByteLast = median(p.duration, end - window, end)
          / median(p.fullSize, end - window, end);
      assertThat(perByteLast / perByteFirst).as(p.truth.name() + " duration per byte, size x"
          + sizeFactor).isCloseTo(1, org.assertj.core.data.Offset.offset(0.12));
    }
  }

  @Test
  void aRedeployChangesTheJobIdAndResetsCountersAndGauges() {
    for (String name : List.of("healthy_redeploy", "healthy_rescale", "healthy_new_normal")) {
      Played p = PLAYED.get(name);
      assertThat(p.firstByJobId).as(name).hasSize(2);
      List<JobIdStart> starts = new ArrayList<>(p.firstByJobId.values());
      JobIdStart second = starts.get(1);
      assertThat(second.completed).as(name + " completed count of the new job_id").isZero();
      assertThat(second.failed).as(name + " failed count of the new job_id").isZero();
      assertThat(second.duration).as(name + " last duration before a checkpoint").isEqualTo(-1);
      double redeployH = p.truth.shape().getDouble("redeployAtHours");
      assertThat((second.ts - p.truth.startMs()) / HOUR_MS).as(name)
          .isCloseTo(redeployH, org.assertj.core.data.Offset.offset(0.1));
      // the old job_id's counters had run up
      assertThat(p.lastCompletedByJobId.get(starts.get(0).jobId)).isGreaterThan(100);
    }
    Played rescale = PLAYED.get("healthy_rescale");
    List<String> ids = new ArrayList<>(rescale.firstByJobId.keySet());
    assertThat(rescale.subtasksByJobId.get(ids.get(0))).hasSize(
        rescale.truth.shape().getInteger("parallelism"));
    assertThat(rescale.subtasksByJobId.get(ids.get(1))).hasSize(
        rescale.truth.shape().getInteger("parallelismAfter"));
  }

  @Test
  void firstCheckpointsAreDeclinedAtStart() {
    Played p = PLAYED.get("healthy_declined_start");
    int declined = p.truth.shape().getInteger("declinedAtStart");
    assertThat(declined).isPositive();
    JobIdStart first = p.firstByJobId.values().iterator().next();
    assertThat(p.failedAtFirstCompletion.get(first.jobId)).isEqualTo(declined);
  }

  @Test
  void theDailyAndWeeklyLoadCycleIsVisible() {
    Played p = PLAYED.get("healthy_cycle");
    double amplitude = p.truth.shape().getDouble("dailyAmplitude");
    double dip = p.truth.shape().getDouble("weekendDip");
    double peak = p.truth.shape().getDouble("dailyPeakHour");
    double[] weekday = new double[24];
    int peakHour = 0;
    int lowHour = 0;
    for (int h = 0; h < 24; h++) {
      weekday[h] = p.recordsWeekday[h] / p.countWeekday[h];
      peakHour = weekday[h] > weekday[peakHour] ? h : peakHour;
      lowHour = weekday[h] < weekday[lowHour] ? h : lowHour;
    }
    assertThat(weekday[peakHour] / weekday[lowHour]).as("weekday peak/trough")
        .isGreaterThan((1 + 0.7 * amplitude) / (1 - 0.7 * amplitude));
    double circular = Math.abs(peakHour + 0.5 - peak);
    assertThat(Math.min(circular, 24 - circular)).as("peak hour").isLessThan(2.5);
    double weekdayMean = sum(p.recordsWeekday) / sum(p.countWeekday);
    double weekendMean = sum(p.recordsWeekend) / sum(p.countWeekend);
    assertThat(weekendMean / weekdayMean).as("weekend vs weekday load, dip " + dip)
        .isCloseTo(1 - dip, org.assertj.core.data.Offset.offset(0.08));
  }

  @Test
  void aNewNormalAfterTheRedeployHoldsFortyPercentHigher() {
    Played p = PLAYED.get("healthy_new_normal");
    long redeploy = p.truth.startMs()
        + (long) (p.truth.shape().getDouble("redeployAtHours") * HOUR_MS);
    // same weekdays and hours a week apart where possible: compare medians over whole days
    double before = median(p.fullSize, redeploy - 2 * 86_400_000L, redeploy);
    double after = median(p.fullSize, redeploy + 86_400_000L, redeploy + 3 * 86_400_000L);
    assertThat(after / before).isCloseTo(1.4, org.assertj.core.data.Offset.offset(0.12));
  }

  private static List<Played> kinds(ScenarioKind k) {
    return PLAYED.values().stream().filter(p -> ScenarioKind.of(p.truth) == k).toList();
  }

  /**
   * ln(value) fitted on: a constant, a trend per hour over the whole history, a second trend per
   * hour from {@code growthStart} on, and the model's periodic terms (the state's slow wander,
   * period 2 pi x 2 h, and the daily cycle with its second harmonic), which would otherwise bias
   * a trend fitted over a few hours. Returns {trend before, extra trend after}; the growth per
   * hour after the start is exp(before + after) - 1, {@code [0] + [1]} the log-rate.
   */
  private static double[] trendFit(List<double[]> samples, long from, long growthStart) {
    int k = 9;
    double[][] a = new double[k][k + 1];
    int n = 0;
    for (double[] s : medians(samples, 20 * 60_000L)) {
      if (s[0] < from || s[1] <= 0) {
        continue;
      }
      double h = (s[0] - from) / HOUR_MS;
      double day = 2 * Math.PI * s[0] / 86_400_000.0;
      double wander = s[0] / 7_200_000.0;
      double[] x = {1, h, Math.max(0, (s[0] - growthStart) / HOUR_MS), Math.sin(wander),
          Math.cos(wander), Math.sin(day), Math.cos(day), Math.sin(2 * day), Math.cos(2 * day)};
      double y = Math.log(s[1]);
      for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) {
          a[i][j] += x[i] * x[j];
        }
        a[i][k] += x[i] * y;
      }
      n++;
    }
    assertThat(n).isGreaterThan(40);
    for (int c = 0; c < k; c++) { // Gauss-Jordan with partial pivoting
      int pivot = c;
      for (int r = c + 1; r < k; r++) {
        pivot = Math.abs(a[r][c]) > Math.abs(a[pivot][c]) ? r : pivot;
      }
      double[] t = a[c];
      a[c] = a[pivot];
      a[pivot] = t;
      for (int r = 0; r < k; r++) {
        if (r != c) {
          double f = a[r][c] / a[c][c];
          for (int j = c; j <= k; j++) {
            a[r][j] -= f * a[c][j];
          }
        }
      }
    }
    double before = a[1][k] / a[1][1];
    double after = a[2][k] / a[2][2];
    return new double[] {Math.exp(before) - 1, before + after};
  }

  /**
   * Medians over consecutive spans: an isolated slow checkpoint (several times the duration, on
   * purpose) must not pull a least-squares trend.
   */
  private static List<double[]> medians(List<double[]> samples, long spanMs) {
    List<double[]> out = new ArrayList<>();
    List<Double> bucket = new ArrayList<>();
    long current = Long.MIN_VALUE;
    for (double[] s : samples) {
      long b = (long) s[0] / spanMs;
      if (b != current && !bucket.isEmpty()) {
        bucket.sort(null);
        out.add(new double[] {current * spanMs + spanMs / 2.0, bucket.get(bucket.size() / 2)});
        bucket.clear();
      }
      current = b;
      if (s[1] > 0) {
        bucket.add(s[1]);
      }
    }
    return out;
  }

  private static double median(List<double[]> series, long from, long to) {
    double[] v = series.stream().filter(s -> s[0] >= from && s[0] < to && s[1] > 0)
        .mapToDouble(s -> s[1]).sorted().toArray();
    assertThat(v).isNotEmpty();
    return v[v.length / 2];
  }

  private static double sum(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s;
  }

  private record JobIdStart(String jobId, long ts, double completed, double failed,
      double duration) {}

  /** What the tests read from one played scenario. */
  private static final class Played implements GeneratedScenario.SampleSink {
    final ScenarioManifest.Entry truth;
    long samples;
    long digest = 17;
    long backwards;
    String firstBackwards;
    long lastTs = Long.MIN_VALUE;
    long firstTs = Long.MAX_VALUE;
    final List<double[]> fullSize = new ArrayList<>();
    final List<double[]> duration = new ArrayList<>();
    final Map<String, JobIdStart> firstByJobId = new LinkedHashMap<>();
    final Map<String, Double> lastCompletedByJobId = new HashMap<>();
    final Map<String, Double> failedAtFirstCompletion = new HashMap<>();
    private final Map<String, Double> completedNow = new HashMap<>();
    final Map<String, Set<String>> subtasksByJobId = new HashMap<>();
    final double[] recordsWeekday = new double[24];
    final double[] countWeekday = new double[24];
    final double[] recordsWeekend = new double[24];
    final double[] countWeekend = new double[24];
    private long recordsTs = -1;
    private double recordsSum;

    Played(ScenarioManifest.Entry truth) {
      this.truth = truth;
    }

    @Override
    public void sample(Labels labels, long ts, double value) {
      samples++;
      digest = digest * 31 + labels.hashCode();
      digest = digest * 31 + ts;
      digest = digest * 31 + Double.doubleToLongBits(value);
      if (ts < lastTs) {
        backwards++;
        if (firstBackwards == null) {
          firstBackwards = labels + " at " + ts + " after " + lastTs;
        }
      }
      lastTs = Math.max(lastTs, ts);
      firstTs = Math.min(firstTs, ts);
      String name = labels.get(Labels.METRIC_NAME);
      String jobId = labels.get("job_id");
      switch (name) {
        case "flink_jobmanager_job_lastCheckpointFullSize" -> fullSize.add(new double[] {ts, value});
        case "flink_jobmanager_job_lastCheckpointDuration" -> {
          duration.add(new double[] {ts, value});
          if (!firstByJobId.containsKey(jobId)) {
            firstByJobId.put(jobId, new JobIdStart(jobId, ts, Double.NaN, Double.NaN, value));
          }
        }
        case "flink_jobmanager_job_numberOfCompletedCheckpoints" -> {
          JobIdStart first = firstByJobId.get(jobId);
          if (first.ts == ts && Double.isNaN(first.completed)) {
            firstByJobId.put(jobId, new JobIdStart(jobId, ts, value, first.failed,
                first.duration));
          }
          completedNow.put(jobId, value);
          lastCompletedByJobId.put(jobId, value);
        }
        case "flink_jobmanager_job_numberOfFailedCheckpoints" -> {
          JobIdStart first = firstByJobId.get(jobId);
          if (first.ts == ts && Double.isNaN(first.failed)) {
            firstByJobId.put(jobId, new JobIdStart(jobId, ts, first.completed, value,
                first.duration));
          }
          if (completedNow.getOrDefault(jobId, 0.0) > 0
              && !failedAtFirstCompletion.containsKey(jobId)) {
            failedAtFirstCompletion.put(jobId, value);
          }
        }
        case "flink_taskmanager_job_task_busyTimeMsPerSecond" -> {
          if ("keyed_agg".equals(labels.get("task_name"))) {
            subtasksByJobId.computeIfAbsent(jobId, k -> new TreeSet<>())
                .add(labels.get("subtask_index"));
          }
        }
        case "flink_taskmanager_job_task_numRecordsInPerSecond" -> {
          if ("Sink:_out".equals(labels.get("task_name"))) {
            records(ts, value);
          }
        }
        default -> { }
      }
    }

    /** Sums the sink's records-in over one TaskManager scrape, bucketed by hour and weekday. */
    private void records(long ts, double value) {
      if (ts != recordsTs && recordsTs >= 0) {
        int hour = (int) ((recordsTs % 86_400_000L) / 3_600_000L);
        boolean weekend = ProductionEffects.weekendness(recordsTs) == 1;
        (weekend ? recordsWeekend : recordsWeekday)[hour] += recordsSum;
        (weekend ? countWeekend : countWeekday)[hour]++;
        recordsSum = 0;
      }
      recordsTs = ts;
      recordsSum += value;
    }
  }
}
