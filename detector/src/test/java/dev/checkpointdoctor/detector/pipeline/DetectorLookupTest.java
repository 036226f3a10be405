package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The detector finds a series' state by the caller's Labels instance first, and feeds the book
 * entry the series fed last without a lookup. Neither shortcut may change a result: the same
 * samples give the same evaluations, baselines and anomalies however the label sets arrive.
 */
class DetectorLookupTest {
  private static final DetectorSettings SETTINGS = DetectorSettings.defaults()
      .withMinObservations(5);
  private static final int JOBS = 4;
  private static final int TMS = 6;
  private static final int SUBTASKS = 300; // per job: enough series to grow the lookup table
  private static final int SCRAPES = 40;
  private static final double STALE = Double.longBitsToDouble(Detector.STALE_NAN_BITS);

  /** Label set {@code i} of the fleet, built afresh on every call. */
  private static Labels series(int i) {
    int busy = JOBS * SUBTASKS;
    if (i < busy) {
      int job = i / SUBTASKS;
      int subtask = i % SUBTASKS;
      // every TaskManager runs subtasks of every job: its heap feeds several jobs' books
      return Labels.of("__name__", "flink_taskmanager_job_task_busyTimeMsPerSecond",
          "job_name", "job-" + job, "task_name", "map", "subtask_index",
          Integer.toString(subtask), "tm_id", "tm-" + (subtask % TMS), "host", "h" + (subtask
              % TMS));
    }
    int k = i - busy;
    int tm = k / 2;
    return Labels.of("__name__", k % 2 == 0 ? "flink_taskmanager_Status_JVM_Memory_Heap_Used"
        : "flink_taskmanager_Status_JVM_Memory_Heap_Max", "tm_id", "tm-" + tm, "host", "h" + tm);
  }

  private static int seriesCount() {
    return JOBS * SUBTASKS + 2 * TMS;
  }

  private record Run(List<Evaluation> evaluations, Detector detector) {}

  /** Replays the same fleet, asking {@code labelsOf} for the instance to hand in per sample. */
  private static Run replay(IntFunction<Labels> labelsOf) {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    List<Evaluation> evaluations = new ArrayList<>();
    d.addListener(new DetectorListener() {
      @Override
      public void evaluated(Evaluation e) {
        evaluations.add(e);
      }
    });
    Random r = new Random(7);
    long ts = 1_796_000_000_000L;
    for (int scrape = 0; scrape < SCRAPES; scrape++) {
      ts += 15_000;
      for (int i = 0; i < seriesCount(); i++) {
        double v = i % 2 == 0 ? 500 + 50 * r.nextGaussian() : 1000;
        if (scrape >= 30 && i % 5 == 0) {
          v = 5000; // a lasting step on some series, so anomalies open
        }
        if (scrape == 20 && i % 7 == 0) {
          v = STALE; // ends the series; it comes back with the next scrape
        }
        d.accept(labelsOf.apply(i), new long[] {ts}, new double[] {v});
      }
      d.endBatch();
    }
    return new Run(evaluations, d);
  }

  @Test
  void sameResultsWhetherTheCallerReusesLabelInstancesOrNot() {
    Labels[] reused = new Labels[seriesCount()];
    Labels[] other = new Labels[seriesCount()];
    for (int i = 0; i < reused.length; i++) {
      reused[i] = series(i);
      other[i] = series(i);
    }
    int[] calls = new int[1];
    Run fresh = replay(DetectorLookupTest::series);
    Run same = replay(i -> reused[i]);
    // two equal instances taking turns, as two decoder threads would hand in
    Run alternating = replay(i -> (calls[0]++ & 1) == 0 ? reused[i] : other[i]);

    assertThat(fresh.evaluations()).hasSizeGreaterThan(SCRAPES * JOBS * SUBTASKS / 2);
    assertThat(fresh.detector().anomalies(null, null, Long.MIN_VALUE)).isNotEmpty();
    for (Run run : List.of(same, alternating)) {
      assertThat(run.evaluations()).isEqualTo(fresh.evaluations());
      assertThat(run.detector().trackedSeries()).isEqualTo(seriesCount());
      assertThat(run.detector().anomalies(null, null, Long.MIN_VALUE))
          .isEqualTo(fresh.detector().anomalies(null, null, Long.MIN_VALUE));
      for (int j = 0; j < JOBS; j++) {
        assertThat(run.detector().baselines("job-" + j))
            .isEqualTo(fresh.detector().baselines("job-" + j));
      }
      assertThat(run.detector().stats().processed())
          .isEqualTo(fresh.detector().stats().processed());
    }
  }

  @Test
  void aSeriesKnownUnderOneInstanceIsTheSameSeriesUnderAnother() {
    Detector d = new Detector(SignalCatalog.defaults(), SETTINGS);
    Labels a = series(0);
    Labels b = series(0);
    d.accept(a, new long[] {2000}, new double[] {1});
    d.accept(b, new long[] {1000, 2000, 3000}, new double[] {1, 1, 1});
    d.accept(a, new long[] {3000}, new double[] {1});
    assertThat(d.trackedSeries()).isZero(); // published at the end of a batch
    d.endBatch();
    assertThat(d.trackedSeries()).isEqualTo(1);
    assertThat(d.stats().processed()).isEqualTo(2);
    assertThat(d.stats().outOfOrder()).isEqualTo(1);
    assertThat(d.stats().duplicate()).isEqualTo(2);
  }

  @Test
  void aLabelSetRememberedByOneDetectorIsLookedUpAfreshByAnother() {
    // the shards of a ShardedDetector see the same decoder instances: a memo is only a shortcut
    // for the detector that left it
    Detector one = new Detector(SignalCatalog.defaults(), SETTINGS);
    Detector two = new Detector(SignalCatalog.defaults(), SETTINGS);
    Labels shared = series(0);
    for (int k = 1; k <= 10; k++) {
      one.accept(shared, new long[] {k * 1000L}, new double[] {100 + k});
      two.accept(shared, new long[] {k * 1000L}, new double[] {900 + k});
    }
    one.endBatch();
    two.endBatch();
    for (Detector d : List.of(one, two)) {
      assertThat(d.stats().processed()).isEqualTo(10);
      assertThat(d.stats().duplicate()).isZero();
      assertThat(d.trackedSeries()).isEqualTo(1);
    }
    assertThat(one.baselines("job-0").get(0).lastObserved()).isEqualTo(110);
    assertThat(two.baselines("job-0").get(0).lastObserved()).isEqualTo(910);
  }
}
