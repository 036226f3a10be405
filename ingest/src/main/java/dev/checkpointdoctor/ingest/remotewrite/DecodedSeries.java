package dev.checkpointdoctor.ingest.remotewrite;

import dev.checkpointdoctor.detector.model.Labels;

/**
 * One accepted TimeSeries of a request: its labels and its samples in the order received.
 * {@code timestamps[i]} (ms since epoch) belongs to {@code values[i]}. Values keep their raw bits,
 * so the Prometheus stale marker (NaN with bits {@code 0x7ff0000000000002}) can be recognised
 * with {@link Double#doubleToRawLongBits}. The arrays are owned by this record; do not mutate.
 */
public record DecodedSeries(Labels labels, long[] timestamps, double[] values) {
  public DecodedSeries {
    if (timestamps.length != values.length) {
      throw new IllegalArgumentException("timestamps and values differ in length");
    }
  }

  public int sampleCount() {
    return values.length;
  }
}
