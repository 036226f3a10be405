package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Labels;

/**
 * What feeds samples to a detector from one thread: a {@link Detector}, or a {@link
 * ShardedDetector} while its shard threads wait (history read at start-up, live samples held
 * meanwhile), which routes each series to its shard as live samples are routed.
 */
public interface DetectorInput {
  /** See {@link Detector#accept(Labels, long[], double[], int, int)}. */
  void accept(Labels labels, long[] timestamps, double[] values, int from, int to);

  /** See {@link Detector#endBatch()}. */
  void endBatch();

  /** See {@link Detector#beginHistory()}. */
  void beginHistory();

  /** See {@link Detector#endHistory()}. */
  void endHistory();

  /** See {@link Detector#readingHistory()}. */
  boolean readingHistory();
}
