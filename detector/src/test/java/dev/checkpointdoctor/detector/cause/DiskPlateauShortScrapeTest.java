package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.sentences;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A disk held at its ceiling, scraped every second. The throttler releases I/O in batches (the
 * lab's blk-throttle: up to 4× the ceiling in one second, nothing for the next few), so
 * per-scrape rates swing while every 10 s carries the ceiling: what one second gets early, the
 * next one lacks. Seen in the lab's disk_throttling run (lab/README.md): written bytes ±30 % a
 * scrape, ±3 % over 10 s, and no plateau when judged scrape by scrape.
 */
class DiskPlateauShortScrapeTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void ceilingReleasedInBatchesIsAPlateau(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 2, 1, 1, false);
    double ceiling = Math.max(100, Math.round(s.baseIops * 0.25));
    double[] owed = {0};
    s.run(20, 2.5, (x, f) -> {
      // released this second: the ceiling, plus what was held back last second, minus what is
      // held back now
      double held = ceiling * 0.6 * (x.rnd.nextDouble() - 0.5);
      x.writeIops[0] = ceiling + owed[0] - held;
      owed[0] = held;
      saturatedDisk(x);
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("disk_throttling");
    assertThat(sentences(d)).as(describe(d)).contains("write IOPS on node:").contains("disk busy 9");
    assertThat(d.top().evidence().get(0).observed())
        .isCloseTo(ceiling, org.assertj.core.data.Percentage.withPercentage(5));
  }

  /** Demand that moves from one 10 s to the next is not a ceiling, however it is scraped. */
  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void busyDiskFollowingDemandIsNoPlateau(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 2, 1, 1, false);
    double low = Math.max(100, Math.round(s.baseIops * 0.25));
    double[] level = {low};
    s.run(20, 2.5, (x, f) -> {
      if (x.now % 10_000 == 0) {
        level[0] = low * (0.6 + 0.8 * x.rnd.nextDouble());
      }
      x.writeIops[0] = level[0];
      saturatedDisk(x);
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isNotEqualTo("disk_throttling");
  }

  /** Everything but the write rate: the disk busy and slow, the job waiting on RocksDB. */
  private static void saturatedDisk(FlinkJobSim x) {
    x.readIops[0] = 0;
    x.util[0] = 0.97 + 0.03 * x.rnd.nextDouble();
    x.latencyMs[0] = 40 * x.jitter();
    for (int i = 0; i < x.parallelism; i++) {
      x.busy[1][i] = 950 + 50 * x.rnd.nextDouble();
      x.stopped[i] = x.rnd.nextDouble() < 0.3 ? 1 : 0;
      x.stallUsPerS[i] = 80_000 * x.jitter();
    }
    x.durationMs = x.baseDurationMs * 4 * x.jitter();
  }
}
