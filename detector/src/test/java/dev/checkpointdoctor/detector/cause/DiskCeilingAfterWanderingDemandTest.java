package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.evidenceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A burst-credit disk whose demand wandered over the hours before its credits ran out (a slow
 * swing of a quarter around its mean, a few per cent of noise on top), as the family 1 disks'
 * did: the ceiling is flat to a per cent, the disk saturated, RocksDB stalls behind it. The
 * ceiling is what explains the stalls, so it is named, not the stalls.
 */
class DiskCeilingAfterWanderingDemandTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void aFlatCeilingAfterWanderingDemandIsNamedBeforeTheStallsItCauses(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 3, 2, 30, seed % 2 == 0);
    double period = 40 * 60_000.0;
    s.run(0, NORMAL_MIN, (x, f) -> {
      double swing = 1 + 0.25 * Math.sin(2 * Math.PI * f / period);
      for (int m = 0; m < x.tms; m++) {
        x.writeIops[m] = x.baseIops * swing * (1 + 0.03 * x.rnd.nextGaussian());
        x.readIops[m] = 0.3 * x.baseIops * swing * (1 + 0.03 * x.rnd.nextGaussian());
      }
    });
    double ceiling = Math.round(normalTotalIops(s) * 0.5);
    s.run(0, 7, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        FlinkJobSim.throttledDisk(x, m, ceiling);
      }
      FlinkJobSim.rocksDbStalling(x);
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("disk_throttling");
    assertThat(evidenceOf(d, Cause.ROCKSDB_WRITE_STALL)).as(describe(d))
        .anyMatch(t -> t.matches("RocksDB stalls since .* follow the disk ceiling since .*"));
  }

  /** Read plus write IOPS of the simulated job's normal mix (write IOPS and 30 % reads). */
  private static double normalTotalIops(FlinkJobSim s) {
    return 1.3 * s.baseIops;
  }
}
