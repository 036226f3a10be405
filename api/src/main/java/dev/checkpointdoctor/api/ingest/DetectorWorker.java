package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.ShardedDetector;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Feeds the detector's shards, one thread each ({@link DetectorShardThread}). HTTP threads hand
 * over whole decoded requests; the queue is bounded in samples (shared by all shards: a request
 * counts until every shard processed it).
 *
 * <p>When a request does not fit, it waits for room, up to {@code maxWait}, and is answered once
 * queued: back-pressure. Prometheus sends a shard's next request only after the answer, so a
 * slower answer slows it down to what the detector takes, without losing anything; a 503 instead
 * makes it back off (100 ms doubling to 5 s with the documented queue_config) and retry, which
 * idles the detector while the sender sleeps and re-sends the whole body. Requests wait in
 * arrival order; one that still finds no room after {@code maxWait} (a detector far behind, or
 * stuck) is refused, so the caller answers 503 well within Prometheus' 30 s remote timeout.
 * Waiting requests are bounded in samples like the queue (at least {@link #MIN_WAITING_SAMPLES});
 * beyond that a request is refused at once.
 *
 * <p>Bootstrapping from history adds two things: {@link DetectorTask}s (history slices, held
 * samples released), queued in line with the requests, at which every shard thread stops while
 * one runs the task; and a {@link LiveSampleGate} each shard thread asks before the detector,
 * which holds a job's live samples while its history is read. Held samples have left the queue:
 * the gate bounds them itself.
 */
public final class DetectorWorker implements AutoCloseable {
  /**
   * Samples of requests waiting for room at least may hold, however small the queue: each waiting
   * request is one Prometheus shard's only request in flight, and a small queue (a lab, a test)
   * should slow senders down, not refuse them.
   */
  static final long MIN_WAITING_SAMPLES = 1_000_000;

  /** Most requests one detector batch takes from a shard's queue. */
  static final int MAX_BATCH_REQUESTS = 64;

  /** What becomes of an offered request; called once, possibly on another thread. */
  public interface Answer {
    /** Queued: every shard will process it. */
    void queued(long waitedNanos);

    /** Refused: full for longer than the wait allows, or stopping. Nothing was kept. */
    void refused();
  }

  private record Waiter(RoutedWrite routed, Answer answer, ScheduledFuture<?> timeout) {}

  private final ShardedDetector detector;
  private final long capacitySamples;
  private final long maxWaitNanos;
  private final DetectorShardThread[] shards;
  private final AtomicLong queuedSamples = new AtomicLong();
  private final AtomicLong processedRequests = new AtomicLong();
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private final ScheduledThreadPoolExecutor timeouts;
  private long waitingSamples;
  private long eventTimeMs = Long.MIN_VALUE;
  private boolean accepting = true;

  public DetectorWorker(ShardedDetector detector, long capacitySamples) {
    this(detector, capacitySamples, Duration.ZERO);
  }

  /**
   * @param maxWait how long a request may wait for room before it is refused; zero refuses at
   *     once
   */
  public DetectorWorker(ShardedDetector detector, long capacitySamples, Duration maxWait) {
    this.detector = detector;
    this.capacitySamples = capacitySamples;
    this.maxWaitNanos = maxWait.toNanos();
    this.timeouts = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "detector-queue-timeouts");
      t.setDaemon(true);
      return t;
    });
    timeouts.setRemoveOnCancelPolicy(true);
    this.shards = new DetectorShardThread[detector.shardCount()];
    for (int i = 0; i < shards.length; i++) {
      shards[i] = new DetectorShardThread(i, detector.shard(i), this::finished,
          shards.length == 1 ? "detector-worker" : "detector-worker-" + i);
    }
    for (DetectorShardThread s : shards) {
      s.start();
    }
  }

  /**
   * Sets the gate every live series passes before the detector (call before the first request).
   */
  public void gate(LiveSampleGate gate) {
    for (DetectorShardThread s : shards) {
      s.gate(gate);
    }
  }

  /**
   * Runs {@code task} after the requests queued so far and before any queued later, while every
   * shard thread waits (so it may feed any shard, through the detector's routing); the future
   * completes when it ran (exceptionally if it failed). Tasks run in the order submitted; the
   * caller bounds how many it has waiting. Tasks do not count against the queue's capacity.
   */
  public CompletableFuture<Void> submit(DetectorTask task) {
    DetectorShardThread.Barrier barrier = new DetectorShardThread.Barrier(task, detector,
        shards.length);
    if (!alive()) {
      barrier.done.completeExceptionally(
          new IllegalStateException("the detector worker stopped"));
      return barrier.done;
    }
    synchronized (this) {
      for (DetectorShardThread s : shards) {
        s.add(barrier);
      }
    }
    return barrier.done;
  }

  /** Queues a request now, or returns false when it does not fit (no waiting) or we stop. */
  public boolean offer(DecodedWrite write) {
    RoutedWrite routed = new RoutedWrite(write, detector);
    synchronized (this) {
      if (!accepting || !waiters.isEmpty() || !fits(routed.samples)) {
        return false;
      }
      enqueue(routed);
      return true;
    }
  }

  /**
   * Queues a request, waiting for room when the queue is full; {@code answer} hears the outcome,
   * on this thread when it is known at once, else on a detector or timer thread.
   */
  public void submit(DecodedWrite write, Answer answer) {
    RoutedWrite routed = new RoutedWrite(write, detector);
    boolean queued;
    synchronized (this) {
      if (accepting && waiters.isEmpty() && fits(routed.samples)) {
        enqueue(routed);
        queued = true;
      } else if (accepting && maxWaitNanos > 0
          && waitingSamples + routed.samples
              <= Math.max(capacitySamples, MIN_WAITING_SAMPLES)) {
        waitingSamples += routed.samples;
        // the timeout finds its waiter through this holder, filled under the lock it takes
        Waiter[] self = new Waiter[1];
        ScheduledFuture<?> timeout = timeouts.schedule(() -> expire(self), maxWaitNanos,
            TimeUnit.NANOSECONDS);
        self[0] = new Waiter(routed, answer, timeout);
        waiters.add(self[0]);
        return;
      } else {
        queued = false;
      }
    }
    if (queued) {
      answer.queued(0);
    } else {
      answer.refused();
    }
  }

  // An oversized single request is still taken when the queue is empty, so it cannot stall.
  private boolean fits(long samples) {
    long current = queuedSamples.get();
    return current == 0 || current + samples <= capacitySamples;
  }

  /** Under the lock: every shard gets the request, in the same order as every other request. */
  private void enqueue(RoutedWrite routed) {
    eventTimeMs = Math.max(eventTimeMs, routed.eventTimeMs);
    routed.eventTimeMs = eventTimeMs;
    queuedSamples.addAndGet(routed.samples);
    for (DetectorShardThread s : shards) {
      s.add(routed);
    }
  }

  private void expire(Waiter[] holder) {
    Waiter w;
    synchronized (this) {
      w = holder[0];
      if (w == null || !waiters.remove(w)) {
        return; // queued meanwhile
      }
      waitingSamples -= w.routed().samples;
    }
    w.answer().refused();
  }

  /** A shard finished a request; the last one releases it and lets waiting requests in. */
  private void finished(RoutedWrite routed) {
    if (routed.remaining.decrementAndGet() != 0) {
      return;
    }
    routed.write.release();
    processedRequests.incrementAndGet();
    queuedSamples.addAndGet(-routed.samples);
    List<Waiter> admitted = null;
    synchronized (this) {
      while (!waiters.isEmpty() && accepting && fits(waiters.peekFirst().routed().samples)) {
        Waiter w = waiters.pollFirst();
        waitingSamples -= w.routed().samples;
        w.timeout().cancel(false);
        enqueue(w.routed());
        if (admitted == null) {
          admitted = new ArrayList<>();
        }
        admitted.add(w);
      }
    }
    if (admitted != null) {
      long now = System.nanoTime();
      for (Waiter w : admitted) {
        w.answer().queued(now - w.routed().offeredNanos);
      }
    }
  }

  /** Samples accepted and not yet processed by every shard. */
  public long queuedSamples() {
    return queuedSamples.get();
  }

  /** Requests waiting for room in the queue (not yet answered). */
  public synchronized int waitingRequests() {
    return waiters.size();
  }

  /** Requests every shard has processed. */
  public long processedRequests() {
    return processedRequests.get();
  }

  /** Detector batches ended, over all shards (one or more requests each). */
  public long processedBatches() {
    long n = 0;
    for (DetectorShardThread s : shards) {
      n += s.batches();
    }
    return n;
  }

  public int shardCount() {
    return shards.length;
  }

  /** Time shard {@code i}'s thread spent processing (not waiting for requests). */
  public long busyNanos(int i) {
    return shards[i].busyNanos();
  }

  public boolean alive() {
    for (DetectorShardThread s : shards) {
      if (!s.isAlive()) {
        return false;
      }
    }
    return true;
  }

  /** Stops taking requests (waiting ones are refused), processes what was queued, then stops. */
  @Override
  public void close() throws InterruptedException {
    List<Waiter> refused;
    synchronized (this) {
      accepting = false;
      refused = new ArrayList<>(waiters);
      waiters.clear();
      waitingSamples = 0;
    }
    for (Waiter w : refused) {
      w.timeout().cancel(false);
      w.answer().refused();
    }
    timeouts.shutdownNow();
    for (DetectorShardThread s : shards) {
      s.finish();
    }
    for (DetectorShardThread s : shards) {
      s.join(TimeUnit.SECONDS.toMillis(30));
    }
  }
}
