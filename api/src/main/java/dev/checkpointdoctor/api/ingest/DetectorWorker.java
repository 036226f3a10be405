package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one thread that feeds the detector. HTTP threads hand over whole decoded requests; the
 * queue is bounded in samples, and a request that does not fit is refused (the caller answers 503
 * so Prometheus retries it) rather than accepted and lost.
 */
public final class DetectorWorker implements AutoCloseable {
  private static final Logger logger = Logger.getLogger(DetectorWorker.class.getName());

  private final Detector detector;
  private final long capacitySamples;
  private final LinkedBlockingQueue<DecodedWrite> queue = new LinkedBlockingQueue<>();
  private final AtomicLong queuedSamples = new AtomicLong();
  private final AtomicLong processedRequests = new AtomicLong();
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

  public long queuedSamples() {
    return queuedSamples.get();
  }

  public long processedRequests() {
    return processedRequests.get();
  }

  public boolean alive() {
    return thread.isAlive();
  }

  private void run() {
    while (running || !queue.isEmpty()) {
      DecodedWrite write;
      try {
        write = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (write == null) {
        continue;
      }
      try {
        long[] timestamps = write.timestamps();
        double[] values = write.values();
        for (int i = 0; i < write.acceptedSeriesCount(); i++) {
          detector.accept(write.labels(i), timestamps, values, write.from(i), write.to(i));
        }
        detector.endBatch();
      } catch (RuntimeException e) {
        // A bug must not stop the only detector thread; the request's samples stay counted as
        // accepted and the failure is logged loudly.
        logger.log(Level.SEVERE, "detector failed on a request", e);
      } finally {
        queuedSamples.addAndGet(-Math.max(1, write.acceptedSampleCount()));
        write.release();
        processedRequests.incrementAndGet();
      }
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
