package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The detector reads every signal family 1 means to give it, in every deployment layout the
 * family draws (Flink 1.20 / 2.x, both RocksDB name shapes, heap backend, Kubernetes and bare
 * metal): the first three normal hours of each fault job of seed 1 are replayed and the
 * baselines listed.
 */
class Family1SignalsTest {
  private static final long PREFIX_MS = 3 * 3_600_000L;

  @TestFactory
  Stream<DynamicTest> everyLayoutGivesEveryExpectedSignal() {
    return new Family1().scenarios(1).stream()
        .filter(s -> ScenarioKind.of(s.truth()) == ScenarioKind.FAULT)
        .map(s -> DynamicTest.dynamicTest(s.truth().name(), () -> check(s)));
  }

  private static void check(GeneratedScenario s) {
    ScenarioSpec spec = ((SimulatedScenario) s).spec();
    OfflineReplay replay = new OfflineReplay(DetectorSettings.defaults());
    long until = s.truth().startMs() + PREFIX_MS;
    Set<String> diskHosts = new java.util.TreeSet<>();
    GeneratedScenario prefix = new GeneratedScenario() {
      @Override
      public ScenarioManifest.Entry truth() {
        return s.truth();
      }

      @Override
      public void play(SampleSink sink) {
        try {
          s.play((Labels l, long ts, double v) -> {
            if (ts >= until) {
              throw new Enough();
            }
            if (l.get(Labels.METRIC_NAME).equals("node_disk_io_time_seconds_total")) {
              diskHosts.add(l.get("instance"));
            }
            sink.sample(l, ts, v);
          });
        } catch (Enough e) {
          // the prefix is all this test needs
        }
      }
    };
    replay.replay(prefix);
    List<BaselineSummary> baselines = replay.detector().baselines(s.truth().job());
    Set<Signal> seen = baselines.stream().filter(b -> b.observations() > 0)
        .map(BaselineSummary::signal).collect(Collectors.toCollection(() ->
            EnumSet.noneOf(Signal.class)));
    Set<Signal> expected = EnumSet.of(Signal.CHECKPOINT_DURATION, Signal.CHECKPOINT_SIZE,
        Signal.CHECKPOINT_FULL_SIZE, Signal.CHECKPOINT_AGE, Signal.CHECKPOINT_START_DELAY,
        Signal.BUSY, Signal.BACKPRESSURE, Signal.RECORDS_IN, Signal.GC_TIME, Signal.HEAP_USAGE,
        Signal.DISK_WRITE_IOPS, Signal.DISK_READ_IOPS, Signal.DISK_UTILIZATION,
        Signal.DISK_LATENCY);
    if (spec.rocksdb() != ScenarioSpec.RocksDbShape.NONE) {
      expected.addAll(EnumSet.of(Signal.ROCKSDB_PENDING_COMPACTION, Signal.ROCKSDB_L0_FILES,
          Signal.ROCKSDB_STALL));
    }
    if (spec.kubernetes()) {
      expected.add(Signal.CPU_THROTTLING);
    }
    if (spec.unaligned()) {
      expected.add(Signal.CHECKPOINT_PERSISTED_DATA);
    } else {
      expected.add(Signal.CHECKPOINT_ALIGNMENT);
    }
    assertThat(seen).as(s.truth().description()).containsAll(expected);
    // node series are joined for every TaskManager host (two TaskManagers may share one),
    // container series for every TaskManager pod
    long diskScopes = baselines.stream().filter(b -> b.signal() == Signal.DISK_UTILIZATION)
        .count();
    assertThat(diskScopes).as("disk scopes of " + diskHosts).isEqualTo(diskHosts.size());
    if (spec.kubernetes()) {
      assertThat(baselines.stream().filter(b -> b.signal() == Signal.CPU_THROTTLING).count())
          .as("container scopes").isEqualTo(spec.taskManagers());
    }
  }

  /** Stops a play once the prefix is done. */
  private static final class Enough extends RuntimeException {
    Enough() {
      super(null, null, false, false);
    }
  }
}
