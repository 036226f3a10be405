package dev.checkpointdoctor.api.series;

import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Carries the detector's evaluations to the {@link SeriesStore} on a thread of its own: the
 * detector calls {@link #evaluated} under its lock, so that call only offers to a bounded queue
 * and never waits. When the queue is full the evaluation is dropped and counted; a chart gap is
 * better than a slower detector.
 */
public final class SeriesFeed implements DetectorListener, AutoCloseable {
  private static final Logger logger = Logger.getLogger(SeriesFeed.class.getName());
  static final int QUEUE = 200_000;
  private static final int BATCH = 4096;
  /** Series idle this long in event time are forgotten; a week is all the history keeps. */
  private static final long IDLE_MS = SeriesHistory.COARSE_RETENTION_MS;
  private static final long SWEEP_EVERY = 100_000;

  private final SeriesStore store;
  private final BlockingQueue<Evaluation> queue = new ArrayBlockingQueue<>(QUEUE);
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong applied = new AtomicLong();
  private final Thread thread;
  private volatile boolean closed;
  private long newestMs = Long.MIN_VALUE;

  public SeriesFeed(SeriesStore store) {
    this.store = store;
    this.thread = new Thread(this::run, "series-feed");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void evaluated(Evaluation evaluation) {
    if (!queue.offer(evaluation)) {
      dropped.incrementAndGet();
    }
  }

  /** Whether the queue is over half full: a bulk producer (history) should wait a little. */
  public boolean busy() {
    return queue.size() > QUEUE / 2;
  }

  public long dropped() {
    return dropped.get();
  }

  public long applied() {
    return applied.get();
  }

  private void run() {
    List<Evaluation> batch = new ArrayList<>(BATCH);
    long sinceSweep = 0;
    while (!closed || !queue.isEmpty()) {
      try {
        Evaluation first = queue.poll(200, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, BATCH - 1);
        for (Evaluation e : batch) {
          store.add(e);
          newestMs = Math.max(newestMs, e.timestampMs());
        }
        applied.addAndGet(batch.size());
        sinceSweep += batch.size();
        batch.clear();
        store.enforceCap();
        if (sinceSweep >= SWEEP_EVERY) {
          sinceSweep = 0;
          store.forgetIdleBefore(newestMs - IDLE_MS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        batch.clear();
        logger.log(Level.WARNING, "series history update failed", e);
      }
    }
  }

  /** Applies what is queued, then stops the thread. */
  @Override
  public void close() throws InterruptedException {
    closed = true;
    thread.join(5_000);
  }
}
