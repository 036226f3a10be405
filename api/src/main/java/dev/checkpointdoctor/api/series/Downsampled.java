package dev.checkpointdoctor.api.series;

import java.util.List;

/** Points of one query and how they were made: the tier's bucket width, buckets per point. */
public record Downsampled(long bucketMs, int bucketsPerPoint, List<SeriesPoint> points) {}
