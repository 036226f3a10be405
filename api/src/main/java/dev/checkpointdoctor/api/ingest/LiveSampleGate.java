package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.model.Labels;

/**
 * Decides, on the detector thread, whether a live series' samples go to the detector now or are
 * held (while the series' job reads its history, so that history is fed first and the live
 * samples after it, in event-time order).
 */
public interface LiveSampleGate {
  /**
   * @return true when the gate took the samples {@code [from, to)} (held or dropped and counted);
   *     false when the detector should have them now
   */
  boolean take(Labels labels, long[] timestamps, double[] values, int from, int to);
}
