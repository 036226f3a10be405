package dev.checkpointdoctor.api.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveHoldTest {
  private final List<String> noticed = new ArrayList<>();
  private long full;
  private long covered;
  private boolean accepting = true;
  private String reading;
  private final List<String> givenUp = new ArrayList<>();
  private final Detector detector =
      new Detector(SignalCatalog.defaults(), DetectorSettings.defaults());

  private final LiveHold.NewJobs jobs = new LiveHold.NewJobs() {
    @Override
    public boolean noticed(String job) {
      noticed.add(job);
      return accepting;
    }

    @Override
    public void holdFull(long capacity, long dropped) {
      full += dropped;
    }

    @Override
    public void coveredByHistory(long samples) {
      covered += samples;
    }

    @Override
    public boolean tryGiveUp(String job, long capacity) {
      if (job.equals(reading)) {
        return false;
      }
      givenUp.add(job);
      return true;
    }
  };

  private static Labels task(String job, int subtask, String instance) {
    return Labels.of("__name__", "flink_taskmanager_job_task_busyTimeMsPerSecond", "instance",
        instance, "job", "flink", "job_name", job, "task_name", "map", "subtask_index",
        Integer.toString(subtask));
  }

  @Test
  void aNewJobIsHeldThenFedInEventTimeOrderWithoutWhatHistoryHad() {
    LiveHold hold = new LiveHold(1000, List.of("old"), true, jobs, detector);
    Labels a = task("new", 0, "tm1:9249");
    Labels b = task("new", 1, "tm2:9249");
    // two requests, each series in its own order; b's first sample older than a's second
    assertThat(hold.take(a, new long[] {10, 40}, new double[] {1, 4}, 0, 2)).isTrue();
    assertThat(hold.take(b, new long[] {20, 30}, new double[] {2, 3}, 0, 2)).isTrue();
    assertThat(hold.take(task("old", 0, "tm1:9249"), new long[] {5}, new double[] {1}, 0, 1))
        .as("a job with baselines passes").isFalse();
    Labels node = Labels.of("__name__", "node_disk_io_time_seconds_total", "instance", "h:9100");
    assertThat(hold.take(node, new long[] {15}, new double[] {1}, 0, 1))
        .as("shared series wait for theirs").isTrue();
    assertThat(noticed).containsExactly("new");
    assertThat(hold.held()).isEqualTo(5);

    List<Long> order = new ArrayList<>();
    detector.addListener(new DetectorListener() {
      @Override
      public void evaluated(Evaluation e) {
        order.add(e.timestampMs());
      }
    });
    // history covered tm2 up to 20: its sample at 20 is left out
    hold.release("new", Map.of(HistoryFeed.instanceKey(b), 20L), detector);
    assertThat(order).containsExactly(10L, 30L, 40L);
    assertThat(covered).isEqualTo(1);
    assertThat(hold.held()).isEqualTo(1);
    assertThat(hold.take(a, new long[] {50}, new double[] {5}, 0, 1)).as("now live").isFalse();
    hold.release(LiveHold.SHARED, Map.of(), detector);
    assertThat(hold.take(node, new long[] {60}, new double[] {1}, 0, 1)).isFalse();
    assertThat(hold.held()).isZero();
  }

  @Test
  void aFullHoldGivesUpTheHistoryOfAWaitingJobBeforeItDropsAnything() {
    LiveHold hold = new LiveHold(4, List.of(), false, jobs, detector);
    reading = "reading";
    assertThat(hold.take(task("reading", 0, "a"), new long[] {1, 2}, new double[2], 0, 2))
        .isTrue();
    assertThat(hold.take(task("waiting", 0, "b"), new long[] {1, 2}, new double[2], 0, 2))
        .isTrue();
    // full: the waiting job goes live with its two held samples, the new sample is held
    assertThat(hold.take(task("reading", 1, "a"), new long[] {3}, new double[1], 0, 1))
        .isTrue();
    assertThat(givenUp).containsExactly("waiting");
    assertThat(detector.stats().processed()).isEqualTo(2);
    assertThat(hold.take(task("waiting", 0, "b"), new long[] {3}, new double[1], 0, 1))
        .as("live now").isFalse();
    assertThat(hold.held()).isEqualTo(3);
    assertThat(hold.droppedFull()).isZero();
  }

  @Test
  void aFullHoldDropsAndCountsAndAJobTheSourceCannotServeGoesLive() {
    LiveHold hold = new LiveHold(3, List.of(), false, jobs, detector);
    reading = "j";
    Labels a = task("j", 0, "tm1:9249");
    assertThat(hold.take(a, new long[] {1, 2, 3, 4, 5}, new double[5], 0, 5)).isTrue();
    assertThat(hold.held()).isEqualTo(3);
    assertThat(full).isEqualTo(2);
    assertThat(hold.droppedFull()).isEqualTo(2);
    accepting = false;
    assertThat(hold.take(task("other", 0, "x"), new long[] {1}, new double[1], 0, 1)).isFalse();
    assertThat(hold.take(Labels.of("__name__", "node_disk_io_time_seconds_total"),
        new long[] {1}, new double[1], 0, 1)).as("shared series not held").isFalse();
  }
}
