package dev.checkpointdoctor.api.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.bench.BodyFactory;
import dev.checkpointdoctor.api.bench.FlinkFleet;
import dev.checkpointdoctor.api.it.Await;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.pipeline.ShardedDetector;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import dev.checkpointdoctor.detector.model.Labels;
import org.junit.jupiter.api.Test;

class DetectorWorkerTest {
  static final long T0 = 1_796_000_000_000L;

  static ShardedDetector detector(int shards) {
    DetectorSettings s = DetectorSettings.defaults();
    return new ShardedDetector(SignalCatalog.defaults(), s, () -> new CauseRanker(s), shards);
  }

  /** The decoded requests of {@code rounds} scrapes of a fleet, bodies of 200 samples. */
  static List<DecodedWrite> writes(FlinkFleet fleet, int rounds) throws Exception {
    return writes(fleet, rounds, 200);
  }

  static List<DecodedWrite> writes(FlinkFleet fleet, int rounds, int perBody) throws Exception {
    RemoteWriteDecoder decoder =
        new RemoteWriteDecoder(DecodeLimits.defaults(), SignalCatalog.defaults());
    List<DecodedWrite> writes = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      for (BodyFactory.Body b : new BodyFactory().round(fleet.series(), r, T0, perBody)) {
        writes.add(decoder.decode(b.bytes(), 0, b.bytes().length));
      }
    }
    return writes;
  }

  /** Records what {@link DetectorWorker#submit} answered, in the order answered. */
  static final class Answers {
    final List<String> log = new CopyOnWriteArrayList<>();

    DetectorWorker.Answer answer(String name) {
      return new DetectorWorker.Answer() {
        @Override
        public void queued(long waitedNanos) {
          log.add(name + (waitedNanos > 0 ? " queued after waiting" : " queued"));
        }

        @Override
        public void refused() {
          log.add(name + " refused");
        }
      };
    }
  }

  @Test
  void requestsWaitingInTheQueueAreOneDetectorBatch() throws Exception {
    FlinkFleet fleet = new FlinkFleet(1, 2, 1);
    List<DecodedWrite> writes = writes(fleet, 1);
    assertThat(writes.size()).isGreaterThanOrEqualTo(3);
    long samples = writes.stream().mapToLong(DecodedWrite::acceptedSampleCount).sum();
    ShardedDetector detector = detector(1);
    DetectorWorker worker = new DetectorWorker(detector, 10_000_000);
    // The detector's lock held here stalls the worker inside its first batch at the latest, so
    // every request offered meanwhile is waiting in the queue when it next looks.
    synchronized (detector.shard(0)) {
      for (DecodedWrite w : writes) {
        assertThat(worker.offer(w)).isTrue();
      }
    }
    worker.close(); // processes everything accepted, then joins the thread
    assertThat(worker.processedRequests()).isEqualTo(writes.size());
    assertThat(worker.processedBatches()).isBetween(1L, 2L);
    assertThat(worker.queuedSamples()).isZero();
    assertThat(detector.stats().processed()).isPositive().isLessThanOrEqualTo(samples);
    assertThat(detector.trackedSeries()).isEqualTo(fleet.usedSeries());
  }

  @Test
  void shardsTogetherProcessWhatOneThreadDoes() throws Exception {
    FlinkFleet fleet = new FlinkFleet(6, 2, 4);
    ShardedDetector one = detector(1);
    ShardedDetector three = detector(3);
    for (ShardedDetector d : List.of(one, three)) {
      DetectorWorker worker = new DetectorWorker(d, 10_000_000);
      List<DecodedWrite> writes = writes(fleet, 4);
      for (DecodedWrite w : writes) {
        assertThat(worker.offer(w)).isTrue();
      }
      worker.close();
      assertThat(worker.processedRequests()).isEqualTo(writes.size());
      assertThat(worker.queuedSamples()).isZero();
    }
    assertThat(three.jobs()).isEqualTo(one.jobs()).hasSize(6);
    assertThat(three.trackedSeries()).isEqualTo(one.trackedSeries())
        .isEqualTo(fleet.usedSeries());
    assertThat(three.stats().processed()).isEqualTo(one.stats().processed());
    assertThat(three.unjoinedSamples()).isEqualTo(one.unjoinedSamples());
    assertThat(three.baselineCount()).isEqualTo(one.baselineCount());
    for (int i = 0; i < 3; i++) {
      assertThat(three.shard(i).stats().processed()).as("shard %d worked", i).isPositive();
    }
  }

  @Test
  void aFullQueueMakesRequestsWaitInArrivalOrderThenQueuesThem() throws Exception {
    ShardedDetector detector = detector(2);
    FlinkFleet fleet = new FlinkFleet(2, 2, 2);
    List<DecodedWrite> writes = new ArrayList<>(writes(fleet, 1, 2000).subList(0, 1));
    writes.addAll(writes(fleet, 1, 50).subList(0, 2));
    int big = writes.get(0).acceptedSampleCount();
    assertThat(writes.get(1).acceptedSampleCount() + writes.get(2).acceptedSampleCount())
        .isLessThan(big);
    // room for the big request: the two small ones wait (and fit the waiting room together)
    DetectorWorker worker = new DetectorWorker(detector, big, Duration.ofSeconds(60));
    Answers answers = new Answers();
    synchronized (detector.shard(1)) { // shard 1 cannot finish anything meanwhile
      worker.submit(writes.get(0), answers.answer("a"));
      worker.submit(writes.get(1), answers.answer("b"));
      worker.submit(writes.get(2), answers.answer("c"));
      assertThat(answers.log).containsExactly("a queued");
      assertThat(worker.waitingRequests()).isEqualTo(2);
    }
    Await.until("waiting requests queued", Duration.ofSeconds(30),
        () -> answers.log.size() == 3);
    assertThat(answers.log).containsExactly("a queued", "b queued after waiting",
        "c queued after waiting");
    worker.close();
    assertThat(worker.processedRequests()).isEqualTo(3);
  }

  @Test
  void aRequestThatFindsNoRoomWithinTheWaitIsRefused() throws Exception {
    ShardedDetector detector = detector(1);
    List<DecodedWrite> writes = writes(new FlinkFleet(2, 2, 2), 1);
    DetectorWorker worker = new DetectorWorker(detector, 1, Duration.ofMillis(200));
    Answers answers = new Answers();
    synchronized (detector.shard(0)) {
      worker.submit(writes.get(0), answers.answer("a"));
      worker.submit(writes.get(1), answers.answer("b"));
      Await.until("the wait to expire", Duration.ofSeconds(30), () -> answers.log.size() == 2);
      assertThat(answers.log).containsExactly("a queued", "b refused");
      assertThat(worker.waitingRequests()).isZero();
    }
    worker.close();
    assertThat(worker.processedRequests()).isEqualTo(1);
  }

  @Test
  void withoutWaitAFullQueueRefusesAtOnceAndClosingRefusesWaiters() throws Exception {
    ShardedDetector detector = detector(1);
    List<DecodedWrite> writes = writes(new FlinkFleet(2, 2, 2), 1);
    DetectorWorker noWait = new DetectorWorker(detector, 1);
    Answers answers = new Answers();
    synchronized (detector.shard(0)) {
      noWait.submit(writes.get(0), answers.answer("a"));
      noWait.submit(writes.get(1), answers.answer("b"));
      assertThat(answers.log).containsExactly("a queued", "b refused");
    }
    noWait.close();

    ShardedDetector other = detector(1);
    DetectorWorker waiting = new DetectorWorker(other, 1, Duration.ofSeconds(60));
    Answers more = new Answers();
    List<DecodedWrite> again = writes(new FlinkFleet(2, 2, 2), 1);
    Thread closing = new Thread(() -> {
      try {
        waiting.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    synchronized (other.shard(0)) { // "a" cannot finish and let "b" in before the close
      waiting.submit(again.get(0), more.answer("a"));
      waiting.submit(again.get(1), more.answer("b"));
      closing.start();
      Await.until("the waiter refused", Duration.ofSeconds(30), () -> more.log.size() == 2);
    }
    closing.join();
    assertThat(more.log).containsExactly("a queued", "b refused");
    assertThat(waiting.processedRequests()).isEqualTo(1);
  }

  @Test
  void aTaskRunsAfterTheRequestsBeforeItAndBeforeTheOnesAfterItOnEveryShard() throws Exception {
    FlinkFleet fleet = new FlinkFleet(6, 2, 4);
    List<DecodedWrite> all = writes(fleet, 2);
    List<DecodedWrite> first = all.subList(0, all.size() / 2);
    ShardedDetector reference = detector(1);
    DetectorWorker one = new DetectorWorker(reference, 10_000_000);
    for (DecodedWrite w : writes(fleet, 1)) {
      assertThat(one.offer(w)).isTrue();
    }
    one.close();
    long firstRound = reference.stats().processed();

    ShardedDetector three = detector(3);
    DetectorWorker worker = new DetectorWorker(three, 10_000_000);
    CountDownLatch go = new CountDownLatch(1);
    // every shard stops at this task until the rest is queued
    CompletableFuture<Void> stop = worker.submit(d -> {
      try {
        go.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    for (DecodedWrite w : first) {
      assertThat(worker.offer(w)).isTrue();
    }
    long[] seen = new long[1];
    CompletableFuture<Void> between = worker.submit(d -> seen[0] = three.stats().processed());
    for (DecodedWrite w : all.subList(first.size(), all.size())) {
      assertThat(worker.offer(w)).isTrue();
    }
    go.countDown();
    stop.get(30, TimeUnit.SECONDS);
    between.get(30, TimeUnit.SECONDS);
    worker.close();
    assertThat(seen[0]).as("every shard processed the first round, none the second")
        .isEqualTo(firstRound);
    assertThat(three.stats().processed()).isGreaterThan(firstRound);
  }

  @Test
  void aGateHoldsEachSeriesOnceOverAllShardsAndATaskFeedsThemToTheirShards() throws Exception {
    FlinkFleet fleet = new FlinkFleet(6, 2, 4);
    ShardedDetector reference = detector(1);
    DetectorWorker one = new DetectorWorker(reference, 10_000_000);
    for (DecodedWrite w : writes(fleet, 2)) {
      assertThat(one.offer(w)).isTrue();
    }
    one.close();

    record Held(Labels labels, long[] ts, double[] vs) {}
    List<Held> held = new CopyOnWriteArrayList<>();
    boolean[] holding = {true}; // changed in a task only, while no shard reads it
    ShardedDetector three = detector(3);
    DetectorWorker worker = new DetectorWorker(three, 10_000_000);
    worker.gate(new LiveSampleGate() {
      @Override
      public boolean take(Labels labels, long[] timestamps, double[] values, int from, int to) {
        if (holding[0]) {
          held.add(new Held(labels, java.util.Arrays.copyOfRange(timestamps, from, to),
              java.util.Arrays.copyOfRange(values, from, to)));
        }
        return holding[0];
      }

      @Override
      public boolean holding(Labels labels) {
        return holding[0];
      }
    });
    long accepted = 0;
    for (DecodedWrite w : writes(fleet, 2)) {
      accepted += w.acceptedSampleCount();
      assertThat(worker.offer(w)).isTrue();
    }
    worker.submit(d -> {
      holding[0] = false;
      List<Held> byTime = new ArrayList<>(held);
      byTime.sort(Comparator.comparingLong(h -> h.ts()[0]));
      for (Held h : byTime) {
        d.accept(h.labels(), h.ts(), h.vs(), 0, h.ts().length);
      }
      d.endBatch();
    }).get(30, TimeUnit.SECONDS);
    worker.close();
    assertThat(held.stream().mapToLong(h -> h.ts().length).sum())
        .as("a series every shard receives is held once").isEqualTo(accepted);
    assertThat(three.jobs()).isEqualTo(reference.jobs()).hasSize(6);
    assertThat(three.trackedSeries()).isEqualTo(reference.trackedSeries())
        .isEqualTo(fleet.usedSeries());
    assertThat(three.stats().processed()).isEqualTo(reference.stats().processed());
  }
}
