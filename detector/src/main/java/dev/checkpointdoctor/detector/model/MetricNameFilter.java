package dev.checkpointdoctor.detector.model;

/**
 * Decides from a metric name alone whether a series is worth decoding. Called on the ingest hot
 * path with the raw UTF-8 bytes of {@code __name__}, before any label map or string is built, so
 * implementations must not allocate.
 */
@FunctionalInterface
public interface MetricNameFilter {
  boolean accepts(byte[] utf8, int offset, int length);

  MetricNameFilter ACCEPT_ALL = (b, o, l) -> true;
}
