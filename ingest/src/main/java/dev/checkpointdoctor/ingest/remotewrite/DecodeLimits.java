package dev.checkpointdoctor.ingest.remotewrite;

/**
 * Limits applied while decoding one remote-write request. Every limit must be positive.
 *
 * @param maxCompressedBytes largest accepted request body (snappy-compressed), else 413
 * @param maxDecompressedBytes largest accepted length declared by the snappy header, else 413;
 *     checked before any buffer is allocated
 * @param maxSeriesPerRequest most TimeSeries entries in one request (accepted or not), else 400
 * @param maxLabelsPerSeries most labels in one accepted series, else 400
 * @param maxLabelNameLength longest label name in bytes, else 400
 * @param maxLabelValueLength longest label value (including {@code __name__}) in bytes, else 400
 */
public record DecodeLimits(
    int maxCompressedBytes,
    int maxDecompressedBytes,
    int maxSeriesPerRequest,
    int maxLabelsPerSeries,
    int maxLabelNameLength,
    int maxLabelValueLength) {

  public static final int DEFAULT_MAX_COMPRESSED_BYTES = 8 << 20;
  public static final int DEFAULT_MAX_DECOMPRESSED_BYTES = 64 << 20;
  public static final int DEFAULT_MAX_SERIES_PER_REQUEST = 100_000;
  public static final int DEFAULT_MAX_LABELS_PER_SERIES = 64;
  public static final int DEFAULT_MAX_LABEL_NAME_LENGTH = 256;
  public static final int DEFAULT_MAX_LABEL_VALUE_LENGTH = 4096;

  public DecodeLimits {
    requirePositive("maxCompressedBytes", maxCompressedBytes);
    requirePositive("maxDecompressedBytes", maxDecompressedBytes);
    requirePositive("maxSeriesPerRequest", maxSeriesPerRequest);
    requirePositive("maxLabelsPerSeries", maxLabelsPerSeries);
    requirePositive("maxLabelNameLength", maxLabelNameLength);
    requirePositive("maxLabelValueLength", maxLabelValueLength);
  }

  public static DecodeLimits defaults() {
    return new DecodeLimits(
        DEFAULT_MAX_COMPRESSED_BYTES,
        DEFAULT_MAX_DECOMPRESSED_BYTES,
        DEFAULT_MAX_SERIES_PER_REQUEST,
        DEFAULT_MAX_LABELS_PER_SERIES,
        DEFAULT_MAX_LABEL_NAME_LENGTH,
        DEFAULT_MAX_LABEL_VALUE_LENGTH);
  }

  private static void requirePositive(String name, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, got " + value);
    }
  }
}
