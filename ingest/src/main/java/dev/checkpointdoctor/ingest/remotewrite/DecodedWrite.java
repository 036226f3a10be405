package dev.checkpointdoctor.ingest.remotewrite;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The result of decoding one remote-write request. The accepted series are held in columns
 * ({@link #labels(int)}, samples {@code [from(i), to(i))} of {@link #timestamps()} and {@link
 * #values()}) borrowed from the decoder's pool: call {@link #release()} once done so the arrays are
 * reused; after that the columns must not be read (the counts stay valid). Not releasing is safe
 * (the GC takes the arrays), only slower. {@link #series()} copies into records, for callers that
 * prefer them to speed.
 *
 * <p>Counts: {@code timeseriesCount} all TimeSeries entries, accepted or not; {@code sampleCount}
 * all samples including those of dropped series; {@code acceptedSampleCount} samples of the
 * accepted series; {@code unusedSeriesCount}/{@code unusedSampleCount} series (and their samples)
 * dropped because the name filter rejected them or they had no {@code __name__}; metadata,
 * exemplars and native histograms are counted, not decoded.
 */
public final class DecodedWrite {
  private SampleBatch batch;
  private final BatchPool pool;
  private int acceptedSeriesCount;
  private final int timeseriesCount;
  private final int sampleCount;
  private int acceptedSampleCount;
  private final int unusedSeriesCount;
  private final int unusedSampleCount;
  private final int metadataCount;
  private final int exemplarCount;
  private final int histogramCount;

  DecodedWrite(SampleBatch batch, BatchPool pool, int timeseriesCount, int sampleCount,
      int acceptedSampleCount, int unusedSeriesCount, int unusedSampleCount, int metadataCount,
      int exemplarCount, int histogramCount) {
    this.batch = Objects.requireNonNull(batch);
    this.pool = pool;
    this.acceptedSeriesCount = batch.series;
    this.timeseriesCount = timeseriesCount;
    this.sampleCount = sampleCount;
    this.acceptedSampleCount = acceptedSampleCount;
    this.unusedSeriesCount = unusedSeriesCount;
    this.unusedSampleCount = unusedSampleCount;
    this.metadataCount = metadataCount;
    this.exemplarCount = exemplarCount;
    this.histogramCount = histogramCount;
  }

  public int acceptedSeriesCount() {
    return acceptedSeriesCount;
  }

  public Labels labels(int series) {
    Objects.checkIndex(series, acceptedSeriesCount);
    return live().labels[series];
  }

  /** First sample of accepted series {@code series} in {@link #timestamps()}/{@link #values()}. */
  public int from(int series) {
    Objects.checkIndex(series, acceptedSeriesCount);
    return series == 0 ? 0 : live().ends[series - 1];
  }

  /** One past the last sample of accepted series {@code series}. */
  public int to(int series) {
    Objects.checkIndex(series, acceptedSeriesCount);
    return live().ends[series];
  }

  /** Timestamps (ms) of all accepted samples; only indexes below acceptedSampleCount are set. */
  public long[] timestamps() {
    return live().timestamps;
  }

  /** Values with their raw bits (stale markers kept), parallel to {@link #timestamps()}. */
  public double[] values() {
    return live().values;
  }

  /** Decides per sample whether it stays in the request. */
  @FunctionalInterface
  public interface SampleFilter {
    boolean keep(long timestampMs, double value);
  }

  /**
   * Removes, in place, the samples {@code filter} rejects (and series left without samples), so a
   * screened request is handed on without copying. Returns how many samples were removed; {@link
   * #acceptedSampleCount()} and {@link #acceptedSeriesCount()} shrink accordingly.
   */
  public int removeSamples(SampleFilter filter) {
    SampleBatch b = live();
    int out = 0;
    int keptSeries = 0;
    int start = 0;
    for (int i = 0; i < b.series; i++) {
      int end = b.ends[i];
      int seriesStart = out;
      for (int k = start; k < end; k++) {
        if (filter.keep(b.timestamps[k], b.values[k])) {
          b.timestamps[out] = b.timestamps[k];
          b.values[out] = b.values[k];
          out++;
        }
      }
      start = end;
      if (out > seriesStart) {
        b.labels[keptSeries] = b.labels[i];
        b.ends[keptSeries] = out;
        keptSeries++;
      }
    }
    java.util.Arrays.fill(b.labels, keptSeries, b.series, null);
    int removed = b.samples - out;
    b.series = keptSeries;
    b.samples = out;
    acceptedSeriesCount = keptSeries;
    acceptedSampleCount -= removed;
    return removed;
  }

  /** Decides per series whether it stays in the request. */
  @FunctionalInterface
  public interface SeriesFilter {
    boolean keep(Labels labels);
  }

  /**
   * Removes, in place, the series {@code filter} rejects with all their samples. Returns how many
   * samples were removed; the accepted counts shrink accordingly.
   */
  public int removeSeries(SeriesFilter filter) {
    SampleBatch b = live();
    int out = 0;
    int keptSeries = 0;
    int start = 0;
    for (int i = 0; i < b.series; i++) {
      int end = b.ends[i];
      if (filter.keep(b.labels[i])) {
        if (out != start) {
          System.arraycopy(b.timestamps, start, b.timestamps, out, end - start);
          System.arraycopy(b.values, start, b.values, out, end - start);
        }
        out += end - start;
        b.labels[keptSeries] = b.labels[i];
        b.ends[keptSeries] = out;
        keptSeries++;
      }
      start = end;
    }
    java.util.Arrays.fill(b.labels, keptSeries, b.series, null);
    int removed = b.samples - out;
    b.series = keptSeries;
    b.samples = out;
    acceptedSeriesCount = keptSeries;
    acceptedSampleCount -= removed;
    return removed;
  }

  /** Hands the arrays back to the decoder's pool; idempotent. */
  public synchronized void release() {
    if (batch != null && pool != null) {
      pool.give(batch);
    }
    batch = null;
  }

  private SampleBatch live() {
    SampleBatch b = batch;
    if (b == null) {
      throw new IllegalStateException("DecodedWrite used after release()");
    }
    return b;
  }

  /** The accepted series as records, in request order (copies; allocates per series). */
  public List<DecodedSeries> series() {
    List<DecodedSeries> out = new ArrayList<>(acceptedSeriesCount);
    for (int i = 0; i < acceptedSeriesCount; i++) {
      out.add(new DecodedSeries(labels(i), Arrays.copyOfRange(timestamps(), from(i), to(i)),
          Arrays.copyOfRange(values(), from(i), to(i))));
    }
    return List.copyOf(out);
  }

  public int timeseriesCount() {
    return timeseriesCount;
  }

  public int sampleCount() {
    return sampleCount;
  }

  public int acceptedSampleCount() {
    return acceptedSampleCount;
  }

  public int unusedSeriesCount() {
    return unusedSeriesCount;
  }

  public int unusedSampleCount() {
    return unusedSampleCount;
  }

  public int metadataCount() {
    return metadataCount;
  }

  public int exemplarCount() {
    return exemplarCount;
  }

  public int histogramCount() {
    return histogramCount;
  }
}
