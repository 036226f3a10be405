package dev.checkpointdoctor.ingest.remotewrite;

import java.util.List;

/**
 * The result of decoding one remote-write request.
 *
 * @param series the accepted series, in request order
 * @param timeseriesCount all TimeSeries entries in the request, accepted or not
 * @param sampleCount all samples in the request, including those of dropped series
 * @param acceptedSampleCount samples of the accepted series
 * @param unusedSeriesCount series dropped because the name filter rejected them or they had no
 *     {@code __name__}
 * @param unusedSampleCount samples of the dropped series
 * @param metadataCount MetricMetadata entries (counted, not decoded)
 * @param exemplarCount exemplars in all series (counted, not decoded)
 * @param histogramCount native histograms in all series (counted, not decoded)
 */
public record DecodedWrite(
    List<DecodedSeries> series,
    int timeseriesCount,
    int sampleCount,
    int acceptedSampleCount,
    int unusedSeriesCount,
    int unusedSampleCount,
    int metadataCount,
    int exemplarCount,
    int histogramCount) {

  public DecodedWrite {
    series = List.copyOf(series);
  }
}
