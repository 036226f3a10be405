package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import java.time.Duration;

/**
 * Limits on what one request and all requests together may make the service hold.
 *
 * @param maxSampleAge null when samples may be of any age
 */
public record IngestLimits(int maxSeriesPerRequest, int maxLabelsPerSeries,
    int maxLabelNameLength, int maxLabelValueLength, int maxSamplesPerRequest, int maxSeries,
    int maxSeriesPerJob, Duration maxFutureSkew, Duration maxSampleAge) {

  DecodeLimits decodeLimits(long maxBodyBytes, long maxDecompressedBytes) {
    return new DecodeLimits((int) maxBodyBytes, (int) maxDecompressedBytes, maxSeriesPerRequest,
        maxLabelsPerSeries, maxLabelNameLength, maxLabelValueLength);
  }
}
