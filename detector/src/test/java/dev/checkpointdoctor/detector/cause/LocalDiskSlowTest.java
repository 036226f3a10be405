package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RocksDB's local dir on a volume that is slow per I/O without a ceiling (NFS-like: latency
 * regimes of 20–400 ms with scatter, the rate following it; both TaskManagers on it) against a
 * burstable volume at its ceiling: the first is local_disk_slow once the rate has had the windows
 * a ceiling needs, the second never is.
 */
class LocalDiskSlowTest {

  /** Even seeds report Flink 2.x names and no RocksDB stall (as 2.3.0 did in the lab). */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void aSlowDiskWithoutACeilingIsNamedSlowAndStaysNamed(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 3, 2, 15, seed % 2 == 0);
    s.run(0, NORMAL_MIN, (x, f) -> { });
    double[] regime = new double[s.tms];
    List<String> named = s.namedScrapeByScrape(120, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        if (regime[m] == 0 || x.rnd.nextDouble() < 0.15) {
          regime[m] = 20 * Math.pow(20, x.rnd.nextDouble()); // 20–400 ms, held a few scrapes
        }
        slowDisk(x, m, regime[m]);
      }
      if (!x.flink2) {
        FlinkJobSim.rocksDbStalling(x);
      } else {
        x.durationMs = x.baseDurationMs * 3 * x.jitter();
      }
    });
    Diagnosis d = diagnosis(s);
    int first = named.indexOf("local_disk_slow");
    // judged once ten 10 s windows follow the binding: about 25 scrapes of 15 s at the latest
    assertThat(first).as("named within 10 min: %s", named).isBetween(0, 40);
    // stays named: the rate's upper envelope may read as a ceiling for a few scrapes
    // (DiskPlateau lets a run dip below its level), not longer
    List<String> after = named.subList(first, named.size());
    assertThat(after.stream().filter("local_disk_slow"::equals).count())
        .as("scrapes naming it after the first: %s", after)
        .isGreaterThanOrEqualTo((long) Math.ceil(0.95 * after.size()));
    assertThat(d.cause()).as(describe(d)).isEqualTo("local_disk_slow");
    assertThat(CauseRankerScenarioTest.sentences(d)).contains("no ceiling holds the rate");
  }

  /**
   * Seed 1: the other TaskManager's disk, on the same slow volume, read as flat for a few scrapes
   * (twice, 19 and 60 scrapes in) and named a ceiling over the disk whose requests wait longest.
   * A plateau on another disk than the slowest, swinging one does not outrank it.
   */
  @ParameterizedTest
  @ValueSource(longs = {1})
  void aCalmStretchOnTheOtherSlowDiskIsNotACeiling(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 3, 2, 15, false);
    s.run(0, NORMAL_MIN, (x, f) -> { });
    double[] regime = new double[s.tms];
    List<String> named = s.namedScrapeByScrape(120, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        if (regime[m] == 0 || x.rnd.nextDouble() < 0.15) {
          regime[m] = 20 * Math.pow(20, x.rnd.nextDouble());
        }
        slowDisk(x, m, regime[m]);
      }
      FlinkJobSim.rocksDbStalling(x);
    });
    int first = named.indexOf("local_disk_slow");
    assertThat(first).as("named: %s", named).isGreaterThanOrEqualTo(0);
    assertThat(named.subList(first, named.size())).as(describe(diagnosis(s)))
        .allMatch("local_disk_slow"::equals);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void aDiskAtItsCeilingIsNeverNamedSlow(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 3, 2, 15, seed % 2 == 0);
    s.run(0, NORMAL_MIN, (x, f) -> { });
    double ceiling = Math.round(1.3 * s.baseIops * 0.5);
    List<String> named = s.namedScrapeByScrape(120, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        FlinkJobSim.throttledDisk(x, m, ceiling);
      }
      FlinkJobSim.rocksDbStalling(x);
    });
    assertThat(named).as(describe(diagnosis(s))).doesNotContain("local_disk_slow")
        .contains("disk_throttling");
  }

  /**
   * A disk whose every I/O takes {@code latencyMs} (log-normal scatter around it), busy all the
   * time: it completes about one I/O per latency per queue slot, so the rate follows the latency.
   */
  private static void slowDisk(FlinkJobSim x, int m, double latencyMs) {
    double lat = latencyMs * Math.exp(0.4 * x.rnd.nextGaussian());
    double iops = 4 * 1000 / lat;
    x.writeIops[m] = 0.8 * iops;
    x.readIops[m] = 0.2 * iops;
    x.util[m] = 0.96 + 0.04 * x.rnd.nextDouble();
    x.latencyMs[m] = lat;
  }
}
