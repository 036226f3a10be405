package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.Feed.J;
import static dev.checkpointdoctor.detector.extract.Feed.S;
import static dev.checkpointdoctor.detector.extract.Feed.T0;
import static dev.checkpointdoctor.detector.extract.Feed.raw;
import static dev.checkpointdoctor.detector.extract.Feed.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.extract.Feed.In;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link TmSignals}: GC and heap of a TaskManager, joined to the jobs running on it. */
class TmSignalsTest {
  static final String TMP = "flink_taskmanager_Status_JVM_";
  static final String[] TM7 = {"tm_id", "tm_7"};

  Feed f = new Feed();

  static In[] scrape(long t, double scavenge, double markSweep, double used) {
    return new In[] {raw(TMP + "GarbageCollector_PS_Scavenge_Time", t, scavenge, TM7),
        raw(TMP + "GarbageCollector_PS_MarkSweep_Time", t, markSweep, TM7),
        raw(TMP + "Memory_Heap_Used", t, used, TM7), raw(TMP + "Memory_Heap_Max", t, 400, TM7)};
  }

  @Test
  void collectorTimesAreSummedPerScrapeAndHeapIsUsedOverMax() {
    long t1 = T0 + 10 * S;
    long t2 = t1 + 10 * S;
    f.batch(task("busyTimeMsPerSecond", "map", 0, T0, 1, "tm_7", null));
    f.batch(scrape(T0, 100, 50, 100));
    f.batch(task("busyTimeMsPerSecond", "map", 0, t1, 1, "tm_7", null));
    f.batch(scrape(t1, 300, 150, 300));
    f.take(Signal.BUSY);
    // T0: heap 100/400; t1: (300-100 + 150-50) ms / 10 s = 30 ms/s, heap 300/400
    assertThat(f.out).containsExactly(
        new Observation(J, Signal.HEAP_USAGE, "tm:tm_7", T0, 0.25),
        new Observation(J, Signal.GC_TIME, "tm:tm_7", t1, 30.0),
        new Observation(J, Signal.HEAP_USAGE, "tm:tm_7", t1, 0.75));
    f.out.clear();
    f.batch(task("busyTimeMsPerSecond", "map", 0, t2, 1, "tm_7", null));
    f.batch(raw(TMP + "GarbageCollector_PS_Scavenge_Time", t2, 10, TM7), // reset: new JVM
        raw(TMP + "GarbageCollector_PS_MarkSweep_Time", t2, 160, TM7),
        raw(TMP + "Memory_Heap_Used", t2, 1, TM7), raw(TMP + "Memory_Heap_Max", t2, 0, TM7));
    f.take(Signal.BUSY);
    assertThat(f.out).isEmpty(); // no GC rate across a reset; heap max 0 is skipped
  }

  @Test
  void samplesOfATaskManagerNoJobRunsOnAreCountedIdle() {
    f.batch(scrape(T0, 100, 50, 100));
    f.batch(scrape(T0 + 10 * S, 200, 50, 100));
    // no task names tm_7 in this cluster, but another job's task series has moved on
    f.batch(task("busyTimeMsPerSecond", "map", 0, T0 + 20 * S, 1, "tm_other", null));
    f.take(Signal.BUSY);
    assertThat(f.out).isEmpty();
    assertThat(f.x.idleTaskManagerSamples()).isEqualTo(8);
    assertThat(f.x.unjoinedSamples()).isZero();
  }

  @Test
  void gcAllRateWinsOverCollectorTimesAndJobManagerJvmIsIgnored() {
    String gc = TMP + "GarbageCollector_";
    String[] tm = {"tm_id", "tm_1"};
    for (int i = 0; i < 2; i++) {
      long t = T0 + i * 10 * S;
      f.batch(task("busyTimeMsPerSecond", t, 1), raw(gc + "G1_Young_Generation_Time", t,
          100 + 100 * i, tm), raw(gc + "All_TimeMsPerSecond", t, 7.5, tm));
    }
    assertThat(f.values(Signal.GC_TIME)).containsExactly(7.5, 7.5);
    assertThat(Feed.CATALOG.ruleFor("flink_jobmanager_Status_JVM_Memory_Heap_Used")).isNull();
  }

  @Test
  void collectorsInDifferentShardsStillSumPerScrape() {
    List<In> inOrder = new ArrayList<>();
    List<In> scavenge = new ArrayList<>();
    List<In> rest = new ArrayList<>();
    for (int k = 0; k < 8; k++) {
      long t = T0 + k * 10 * S;
      In[] s = scrape(t, 100 + 40 * k, 50 + 10 * k * k, 100 + k);
      In busy = task("busyTimeMsPerSecond", "map", 0, t, 1, "tm_7", null);
      inOrder.add(busy);
      inOrder.addAll(List.of(s));
      scavenge.add(s[0]);
      rest.addAll(List.of(busy, s[1], s[2], s[3]));
    }
    Feed ref = new Feed();
    for (In in : inOrder) {
      ref.batch(in);
    }
    // one collector's shard falls three scrapes behind the rest after the first scrape (which
    // collectors a TaskManager has is learnt from the series seen), requests cut anywhere
    List<In> arrival = new ArrayList<>(List.of(scavenge.get(0)));
    arrival.addAll(rest.subList(0, 12));
    for (int k = 1; k < 8; k++) {
      arrival.add(scavenge.get(k));
      if (8 + 4 * k < rest.size()) {
        arrival.addAll(rest.subList(8 + 4 * k, Math.min(rest.size(), 12 + 4 * k)));
      }
    }
    Random rnd = new Random(3);
    for (In in : arrival) {
      f.put(in);
      if (rnd.nextBoolean()) {
        f.flush();
      }
    }
    f.flush();
    assertThat(f.take(Signal.GC_TIME)).hasSize(7).isEqualTo(ref.take(Signal.GC_TIME));
    assertThat(f.take(Signal.HEAP_USAGE)).hasSize(8).isEqualTo(ref.take(Signal.HEAP_USAGE));
  }
}
