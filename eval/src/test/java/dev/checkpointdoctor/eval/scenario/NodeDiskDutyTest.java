package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node's disk counters grow over the whole scrape step, so the extra I/O of checkpoints shows
 * by the share of the step they run, not by whether one happens to run at the scrape's instant.
 * With intervals that divide the step the instant is phase-locked: a healthy job's disk read
 * busier for hours, and opened anomalies on train controls (seeds 64, 79).
 */
class NodeDiskDutyTest {
  private static final long PREFIX_MS = 12 * 3_600_000L;

  @Test
  void diskIoDoesNotDependOnWhetherACheckpointRunsAtTheScrapeInstant() {
    int checked = 0;
    for (GeneratedScenario s : new Family1().scenarios(1)) {
      ScenarioSpec spec = ((SimulatedScenario) s).spec();
      if (ScenarioKind.of(s.truth()) != ScenarioKind.HEALTHY || spec.traits() == null
          || spec.traits().exporterEvery() != 1
          || spec.control() == ScenarioSpec.Control.RESTART) {
        continue;
      }
      double[] ratio = ioWhileCheckpointingOverIdle(s);
      if (ratio[1] < 50) {
        continue; // its checkpoints are too short to be caught running at a scrape often
      }
      assertThat(ratio[0]).as("%s: disk I/O per scrape while a checkpoint runs at the scrape, "
          + "over the others", spec.name()).isBetween(0.93, 1.07);
      checked++;
    }
    // seed 1 has controls whose checkpoints run at a scrape often enough to compare
    assertThat(checked).isGreaterThan(0);
  }

  /** {I/O per step with a checkpoint in progress / without, fewer of the two groups}. */
  private static double[] ioWhileCheckpointingOverIdle(GeneratedScenario s) {
    long until = s.truth().startMs() + PREFIX_MS;
    List<Double> inProgress = new ArrayList<>();
    List<Double> io = new ArrayList<>();
    String[] node = new String[1];
    double[] last = {Double.NaN, Double.NaN};
    double[] readsThisStep = {0};
    try {
      s.play((Labels l, long ts, double v) -> {
        if (ts >= until) {
          throw new Enough();
        }
        String name = l.get(Labels.METRIC_NAME);
        if (name.equals("flink_jobmanager_job_numberOfInProgressCheckpoints")) {
          inProgress.add(v);
          return;
        }
        boolean reads = name.equals("node_disk_reads_completed_total");
        if (!reads && !name.equals("node_disk_writes_completed_total")) {
          return;
        }
        if (node[0] == null) {
          node[0] = l.get("instance");
        }
        if (!node[0].equals(l.get("instance"))) {
          return;
        }
        int k = reads ? 0 : 1;
        if (!reads && !Double.isNaN(last[1])) {
          io.add(v - last[1] + readsThisStep[0]);
        }
        if (reads) {
          readsThisStep[0] = Double.isNaN(last[0]) ? 0 : v - last[0];
        }
        last[k] = v;
      });
    } catch (Enough e) {
      // twelve hours are enough
    }
    double busy = 0;
    double idle = 0;
    int nBusy = 0;
    int nIdle = 0;
    // the node's increment k covers the tick of the coordinator's sample k + 1
    for (int k = 0; k < io.size() && k + 1 < inProgress.size(); k++) {
      if (inProgress.get(k + 1) > 0) {
        busy += io.get(k);
        nBusy++;
      } else {
        idle += io.get(k);
        nIdle++;
      }
    }
    return new double[] {(busy / nBusy) / (idle / nIdle), Math.min(nBusy, nIdle)};
  }

  private static final class Enough extends RuntimeException {
    Enough() {
      super(null, null, false, false);
    }
  }
}
