package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorInput;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The thread of one detector shard. It takes every request, processes the series routed to its
 * shard and the broadcast ones, and ends a detector batch at the event time the service reached
 * with the last request of the batch.
 *
 * <p>Requests that are already waiting when the thread takes one are processed as one detector
 * batch (up to {@link DetectorWorker#MAX_BATCH_REQUESTS}): as if Prometheus had sent them as one
 * bigger request, whose size is arbitrary anyway. Each batch ends with a re-diagnosis of the jobs
 * it touched, which costs far more than the samples of one 500-sample request; an idle shard
 * still ends a batch per request, so a lone request is diagnosed at once. A {@link Barrier} in
 * the queue ends the batch before it.
 */
final class DetectorShardThread extends Thread {
  private static final Logger logger = Logger.getLogger(DetectorShardThread.class.getName());

  private final int index;
  private final Detector detector;
  private final Consumer<RoutedWrite> done;
  /** {@link RoutedWrite}s and {@link Barrier}s, in the order the worker queued them. */
  private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private volatile LiveSampleGate gate;
  private volatile boolean running = true;
  private volatile long busyNanos;
  private volatile long batches;

  DetectorShardThread(int index, Detector detector, Consumer<RoutedWrite> done, String name) {
    super(name);
    this.index = index;
    this.detector = detector;
    this.done = done;
    setDaemon(true);
  }

  void add(RoutedWrite w) {
    queue.add(w);
  }

  void add(Barrier b) {
    queue.add(b);
  }

  void gate(LiveSampleGate g) {
    this.gate = g;
  }

  long busyNanos() {
    return busyNanos;
  }

  long batches() {
    return batches;
  }

  /** Processes what is queued, then ends the thread. */
  void finish() {
    running = false;
  }

  @Override
  public void run() {
    List<RoutedWrite> batch = new ArrayList<>();
    while (running || !queue.isEmpty()) {
      Object first;
      try {
        first = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (first == null) {
        continue;
      }
      long started = System.nanoTime();
      if (first instanceof Barrier b) {
        if (b.ranHere()) {
          busyNanos += System.nanoTime() - started; // waiting for it is not busy
        } else if (Thread.currentThread().isInterrupted()) {
          return;
        }
        continue;
      }
      batch.add((RoutedWrite) first);
      // this thread alone takes from the queue: what it peeks is what it polls
      while (batch.size() < DetectorWorker.MAX_BATCH_REQUESTS
          && queue.peek() instanceof RoutedWrite) {
        batch.add((RoutedWrite) queue.poll());
      }
      long eventTime = Long.MIN_VALUE;
      try {
        for (RoutedWrite w : batch) {
          accept(w);
          eventTime = Math.max(eventTime, w.eventTimeMs);
        }
        try {
          detector.endBatch(eventTime);
        } catch (RuntimeException e) {
          logger.log(Level.SEVERE, "detector failed to end a batch", e);
        }
      } finally {
        batches++;
        busyNanos += System.nanoTime() - started;
        for (RoutedWrite w : batch) {
          done.accept(w);
        }
        batch.clear();
      }
    }
  }

  private void accept(RoutedWrite routed) {
    DecodedWrite write = routed.write;
    try {
      long[] timestamps = write.timestamps();
      double[] values = write.values();
      byte[] routes = routed.routes;
      LiveSampleGate g = gate;
      for (int i = 0; i < write.acceptedSeriesCount(); i++) {
        if (routes == null || routes[i] == index) {
          if (g != null
              && g.take(write.labels(i), timestamps, values, write.from(i), write.to(i))) {
            continue;
          }
          detector.accept(write.labels(i), timestamps, values, write.from(i), write.to(i));
        } else if (routes[i] == RoutedWrite.BROADCAST) {
          // the first shard's copy is held (and released to every shard); the others skip theirs
          if (g != null && (index == 0
              ? g.take(write.labels(i), timestamps, values, write.from(i), write.to(i))
              : g.holding(write.labels(i)))) {
            continue;
          }
          detector.acceptBroadcast(write.labels(i), timestamps, values, write.from(i),
              write.to(i));
        }
      }
    } catch (RuntimeException e) {
      // A bug must not stop a detector thread; the request's samples stay counted as accepted
      // and the failure is logged loudly.
      logger.log(Level.SEVERE, "detector failed on a request", e);
    }
  }

  /**
   * A {@link DetectorTask} in every shard's queue: each shard thread that reaches it has ended
   * its batch before it; the last to arrive runs the task (all others wait, so it may feed any
   * shard) and lets them go on.
   */
  static final class Barrier {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    private final DetectorTask task;
    private final DetectorInput detector;
    private final AtomicInteger waiting;
    private final CountDownLatch ran = new CountDownLatch(1);

    Barrier(DetectorTask task, DetectorInput detector, int shards) {
      this.task = task;
      this.detector = detector;
      this.waiting = new AtomicInteger(shards);
    }

    /** Arrives; true when this thread ran the task, false when it waited for another. */
    boolean ranHere() {
      if (waiting.decrementAndGet() == 0) {
        try {
          task.run(detector);
          done.complete(null);
        } catch (RuntimeException e) {
          logger.log(Level.SEVERE, "detector task failed", e);
          done.completeExceptionally(e);
        } finally {
          if (!done.isDone()) {
            done.completeExceptionally(new IllegalStateException("detector task failed"));
          }
          ran.countDown();
        }
        return true;
      }
      try {
        ran.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return false;
    }
  }
}
