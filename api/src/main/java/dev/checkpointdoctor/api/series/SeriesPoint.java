package dev.checkpointdoctor.api.series;

/**
 * One downsampled point: the observed min, max and last value over [startMs, endMs) and the band
 * of the latest judgement in it. Band values are NaN while the baseline was still learning.
 *
 * @param firstMs event time of its first observation (to the second): where a chart draws the
 *     step from the previous point's value to this one's
 * @param outside whether any observation in it was out of band in the bad direction
 */
public record SeriesPoint(long startMs, long endMs, long firstMs, double min, double max,
    double last, double expected, double lower, double upper, boolean outside) {}
