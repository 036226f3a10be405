package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A burst-credit disk throttled for three hours, longer than the raw history the rules read
 * (two hours): once no rate from before the ceiling is left to prove it against, the ceiling
 * named at the start must stay named while the disk still runs under it, saturated, rather than
 * give way to the RocksDB stalls it causes.
 */
class DiskCeilingPastTheRawHistoryTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void aCeilingNamedStaysNamedWhileTheDiskStillRunsUnderIt(long seed) {
    assertStaysNamed(seed, false);
  }

  /**
   * The same, with the second TaskManager's disk mostly idle and, from 100 min into the
   * throttle, calm at a rate below its earlier ones: a plateau of its own, proven against its
   * earlier rates when the throttled disk's ceiling no longer can be. A calm idle disk elsewhere
   * says nothing about the disk whose requests queue.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void aCalmDiskElsewhereDoesNotReplaceTheCeilingNamed(long seed) {
    assertStaysNamed(seed, true);
  }

  private static void assertStaysNamed(long seed, boolean calmElsewhere) {
    FlinkJobSim s = new FlinkJobSim(seed, 3, 2, 30, seed % 2 == 0);
    s.run(0, NORMAL_MIN, (x, f) -> { });
    double ceiling = Math.round(1.3 * s.baseIops * 0.5);
    List<String> named = s.namedScrapeByScrape(360, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        if (calmElsewhere && m == 1) {
          if (f >= 100 * 60_000L) {
            x.writeIops[m] = 0.4 * x.baseIops * (1 + 0.003 * x.rnd.nextGaussian());
            x.readIops[m] = 0.1 * x.baseIops * (1 + 0.003 * x.rnd.nextGaussian());
            x.util[m] = 0.2 * (1 + 0.01 * x.rnd.nextGaussian());
          }
          continue;
        }
        FlinkJobSim.throttledDisk(x, m, ceiling);
      }
      FlinkJobSim.rocksDbStalling(x);
    });
    int first = named.indexOf("disk_throttling");
    assertThat(first).as("named within 10 min: %s", named).isBetween(0, 20);
    assertThat(named.subList(first, named.size())).as(describe(diagnosis(s)))
        .allMatch("disk_throttling"::equals);
    assertThat(CauseRankerScenarioTest.sentences(diagnosis(s)))
        .contains("still at or below the ceiling of");
  }
}
