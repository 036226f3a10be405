package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Worked examples: hours of normal operation, then one fault, fed through the detector with real
 * metric names; the top cause, its confidence and the numbers its evidence names. Each seed
 * varies parallelism, TaskManagers, scrape interval, Flink version, scales and noise.
 */
class CauseRankerScenarioTest {
  static final double NORMAL_MIN = 100;

  static FlinkJobSim sim(long seed) {
    int[] scrape = {15, 30, 20};
    return new FlinkJobSim(seed, 2 + (int) (seed % 4), 1 + (int) (seed % 3),
        scrape[(int) (seed % 3)], seed % 2 == 0);
  }

  static Diagnosis diagnosis(FlinkJobSim s) {
    Diagnosis d = s.detector.diagnosis(s.job).orElseThrow(() -> new AssertionError(
        "no diagnosis; open anomalies: " + s.detector.anomalies(s.job, true, Long.MIN_VALUE)));
    return d;
  }

  static String describe(Diagnosis d) {
    return d.ranked().stream().map(h -> h.cause() + " " + String.format("%.2f", h.confidence())
        + " " + h.evidence().stream().map(CauseHypothesis.Evidence::sentence)
        .collect(Collectors.joining(" | "))).collect(Collectors.joining("\n"));
  }

  static String sentences(Diagnosis d) {
    return d.top().evidence().stream().map(CauseHypothesis.Evidence::sentence)
        .collect(Collectors.joining(" "));
  }

  static double confidenceOf(Diagnosis d, Cause c) {
    return d.ranked().stream().filter(h -> h.cause().equals(c.id()))
        .mapToDouble(CauseHypothesis::confidence).findFirst().orElse(0);
  }

  /** The evidence sentences of one cause's hypothesis (empty when it was not ranked). */
  static java.util.List<String> evidenceOf(Diagnosis d, Cause c) {
    return d.ranked().stream().filter(h -> h.cause().equals(c.id()))
        .flatMap(h -> h.evidence().stream()).map(CauseHypothesis.Evidence::sentence).toList();
  }

  /** The sink saturated with no back-pressure of its own; everything upstream back-pressured. */
  static FlinkJobSim.Scenario sinkBottleneck() {
    return (x, f) -> {
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[2][i] = 970 + 30 * x.rnd.nextDouble();
        x.bp[2][i] = 5 * x.rnd.nextDouble();
        x.bp[0][i] = 850 + 150 * x.rnd.nextDouble();
        x.bp[1][i] = 800 + 150 * x.rnd.nextDouble();
        x.startDelayMs[1][i] = 20_000 * x.jitter();
        x.startDelayMs[2][i] = 25_000 * x.jitter();
      }
      x.durationMs = (x.baseDurationMs + 25_000) * x.jitter();
    };
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void diskThrottlingNamesTheCeilingAndWhenItBegan(long seed) {
    FlinkJobSim s = sim(seed);
    double ceiling = Math.max(100, Math.round(s.baseIops * 0.25));
    s.run(NORMAL_MIN, 40, (x, f) -> {
      FlinkJobSim.diskCeiling(ceiling).apply(x, f);
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[1][i] = 950 + 50 * x.rnd.nextDouble();
        x.bp[0][i] = 800 + 150 * x.rnd.nextDouble();
        x.delayedRate[i] = x.rnd.nextDouble() < 0.5 ? 8 << 20 : 0;
        x.stallUsPerS[i] = 80_000 * x.jitter();
      }
      x.durationMs = x.baseDurationMs * 4 * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("disk_throttling");
    assertThat(d.confidence()).isBetween(0.7, 1.0);
    String level = Fmt.num(Math.round(ceiling * 0.8));
    assertThat(sentences(d)).as(describe(d))
        .containsPattern("write IOPS on node:worker-\\d/nvme1n1 flat at [0-9,]+ ± [0-9.]+ since "
            + JobEvidence.clock(s.faultStartAfter(NORMAL_MIN)))
        .contains("disk busy 9");
    double flat = d.top().evidence().get(0).observed();
    assertThat(flat).isCloseTo(ceiling * 0.8, org.assertj.core.data.Percentage.withPercentage(2));
    assertThat(level).isNotEmpty();
    // the stall is real but explained: it ranks below the disk, and says why
    assertThat(confidenceOf(d, Cause.ROCKSDB_WRITE_STALL)).isLessThan(d.confidence());
    assertThat(d.ranked().stream().filter(h -> h.cause().equals("rocksdb_write_stall"))
        .flatMap(h -> h.evidence().stream()).map(e -> e.sentence()))
        .anyMatch(t -> t.matches("RocksDB stalls since .* follow the disk ceiling since .*"));
  }

  /**
   * Ninety seconds into a throttle the ceiling is already plain on the points after the onset,
   * though the two-minute recent slice still holds healthy, wobbling ones.
   */
  @ParameterizedTest
  @ValueSource(longs = {3, 6})
  void diskThrottlingIsJudgedOnWhatCameAfterTheOnset(long seed) {
    FlinkJobSim s = sim(seed);
    double ceiling = Math.max(100, Math.round(s.baseIops * 0.25));
    s.run(NORMAL_MIN, 1.5, (x, f) -> {
      FlinkJobSim.diskCeiling(ceiling).apply(x, f);
      x.durationMs = x.baseDurationMs * 4 * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("disk_throttling");
  }

  /** A gp2 bucket caps reads and writes together: the mix swings, the sum is flat. */
  @ParameterizedTest
  @ValueSource(longs = {1, 3})
  void diskThrottlingSeenInReadPlusWriteWhenTheMixSwings(long seed) {
    FlinkJobSim s = sim(seed);
    double ceiling = Math.max(100, Math.round(s.baseIops * 0.25));
    s.run(NORMAL_MIN, 40, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        double writeShare = 0.3 + 0.6 * x.rnd.nextDouble(); // uploads and compactions alternate
        x.writeIops[m] = ceiling * writeShare;
        x.readIops[m] = ceiling * (1 - writeShare) * (1 + 0.004 * x.rnd.nextGaussian());
        x.util[m] = 0.98 + 0.02 * x.rnd.nextDouble();
        x.latencyMs[m] = 15 * x.jitter();
      }
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[1][i] = 950 + 50 * x.rnd.nextDouble();
        x.delayedRate[i] = x.rnd.nextDouble() < 0.5 ? 8 << 20 : 0;
        x.stallUsPerS[i] = 80_000 * x.jitter();
      }
      x.durationMs = x.baseDurationMs * 4 * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("disk_throttling");
    assertThat(sentences(d)).as(describe(d)).containsPattern(
        "read\\+write IOPS on node:worker-\\d/nvme1n1 flat at [0-9,]+ ± [0-9.]+ since "
            + JobEvidence.clock(s.faultStartAfter(NORMAL_MIN)));
    assertThat(d.top().evidence().get(0).observed())
        .isCloseTo(ceiling, org.assertj.core.data.Percentage.withPercentage(3));
  }

  @ParameterizedTest
  @ValueSource(longs = {4, 5})
  void rocksDbWriteStallWithoutADiskCeiling(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 40, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        x.writeIops[m] = x.baseIops * 1.4 * (1 + 0.25 * x.rnd.nextGaussian());
        x.util[m] = 0.7 * x.jitter();
        x.latencyMs[m] = 2 * x.jitter();
      }
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[1][i] = 950 + 50 * x.rnd.nextDouble();
        x.bp[0][i] = 700 + 200 * x.rnd.nextDouble();
        x.delayedRate[i] = x.rnd.nextDouble() < 0.7 ? 16 << 20 : 0;
        x.stopped[i] = x.rnd.nextDouble() < 0.1 ? 1 : 0;
        x.l0[i] = 24 + x.rnd.nextInt(8);
        x.stallUsPerS[i] = 250_000 * x.jitter();
      }
      x.durationMs = x.baseDurationMs * 3 * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("rocksdb_write_stall");
    assertThat(d.confidence()).isBetween(0.6, 1.0);
    assertThat(sentences(d)).as(describe(d)).containsPattern("level-0 files at operator:window/")
        .contains("RocksDB slows writes at 20");
    assertThat(confidenceOf(d, Cause.DISK_THROTTLING)).as(describe(d)).isLessThan(0.35);
  }

  @ParameterizedTest
  @ValueSource(longs = {6, 7})
  void stateGrowthForecastsWhenCheckpointsTimeOut(long seed) {
    FlinkJobSim s = sim(seed);
    double faultMin = 150;
    s.run(NORMAL_MIN, faultMin, (x, f) -> {
      double hours = f / 3_600_000.0;
      x.fullSize = x.baseSize * (1 + hours) * (1 + 0.01 * x.rnd.nextGaussian());
      x.durationMs = x.baseDurationMs * (1 + hours) * (1 + 0.04 * x.rnd.nextGaussian());
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("state_growth");
    assertThat(d.confidence()).isBetween(0.7, 1.0);
    // By hand: duration = base × (1 + h) → slope base per hour; at the end h = 2.5.
    double expectedHours = (600_000 - s.baseDurationMs * 3.5) / s.baseDurationMs;
    assertThat(d.hoursToTimeout()).as(describe(d))
        .isCloseTo(expectedHours, org.assertj.core.data.Percentage.withPercentage(15));
    assertThat(sentences(d)).contains("checkpoints reach the timeout (10.0 min) in ~"
        + String.format(java.util.Locale.ROOT, "%.0f", d.hoursToTimeout()) + " h")
        .contains("a straight line fits better than compounding");
    assertThat(confidenceOf(d, Cause.CHECKPOINT_STORAGE_SLOW)).isLessThan(0.35);
  }

  @ParameterizedTest
  @ValueSource(longs = {8, 9})
  void checkpointStorageSlowWhenCheckpointsExpireWithNothingLocal(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 45, (x, f) -> x.durationMs = 15 * 60_000);
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_storage_slow");
    assertThat(d.confidence()).isBetween(0.6, 1.0);
    assertThat(d.checkpointsFailing()).isTrue();
    assertThat(sentences(d)).contains("LeaseExpiredException")
        .containsPattern("The last completed checkpoint is \\d+\\.\\d min old");
    assertThat(confidenceOf(d, Cause.STATE_GROWTH)).isZero();
  }

  /**
   * Expiring checkpoints whose barriers arrive tens of seconds late are stuck in the data path,
   * not in the upload, even before the back-pressure gauges (60 s averages) have risen.
   */
  @ParameterizedTest
  @ValueSource(longs = {8, 9})
  void lateBarriersAreNotSlowStorage(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 45, (x, f) -> {
      x.durationMs = 15 * 60_000;
      for (int i = 0; i < x.parallelism; i++) {
        x.startDelayMs[1][i] = 400_000 * x.jitter();
        x.startDelayMs[2][i] = 500_000 * x.jitter();
      }
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isNotEqualTo("checkpoint_storage_slow");
    assertThat(evidenceOf(d, Cause.CHECKPOINT_STORAGE_SLOW)).as(describe(d))
        .anyMatch(t -> t.startsWith("But the barrier took"));
  }

  @ParameterizedTest
  @ValueSource(longs = {10, 11})
  void slowUploadThatStillCompletesIsStorageNotTheInterval(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 45, (x, f) -> x.durationMs = 5 * 60_000 * x.jitter());
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_storage_slow");
    assertThat(confidenceOf(d, Cause.CHECKPOINT_INTERVAL_TOO_SHORT))
        .isLessThan(d.confidence());
  }

  @ParameterizedTest
  @ValueSource(longs = {12, 13})
  void backpressureNamesTheBottleneckTask(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 30, sinkBottleneck());
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("backpressure");
    assertThat(d.confidence()).isBetween(0.7, 1.0);
    assertThat(sentences(d)).containsPattern("Bottleneck: task Sink:_kafka subtask \\d is busy");
    assertThat(confidenceOf(d, Cause.DATA_SKEW)).isLessThan(0.35);
  }

  /**
   * Behind a bottleneck, barriers reach the back-pressured subtasks unevenly: one of them waits
   * far longer than its peers. It waits on its outputs, it does not hold a hot key.
   */
  @ParameterizedTest
  @ValueSource(longs = {12, 13})
  void aLaggingSubtaskThatIsBackPressuredItselfIsNotAHotKey(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 10, (x, f) -> {
      sinkBottleneck().apply(x, f);
      for (int i = 0; i < x.parallelism; i++) {
        x.startDelayMs[1][i] = i == 0 ? 30_000 * x.jitter() : 300 * x.jitter();
      }
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("backpressure");
    assertThat(evidenceOf(d, Cause.DATA_SKEW)).as(describe(d))
        .anyMatch(t -> t.startsWith("But task window subtask 0 is back-pressured itself"));
  }

  /**
   * Four minutes into a back-pressure fault the rules must already read it: their "recent" slice
   * starts near the onset instead of reaching 10 minutes back into healthy data.
   */
  @ParameterizedTest
  @ValueSource(longs = {10, 11})
  void backpressureIsNamedWithinMinutesOfItsOnset(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 4, sinkBottleneck());
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("backpressure");
  }

  /** Throughput that drops for another reason lowers IOPS too, but leaves the disk idle. */
  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void aLowerIoRateOnAnIdleDiskIsNotAThrottle(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 30, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        x.writeIops[m] = x.baseIops * 0.4 * (1 + 0.004 * x.rnd.nextGaussian());
        x.readIops[m] = x.baseIops * 0.1 * (1 + 0.004 * x.rnd.nextGaussian());
        x.util[m] = 0.2 * x.jitter();
      }
      x.durationMs = x.baseDurationMs * 4 * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(confidenceOf(d, Cause.DISK_THROTTLING)).as(describe(d)).isLessThan(0.35);
    assertThat(evidenceOf(d, Cause.DISK_THROTTLING))
        .anyMatch(t -> t.startsWith("But the disk is busy only 2"));
  }

  @ParameterizedTest
  @ValueSource(longs = {14, 15})
  void dataSkewNamesTheHotSubtask(long seed) {
    FlinkJobSim s = sim(seed);
    int hot = (int) (seed % s.parallelism);
    s.run(NORMAL_MIN, 30, (x, f) -> {
      x.busy[1][hot] = 990 + 10 * x.rnd.nextDouble();
      x.recordsIn[1][hot] *= 5;
      x.startDelayMs[1][hot] = 40_000 * x.jitter();
      for (int i = 0; i < x.parallelism; i++) {
        x.bp[0][i] = 600 + 200 * x.rnd.nextDouble();
      }
      x.durationMs = (x.baseDurationMs + 40_000) * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("data_skew");
    assertThat(d.confidence()).isBetween(0.7, 1.0);
    assertThat(sentences(d)).contains("task window subtask " + hot);
    assertThat(confidenceOf(d, Cause.BACKPRESSURE)).isLessThan(d.confidence() - 0.2);
  }

  @ParameterizedTest
  @ValueSource(longs = {16, 17})
  void unalignedCheckpointsInflateUnderBackpressure(long seed) {
    FlinkJobSim s = sim(seed);
    s.persistedInFullSize = seed % 2 == 0; // growing in-flight data is not growing state
    s.run(NORMAL_MIN, 30, (x, f) -> {
      x.persisted = (64L << 20) + (2L << 30) * (f / 1_800_000.0);
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[2][i] = 980 + 20 * x.rnd.nextDouble();
        x.bp[0][i] = 850 + 150 * x.rnd.nextDouble();
        x.bp[1][i] = 800 + 150 * x.rnd.nextDouble();
      }
      x.durationMs = x.baseDurationMs * 2 * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("unaligned_checkpoint_inflation");
    assertThat(d.confidence()).isBetween(0.7, 1.0);
    assertThat(sentences(d)).containsPattern("Checkpoints persist \\d+\\.\\d (MiB|GiB) of in-flight");
    assertThat(confidenceOf(d, Cause.STATE_GROWTH)).isLessThan(0.35);
  }

  @ParameterizedTest
  @ValueSource(longs = {18, 19})
  void gcPressureOnAFullHeap(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 30, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        x.gcMsPerS[m] = 280 * x.jitter();
        x.heap[m] = 0.95 + 0.04 * x.rnd.nextDouble();
      }
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[1][i] = 900 + 50 * x.rnd.nextDouble();
      }
      x.durationMs = x.baseDurationMs * 2.5 * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("gc_pressure");
    assertThat(d.confidence()).isBetween(0.7, 1.0);
    assertThat(sentences(d)).containsPattern("tm:flink_tm_\\d spends \\d+ ms/s in garbage")
        .containsPattern("Heap at tm:flink_tm_\\d is 9\\d % full");
  }

  @ParameterizedTest
  @ValueSource(longs = {20, 21})
  void cpuThrottlingOfTheTaskManagerContainers(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 30, (x, f) -> {
      for (int m = 0; m < x.tms; m++) {
        x.cpuThrottled[m] = 0.55 + 0.1 * x.rnd.nextDouble();
      }
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[1][i] = 880 + 80 * x.rnd.nextDouble();
      }
      x.durationMs = x.baseDurationMs * 2.5 * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("cpu_throttling");
    // 0.65 without the busy tasks' support: a 100-minute-old job's baselines are young and judge
    // with a wider band (SignalTracker.YOUTH_WIDENING), so the busy rise of seed 21 stays inside
    assertThat(d.confidence()).isBetween(0.65, 1.0);
    assertThat(sentences(d)).containsPattern(
        "container:flink-tm-\\d/flink-main-container is CPU-throttled in [56]\\d % of CFS");
  }

  /**
   * A young job's checkpoint size drifts up as RocksDB files pile up between compactions; when
   * checkpoints at the same time become ten times slower, the drift is not their cause.
   */
  @ParameterizedTest
  @ValueSource(longs = {20, 21})
  void aSmallStateDriftDoesNotExplainATenfoldSlowerCheckpoint(long seed) {
    FlinkJobSim s = sim(seed);
    s.intervalMs = Math.round(s.baseDurationMs * 10 / 1000) * 1000;
    s.run(NORMAL_MIN, 40, (x, f) -> {
      x.durationMs = x.intervalMs * 1.05 * x.jitter();
      x.fullSize = x.baseSize * (1 + 0.5 * f / 2_400_000.0)
          * (1 + 0.002 * x.rnd.nextGaussian());
    });
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_interval_too_short");
    assertThat(confidenceOf(d, Cause.STATE_GROWTH)).as(describe(d)).isLessThan(0.35);
  }

  @ParameterizedTest
  @ValueSource(longs = {22, 23})
  void intervalTooShortWhenCheckpointsRunBackToBack(long seed) {
    FlinkJobSim s = sim(seed);
    s.intervalMs = Math.round(s.baseDurationMs * 2 / 1000) * 1000;
    s.run(NORMAL_MIN, 40, (x, f) -> x.durationMs = x.intervalMs * 1.3 * x.jitter());
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_interval_too_short");
    assertThat(d.confidence()).isBetween(0.6, 1.0);
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("the interval looked like ([0-9.]+) s").matcher(sentences(d));
    assertThat(m.find()).as(sentences(d)).isTrue();
    assertThat(Double.parseDouble(m.group(1)) * 1000).isCloseTo(s.intervalMs,
        org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(sentences(d)).contains("A checkpoint is in progress in");
  }

  /**
   * Redeployed with an interval shorter than the checkpoints take, which take as long as before:
   * no duration anomaly, a new job_id that relearns most baselines, and yet the job now spends
   * all its time checkpointing. Its busy share, judged against the share before the redeploy,
   * opens the anomaly that names the interval.
   */
  @ParameterizedTest
  @ValueSource(longs = {24, 25})
  void aRedeployThatShortensTheIntervalOpensTheBusyShareAndNamesTheInterval(long seed) {
    FlinkJobSim s = sim(seed);
    s.intervalMs = Math.round(s.baseDurationMs * 4 / 1000) * 1000;
    s.run(NORMAL_MIN, 0, (x, f) -> { });
    s.intervalMs = Math.max(1000, Math.round(s.baseDurationMs / 2 / 1000) * 1000);
    s.restart("00000000000000000000000000000c03");
    s.run(0, 40, (x, f) -> { });
    assertThat(s.detector.anomalies(s.job, true, Long.MIN_VALUE))
        .extracting(dev.checkpointdoctor.detector.model.Anomaly::signal)
        .containsExactly(dev.checkpointdoctor.detector.model.Signal.CHECKPOINT_BUSY_SHARE);
    Diagnosis d = diagnosis(s);
    assertThat(d.cause()).as(describe(d)).isEqualTo("checkpoint_interval_too_short");
    assertThat(d.signal()).isEqualTo("checkpoint_busy_share");
  }

  /** The same redeploy keeping the interval: checkpoints still leave the job its time. */
  @ParameterizedTest
  @ValueSource(longs = {24, 25})
  void aRedeployKeepingTheIntervalOpensNothing(long seed) {
    FlinkJobSim s = sim(seed);
    s.intervalMs = Math.round(s.baseDurationMs * 4 / 1000) * 1000;
    s.run(NORMAL_MIN, 0, (x, f) -> { });
    s.restart("00000000000000000000000000000c03");
    s.run(0, 40, (x, f) -> { });
    assertThat(s.detector.anomalies(s.job, null, Long.MIN_VALUE)).isEmpty();
  }

  /**
   * The first minutes of a sink bottleneck: the sink is busy, one keyed subtask's barrier is
   * already late while its back-pressure has not risen yet, and it is no busier than its peers.
   * A hot key would keep its subtask busy: the late barrier alone is not a skew.
   */
  @ParameterizedTest
  @ValueSource(longs = {26, 27})
  void aLateBarrierAtASubtaskNoBusierThanItsPeersIsNotAHotKey(long seed) {
    FlinkJobSim s = sim(seed);
    s.run(NORMAL_MIN, 8, (x, f) -> {
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[2][i] = 970 + 30 * x.rnd.nextDouble();
      }
      x.startDelayMs[1][0] = 5_000 * x.jitter();
      x.durationMs = (x.baseDurationMs + 5_000) * x.jitter();
    });
    Diagnosis d = diagnosis(s);
    assertThat(confidenceOf(d, Cause.DATA_SKEW)).as(describe(d))
        .isLessThan(CauseRanker.MIN_CONFIDENCE);
    assertThat(evidenceOf(d, Cause.DATA_SKEW)).as(describe(d))
        .anyMatch(t -> t.startsWith("But task window subtask 0 is no busier than its peers"));
  }

  /** A job that always checkpointed back to back, then back-pressured: not the interval. */
  @ParameterizedTest
  @ValueSource(longs = {28, 29})
  void checkpointsThatRanBackToBackAllAlongDoNotBlameTheInterval(long seed) {
    FlinkJobSim s = sim(seed);
    s.intervalMs = Math.max(1000, Math.round(s.baseDurationMs / 2 / 1000) * 1000);
    s.run(NORMAL_MIN, 20, sinkBottleneck());
    Diagnosis d = diagnosis(s);
    assertThat(evidenceOf(d, Cause.CHECKPOINT_INTERVAL_TOO_SHORT)).as(describe(d))
        .anyMatch(t -> t.startsWith("But checkpoints ran back to back before the trouble too"));
    assertThat(confidenceOf(d, Cause.CHECKPOINT_INTERVAL_TOO_SHORT)).as(describe(d))
        .isLessThan(CauseRanker.MIN_CONFIDENCE);
  }
}
