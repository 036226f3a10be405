package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.ShardRouter;
import dev.checkpointdoctor.detector.pipeline.ShardedDetector;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One decoded request on its way through the detector shards: which shard each series goes to
 * (worked out on the HTTP thread that decoded it, so the shards only compare bytes), the event
 * time the service reached with it, and how many shards still have to process it. Every shard
 * gets every request, even one with none of its series, so that every shard's event time moves
 * on as one detector's would.
 */
final class RoutedWrite {
  final DecodedWrite write;
  /** Per accepted series: its shard, or {@link #BROADCAST}; null when there is one shard. */
  final byte[] routes;
  /** Newest sample time of this request; the worker raises it to the newest of all so far. */
  long eventTimeMs;
  final int samples;
  final boolean hasBroadcast;
  final AtomicInteger remaining;
  /** When the request asked to be queued, for the wait histogram. */
  final long offeredNanos = System.nanoTime();

  static final byte BROADCAST = -1;

  RoutedWrite(DecodedWrite write, ShardedDetector detector) {
    this.write = write;
    this.samples = Math.max(1, write.acceptedSampleCount());
    int shards = detector.shardCount();
    this.remaining = new AtomicInteger(shards);
    long newest = Long.MIN_VALUE;
    long[] ts = write.timestamps();
    for (int i = 0; i < write.acceptedSampleCount(); i++) {
      newest = Math.max(newest, ts[i]);
    }
    this.eventTimeMs = newest;
    if (shards == 1) {
      routes = null;
      hasBroadcast = false;
      return;
    }
    ShardRouter router = detector.router();
    int n = write.acceptedSeriesCount();
    routes = new byte[n];
    boolean broadcast = false;
    for (int i = 0; i < n; i++) {
      int r = router.route(write.labels(i));
      routes[i] = r == ShardRouter.BROADCAST ? BROADCAST : (byte) r;
      broadcast |= r == ShardRouter.BROADCAST;
    }
    hasBroadcast = broadcast;
  }
}
