package dev.checkpointdoctor.detector.baseline;

/**
 * Read-only view of one tracker's baseline, for the API.
 *
 * @param state {@code "learning"} below {@code minObservations}, {@code "ready"} afterwards
 * @param expected current expected value (NaN before the first observation)
 * @param lower current lower band edge (NaN before the first observation)
 * @param upper current upper band edge (NaN before the first observation)
 * @param observations observations ever learned (not those skipped while an anomaly was open)
 * @param lastTimestampMs event time of the last observation seen ({@link
 *     RobustBaseline#NO_TIMESTAMP} before the first)
 * @param lastObserved last observed value (NaN before the first)
 */
public record BaselineView(
    String state,
    double expected,
    double lower,
    double upper,
    int observations,
    long lastTimestampMs,
    double lastObserved) {

  public static final String LEARNING = "learning";
  public static final String READY = "ready";
}
