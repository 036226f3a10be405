package dev.checkpointdoctor.ingest.remotewrite;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.Arrays;

/**
 * The accepted series of one request laid out in columns: labels and sample end offsets per
 * series, timestamps and values per sample. The arrays grow to the largest request seen and are
 * recycled through a {@link BatchPool}, so a steady stream of requests allocates nothing per
 * sample. Filled by one decoder thread, then read by one consumer thread; the hand-off between
 * them must be a safe publication (a concurrent queue).
 */
final class SampleBatch {
  Labels[] labels = new Labels[64];
  int[] ends = new int[64];
  long[] timestamps = new long[256];
  double[] values = new double[256];
  int series;
  int samples;

  void clear() {
    // Drop Labels references beyond those the next request overwrites, so a pooled batch does
    // not keep series alive that Prometheus stopped sending.
    Arrays.fill(labels, 0, series, null);
    series = 0;
    samples = 0;
  }

  /** Room for {@code n} more samples. */
  void ensureSamples(int n) {
    int need = samples + n;
    if (need > timestamps.length) {
      int cap = Math.max(need, timestamps.length * 2);
      timestamps = Arrays.copyOf(timestamps, cap);
      values = Arrays.copyOf(values, cap);
    }
  }

  void endSeries(Labels l) {
    if (series == labels.length) {
      labels = Arrays.copyOf(labels, series * 2);
      ends = Arrays.copyOf(ends, series * 2);
    }
    labels[series] = l;
    ends[series] = samples;
    series++;
  }
}
