package dev.checkpointdoctor.ingest.remotewrite;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Recycles {@link SampleBatch}es between the decoder (which takes them) and the consumer that
 * releases a {@link DecodedWrite} once processed. Bounded: beyond {@code capacity} idle batches
 * released ones are left to the GC, so a burst cannot pin memory. An ArrayBlockingQueue is used
 * because, unlike linked queues, it allocates nothing per offer.
 */
final class BatchPool {
  private final ArrayBlockingQueue<SampleBatch> idle;

  BatchPool(int capacity) {
    idle = new ArrayBlockingQueue<>(capacity);
  }

  SampleBatch take() {
    SampleBatch b = idle.poll();
    return b != null ? b : new SampleBatch();
  }

  void give(SampleBatch b) {
    b.clear();
    idle.offer(b);
  }
}
