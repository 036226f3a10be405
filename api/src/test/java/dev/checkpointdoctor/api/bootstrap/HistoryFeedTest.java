package dev.checkpointdoctor.api.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** History reaches the detector as live samples would have: each scrape once, at its time. */
class HistoryFeedTest {
  private static final long T0 = 1_700_000_000_000L;
  private static final String JOB_ID = "0123456789abcdef0123456789abcdef";

  private static Labels jm(String metric) {
    return Labels.of("__name__", "flink_jobmanager_job_" + metric, "instance", "jm:9249",
        "job", "flink", "job_id", JOB_ID, "job_name", "orders");
  }

  @Test
  void repeatsOfOneScrapeAndTheLookbackAfterTheLastAreNotSamples() {
    // scraped every 30 s, read at a 15 s step: every value twice; the last scrape at T0+150 s is
    // repeated by the lookback until the grid ends at T0+240 s
    Grid grid = new Grid(T0 + 5_000, 15_000, 17);
    Matrix m = new Matrix(grid);
    double[] id = m.newRow();
    double[] duration = m.newRow();
    for (int i = 0; i < grid.points(); i++) {
      long scrape = Math.min(T0 + (grid.timeMs(i) - T0) / 30_000 * 30_000, T0 + 150_000);
      long checkpoint = (scrape - T0) / 30_000; // one checkpoint per scrape
      id[i] = checkpoint;
      duration[i] = 1000 + checkpoint;
    }
    m.add(jm("lastCompletedCheckpointId"), id, grid.points());
    m.add(jm("lastCheckpointDuration"), duration, grid.points());
    Cadence cadence = new Cadence(30_000, T0, T0 + 150_000);
    TargetReader.Slice slice = new TargetReader.Slice(grid, List.of(m),
        Map.of(HistoryFeed.instanceKey(jm("x")), cadence));

    Detector detector = new Detector(SignalCatalog.defaults(), DetectorSettings.defaults());
    List<Evaluation> seen = new ArrayList<>();
    List<Boolean> inHistory = new ArrayList<>();
    detector.addListener(new DetectorListener() {
      @Override
      public void evaluated(Evaluation e) {
        if (e.signal() == Signal.CHECKPOINT_DURATION) {
          seen.add(e);
          inHistory.add(detector.readingHistory());
        }
      }
    });
    HistoryFeed feed = new HistoryFeed();
    feed.feed(detector, slice);

    assertThat(feed.fed()).as("6 scrapes x 2 series").isEqualTo(12);
    assertThat(detector.stats().duplicate() + detector.stats().outOfOrder()).isZero();
    // the first frame reports the last completed checkpoint once, then one per checkpoint
    assertThat(seen).extracting(Evaluation::timestampMs).as("at the scrape times")
        .containsExactly(T0, T0 + 30_000, T0 + 60_000, T0 + 90_000, T0 + 120_000,
            T0 + 150_000);
    assertThat(seen).extracting(Evaluation::observed)
        .containsExactly(1000.0, 1001.0, 1002.0, 1003.0, 1004.0, 1005.0);
    assertThat(inHistory).containsOnly(true);
    assertThat(detector.readingHistory()).isFalse();
    assertThat(feed.covered()).containsEntry(HistoryFeed.instanceKey(jm("x")), T0 + 150_000);
    BaselineSummary b = detector.baselines("orders").stream()
        .filter(s -> s.signal() == Signal.CHECKPOINT_DURATION).findFirst().orElseThrow();
    assertThat(b.historySinceMs()).isEqualTo(T0);
  }

  @Test
  void aSeriesThatDisappearsEndsWithAStaleMarkerAsPrometheusWouldHaveSent() {
    Grid grid = new Grid(T0 + 7_500, 15_000, 6);
    Matrix m = new Matrix(grid);
    double[] busy = m.newRow();
    for (int i = 0; i < 3; i++) {
      busy[i] = 100 + i;
    }
    Labels task = Labels.of("__name__", "flink_taskmanager_job_task_busyTimeMsPerSecond",
        "instance", "tm:9249", "job", "flink", "job_name", "orders", "task_name", "map",
        "subtask_index", "0", "tm_id", "tm1", "host", "h1");
    m.add(task, busy, 3);
    TargetReader.Slice slice = new TargetReader.Slice(grid, List.of(m),
        Map.of(HistoryFeed.instanceKey(task), new Cadence(15_000, T0, Long.MAX_VALUE)));
    Detector detector = new Detector(SignalCatalog.defaults(), DetectorSettings.defaults());
    HistoryFeed feed = new HistoryFeed();
    feed.feed(detector, slice);
    assertThat(feed.fed()).isEqualTo(3);
    assertThat(detector.stats().staleMarkers()).isEqualTo(1);
    assertThat(feed.tmIds()).containsExactly("tm1");
    assertThat(feed.hosts()).containsExactly("h1");
  }
}
