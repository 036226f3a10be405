package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one thread that feeds the detector. HTTP threads hand over whole decoded requests; the
 * queue is bounded in samples, and a request that does not fit is refused (the caller answers 503
 * so Prometheus retries it) rather than accepted and lost.
 *
 * <p>Requests that are already waiting when the worker takes one are processed as one detector
 * batch (up to {@link #MAX_BATCH_REQUESTS}): as if Prometheus had sent them as one bigger request,
 * whose size is arbitrary anyway. Each batch ends with a re-diagnosis of the jobs it touched, which
 * costs far more than the samples of one 500-sample request; an idle worker still ends a batch
 * per request, so a lone request is diagnosed at once.
 *
 * <p>Bootstrapping from history adds two things: {@link DetectorTask}s (history slices, held
 * samples released) that run on this thread between live batches, and a {@link LiveSampleGate}
 * that holds a job's live samples while its history is read.
 */
public final class DetectorWorker implements AutoCloseable {
  private static final Logger logger = Logger.getLogger(DetectorWorker.class.getName());

  private final Detector detector;
  private final long capacitySamples;
  private final LinkedBlockingQueue<DecodedWrite> queue = new LinkedBlockingQueue<>();
  private final AtomicLong queuedSamples = new AtomicLong();
  /** Most requests one detector batch takes from the queue. */
  static final int MAX_BATCH_REQUESTS = 64;

  private final AtomicLong processedRequests = new AtomicLong();
  private final AtomicLong processedBatches = new AtomicLong();
  private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
  private volatile LiveSampleGate gate;
  private final Thread thread;
  private volatile boolean accepting = true;
  private volatile boolean running = true;

  public DetectorWorker(Detector detector, long capacitySamples) {
    this.detector = detector;
    this.capacitySamples = capacitySamples;
    this.thread = new Thread(this::run, "detector-worker");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Queues a request, or returns false when it would exceed the capacity or we are stopping. */
  public boolean offer(DecodedWrite write) {
    if (!accepting) {
      return false;
    }
    long n = Math.max(1, write.acceptedSampleCount());
    while (true) {
      long current = queuedSamples.get();
      // An oversized single request is still taken when the queue is empty, so it cannot stall.
      if (current > 0 && current + n > capacitySamples) {
        return false;
      }
      if (queuedSamples.compareAndSet(current, current + n)) {
        break;
      }
    }
    queue.add(write);
    return true;
  }

  /**
   * Sets the gate every live series passes before the detector (call before the first request).
   */
  public void gate(LiveSampleGate gate) {
    this.gate = gate;
  }

  /**
   * Runs {@code task} on the detector thread after the live batch in progress; the future
   * completes when it ran (exceptionally if it failed). Tasks run in the order submitted; the
   * caller bounds how many it has waiting.
   */
  public CompletableFuture<Void> submit(DetectorTask task) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (!thread.isAlive()) {
      done.completeExceptionally(new IllegalStateException("the detector worker stopped"));
      return done;
    }
    tasks.add(() -> {
      try {
        task.run(detector);
        done.complete(null);
      } catch (RuntimeException e) {
        logger.log(Level.SEVERE, "detector task failed", e);
        done.completeExceptionally(e);
      }
    });
    return done;
  }

  public long queuedSamples() {
    return queuedSamples.get();
  }

  public long processedRequests() {
    return processedRequests.get();
  }

  /** Detector batches ended (one or more requests each). */
  public long processedBatches() {
    return processedBatches.get();
  }

  public boolean alive() {
    return thread.isAlive();
  }

  private void run() {
    List<DecodedWrite> batch = new ArrayList<>();
    while (running || !queue.isEmpty() || !tasks.isEmpty()) {
      DecodedWrite first;
      try {
        first = queue.poll(tasks.isEmpty() ? 100 : 0, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (first == null) {
        runTask();
        continue;
      }
      batch.add(first);
      queue.drainTo(batch, MAX_BATCH_REQUESTS - 1);
      try {
        for (DecodedWrite write : batch) {
          accept(write);
        }
        try {
          detector.endBatch();
        } catch (RuntimeException e) {
          logger.log(Level.SEVERE, "detector failed to end a batch", e);
        }
      } finally {
        for (DecodedWrite write : batch) {
          queuedSamples.addAndGet(-Math.max(1, write.acceptedSampleCount()));
          write.release();
          processedRequests.incrementAndGet();
        }
        processedBatches.incrementAndGet();
        batch.clear();
      }
      runTask();
    }
  }

  /** One task, if any waits: tasks alternate with live batches, so neither starves. */
  private void runTask() {
    Runnable task = tasks.poll();
    if (task != null) {
      task.run();
    }
  }

  private void accept(DecodedWrite write) {
    try {
      long[] timestamps = write.timestamps();
      double[] values = write.values();
      LiveSampleGate g = gate;
      for (int i = 0; i < write.acceptedSeriesCount(); i++) {
        if (g != null && g.take(write.labels(i), timestamps, values, write.from(i), write.to(i))) {
          continue;
        }
        detector.accept(write.labels(i), timestamps, values, write.from(i), write.to(i));
      }
    } catch (RuntimeException e) {
      // A bug must not stop the only detector thread; the request's samples stay counted as
      // accepted and the failure is logged loudly.
      logger.log(Level.SEVERE, "detector failed on a request", e);
    }
  }

  /** Stops taking requests, processes what was accepted, then stops the thread. */
  @Override
  public void close() throws InterruptedException {
    accepting = false;
    running = false;
    thread.join(TimeUnit.SECONDS.toMillis(30));
  }
}
