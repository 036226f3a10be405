package dev.checkpointdoctor.detector.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.extract.ScrapeFixture.Sample;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Replays the two real scrapes three times (T, T+10 s with progress, T+20 s unchanged). */
class ScrapeReplayTest {
  static final String JOB = "feas_rocksdb_job";
  static final long T1 = 1_796_211_310_000L;
  static final long T2 = T1 + 10_000;
  static final long T3 = T2 + 10_000;

  private final SignalCatalog catalog = SignalCatalog.defaults();
  private final SignalExtractor x = new SignalExtractor(catalog, DetectorSettings.defaults());

  /** Adds the labels Prometheus' scrape attaches, so job_name must win over job. */
  static List<Sample> scrape(String resource) {
    List<Sample> out = new ArrayList<>();
    for (Sample s : ScrapeFixture.load(resource)) {
      Map<String, String> m = new TreeMap<>(s.labels().toMap());
      m.put("job", "flink");
      m.put("instance", "localhost:9249");
      out.add(new Sample(Labels.fromMap(m), s.value()));
    }
    return out;
  }

  /** The second scrape: one more completed checkpoint and some progress. */
  static Sample advance(Sample s) {
    String n = s.name();
    double v = s.value();
    double nv = switch (n) {
      case "flink_jobmanager_job_lastCompletedCheckpointId",
          "flink_jobmanager_job_numberOfCompletedCheckpoints" -> v + 1;
      case "flink_jobmanager_job_lastCheckpointDuration" -> 333;
      case "flink_jobmanager_job_lastCheckpointSize" -> v + 1000;
      case "flink_jobmanager_job_lastCheckpointCompletedTimestamp" -> T2 - 2500;
      case "flink_jobmanager_job_numberOfFailedCheckpoints" -> v + 2;
      case "flink_taskmanager_job_task_checkpointStartDelayNanos" ->
          isSubtask(s, "grow_state", "0") ? 4.2e7 : v;
      case "flink_taskmanager_job_task_operator_rocksdb_stall_micros" ->
          s.labels().get("subtask_index").equals("0") ? v + 50_000 : v;
      case "flink_taskmanager_Status_JVM_GarbageCollector_All_TimeMsPerSecond" -> 12.5;
      case "flink_taskmanager_Status_JVM_Memory_Heap_Used" -> 6.320816128E9 / 2;
      default -> v;
    };
    return new Sample(s.labels(), nv);
  }

  static boolean isSubtask(Sample s, String task, String index) {
    return task.equals(s.labels().get("task_name"))
        && index.equals(s.labels().get("subtask_index"));
  }

  List<Observation> feed(List<Sample> samples, long ts) {
    List<Observation> out = new ArrayList<>();
    for (Sample s : samples) {
      MetricRule r = catalog.ruleFor(s.name());
      if (r != null) {
        x.onSample(r, s.labels(), ts, s.value(), out::add);
      }
    }
    return out;
  }

  static List<Observation> of(List<Observation> obs, Signal signal) {
    return obs.stream().filter(o -> o.signal() == signal).toList();
  }

  static List<Observation> jobScope(List<Observation> obs) {
    return obs.stream().filter(o -> o.scope().equals("job")).toList();
  }

  static Observation job(Signal s, long ts, double v) {
    return new Observation(JOB, s, "job", ts, v);
  }

  record Run(List<Observation> o1, List<Observation> o2, List<Observation> o3) {}

  /**
   * Feeds the scrapes at T1, T2, T3 and again at T4 (which completes T3's frame), each followed
   * by the end of a batch, and returns the observations by timestamp.
   */
  Run replay(String resource, UnaryOperator<Sample> second) {
    List<Sample> s1 = scrape(resource);
    List<Sample> s2 = s1.stream().map(second).toList();
    List<Observation> all = new ArrayList<>();
    all.addAll(feed(s1, T1));
    x.flush(all::add);
    all.addAll(feed(s2, T2));
    x.flush(all::add);
    all.addAll(feed(s2, T3));
    x.flush(all::add);
    all.addAll(feed(s2, T3 + 10_000));
    x.flush(all::add);
    assertThat(all).allSatisfy(ob -> assertThat(ob.job()).isEqualTo(JOB));
    assertThat(all).allSatisfy(ob -> assertThat(ob.join()).isNull());
    assertThat(x.lateSamples()).isZero();
    return new Run(at(all, T1), at(all, T2), at(all, T3));
  }

  static List<Observation> at(List<Observation> all, long ts) {
    return all.stream().filter(o -> o.timestampMs() == ts).toList();
  }

  @Test
  void flink230() {
    Run r = replay(ScrapeFixture.FLINK_230, ScrapeReplayTest::advance);
    assertThat(jobScope(r.o1)).containsExactly(
        job(Signal.CHECKPOINT_DURATION, T1, 101),
        job(Signal.CHECKPOINT_SIZE, T1, 9478143),
        job(Signal.CHECKPOINT_FULL_SIZE, T1, 9478143),
        job(Signal.CHECKPOINT_PERSISTED_DATA, T1, 0),
        // (1_796_211_310_000 - 1_796_211_308_425) / 1000 = 1.575 s
        job(Signal.CHECKPOINT_AGE, T1, 1.575),
        job(Signal.CHECKPOINT_IN_PROGRESS, T1, 0),
        job(Signal.CHECKPOINT_FAILURES, T1, 0)); // 1 failed before we looked: baseline only
    assertThat(jobScope(r.o2)).containsExactly(
        job(Signal.CHECKPOINT_DURATION, T2, 333),
        job(Signal.CHECKPOINT_SIZE, T2, 9479143), // 9478143 + 1000
        job(Signal.CHECKPOINT_FULL_SIZE, T2, 9478143),
        job(Signal.CHECKPOINT_PERSISTED_DATA, T2, 0),
        job(Signal.CHECKPOINT_AGE, T2, 2.5), // completed at T2 - 2500 ms
        job(Signal.CHECKPOINT_IN_PROGRESS, T2, 0),
        job(Signal.CHECKPOINT_FAILURES, T2, 2)); // 1 -> 3
    assertThat(jobScope(r.o3)).containsExactly(
        job(Signal.CHECKPOINT_AGE, T3, 12.5), // (T2 + 10 s) - (T2 - 2.5 s)
        job(Signal.CHECKPOINT_IN_PROGRESS, T3, 0),
        job(Signal.CHECKPOINT_FAILURES, T3, 2)); // still within the 30 min window
    assertCommon(r, "34b11510_906c_40ea_ab17_529bcdf3542b", 4.166666666666667, 4.0753696E7,
        10.0, 0.973552);
  }

  @Test
  void flink120() {
    Run r = replay(ScrapeFixture.FLINK_120, ScrapeReplayTest::advance);
    assertThat(jobScope(r.o1)).containsExactly(
        job(Signal.CHECKPOINT_DURATION, T1, 229),
        job(Signal.CHECKPOINT_SIZE, T1, 407949),
        job(Signal.CHECKPOINT_FULL_SIZE, T1, 9529306),
        job(Signal.CHECKPOINT_PERSISTED_DATA, T1, 0),
        // no lastCheckpointCompletedTimestamp in 1.20: age since the first frame = 0
        job(Signal.CHECKPOINT_AGE, T1, 0),
        job(Signal.CHECKPOINT_IN_PROGRESS, T1, 0),
        job(Signal.CHECKPOINT_FAILURES, T1, 0));
    assertThat(jobScope(r.o2)).containsExactly(
        job(Signal.CHECKPOINT_DURATION, T2, 333),
        job(Signal.CHECKPOINT_SIZE, T2, 408949), // 407949 + 1000
        job(Signal.CHECKPOINT_FULL_SIZE, T2, 9529306),
        job(Signal.CHECKPOINT_PERSISTED_DATA, T2, 0),
        job(Signal.CHECKPOINT_AGE, T2, 0), // the id advanced 27 -> 28 in this frame
        job(Signal.CHECKPOINT_IN_PROGRESS, T2, 0),
        job(Signal.CHECKPOINT_FAILURES, T2, 2)); // 2 -> 4
    assertThat(jobScope(r.o3)).containsExactly(
        job(Signal.CHECKPOINT_AGE, T3, 10), // T3 - T2, id still 28
        job(Signal.CHECKPOINT_IN_PROGRESS, T3, 0),
        job(Signal.CHECKPOINT_FAILURES, T3, 2));
    assertCommon(r, "c9a05c89_f8aa_4edd_b3be_fdf96d5a48ff", 8.333333333333334, 6.2181392E7,
        23.0, null);
  }

  private void assertCommon(Run r, String tmId, double gc1, double heapUsed1,
      double growState0DelayMs, Double slowMap1AlignMs) {
    String tm = "tm:" + tmId;
    assertThat(of(r.o1, Signal.GC_TIME)).containsExactly(
        new Observation(JOB, Signal.GC_TIME, tm, T1, gc1));
    assertThat(of(r.o1, Signal.HEAP_USAGE)).containsExactly(
        new Observation(JOB, Signal.HEAP_USAGE, tm, T1, heapUsed1 / 6.320816128E9));
    assertThat(of(r.o2, Signal.GC_TIME)).containsExactly(
        new Observation(JOB, Signal.GC_TIME, tm, T2, 12.5));
    assertThat(of(r.o2, Signal.HEAP_USAGE)).containsExactly(
        new Observation(JOB, Signal.HEAP_USAGE, tm, T2, 0.5));

    // start delay: 6 subtasks on first sight, then only the one that changed, then none
    assertThat(of(r.o1, Signal.CHECKPOINT_START_DELAY)).hasSize(6)
        .contains(new Observation(JOB, Signal.CHECKPOINT_START_DELAY, "task:grow_state/0", T1,
            growState0DelayMs));
    assertThat(of(r.o2, Signal.CHECKPOINT_START_DELAY)).containsExactly(
        new Observation(JOB, Signal.CHECKPOINT_START_DELAY, "task:grow_state/0", T2, 42.0));
    assertThat(of(r.o3, Signal.CHECKPOINT_START_DELAY)).isEmpty();
    // alignment only exists on the 4 subtasks with network inputs; unchanged afterwards
    assertThat(of(r.o1, Signal.CHECKPOINT_ALIGNMENT)).hasSize(4)
        .allSatisfy(o -> assertThat(o.value()).isLessThan(2.0)); // ns became ms
    if (slowMap1AlignMs != null) {
      assertThat(of(r.o1, Signal.CHECKPOINT_ALIGNMENT)).filteredOn(
              o -> o.scope().equals("task:slow_map____discard:_Writer/1"))
          .singleElement().satisfies(o -> assertThat(o.value())
              .isCloseTo(slowMap1AlignMs, within(1e-12))); // 973552 ns / 1e6
    }
    assertThat(of(r.o2, Signal.CHECKPOINT_ALIGNMENT)).isEmpty();
    for (List<Observation> o : List.of(r.o1, r.o2, r.o3)) {
      assertThat(of(o, Signal.BUSY)).hasSize(6);
      assertThat(of(o, Signal.BACKPRESSURE)).hasSize(6);
      assertThat(of(o, Signal.RECORDS_IN)).hasSize(6);
      // 4 properties x 2 subtasks x 3 column families
      assertThat(of(o, Signal.ROCKSDB_PENDING_COMPACTION)).hasSize(6);
      assertThat(of(o, Signal.ROCKSDB_L0_FILES).stream().map(Observation::scope)).contains(
          "operator:grow_state/0/blob", "operator:grow_state/1/_timer_state_event_user_timers");
    }
    // stall: (50_000 us more) / 10 s = 5000 us/s on subtask 0, 0 on subtask 1
    assertThat(of(r.o1, Signal.ROCKSDB_STALL)).isEmpty();
    assertThat(of(r.o2, Signal.ROCKSDB_STALL)).containsExactlyInAnyOrder(
        new Observation(JOB, Signal.ROCKSDB_STALL, "operator:grow_state/0", T2, 5000.0),
        new Observation(JOB, Signal.ROCKSDB_STALL, "operator:grow_state/1", T2, 0.0));
    assertThat(x.jobs()).containsExactly(JOB);
    assertThat(x.restarts(JOB)).hasSize(1);
  }
}
