package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.model.Labels;

/**
 * Decides, on a detector thread, whether a live series' samples go to the detector now or are
 * held (while the series' job reads its history, so that history is fed first and the live
 * samples after it, in event-time order). Called from every detector thread at once: a job's
 * series reach the gate from its shard's thread; a series every shard receives (no job key)
 * reaches {@link #take} from the first shard's thread only, and {@link #holding} from the others.
 */
public interface LiveSampleGate {
  /**
   * @return true when the gate took the samples {@code [from, to)} (held or dropped and counted);
   *     false when the detector should have them now
   */
  boolean take(Labels labels, long[] timestamps, double[] values, int from, int to);

  /**
   * Whether {@link #take} holds this series now, without taking anything: the other shards'
   * copies of a series every shard receives are skipped meanwhile, as the held samples go to
   * every shard when released. Changes only in a {@link DetectorTask}, while no shard runs.
   */
  boolean holding(Labels labels);
}
