package dev.checkpointdoctor.detector.model;

import java.time.Duration;
import java.util.Map;

/**
 * Tuning of the detector core, validated on construction so a bad value fails start-up.
 *
 * @param minObservations observations a baseline needs before it may flag anything
 * @param windowSize observations kept per baseline (the robust statistics run over these)
 * @param halfLife age (event time) at which an observation weighs half as much as a fresh one
 * @param bandWidth half-width of the normal band in robust standard deviations (1.4826 x MAD)
 * @param relativeFloor smallest band half-width as a fraction of the expected value
 * @param openAfter consecutive out-of-band observations that open an anomaly
 * @param resolveAfter consecutive in-band observations that resolve it
 * @param newNormalAfter how long (event time) a departure must hold as one stable level before
 *     it becomes the new normal: the anomaly resolves as such and the baseline re-learns from the
 *     new level; {@link Duration#ZERO} never does
 * @param failureWindow trailing event-time window over which failed checkpoints are counted
 * @param checkpointTimeout the Flink checkpoint timeout assumed for forecasts
 * @param hostAliases explicit Flink host to node name mapping, used when labels do not join
 */
public record DetectorSettings(
    int minObservations,
    int windowSize,
    Duration halfLife,
    double bandWidth,
    double relativeFloor,
    int openAfter,
    int resolveAfter,
    Duration newNormalAfter,
    Duration failureWindow,
    Duration checkpointTimeout,
    Map<String, String> hostAliases) {

  public DetectorSettings {
    require(minObservations >= 3, "minObservations must be at least 3");
    require(windowSize >= minObservations, "windowSize must be at least minObservations");
    require(windowSize <= 4096, "windowSize must be at most 4096");
    require(halfLife != null && !halfLife.isNegative() && !halfLife.isZero(), "halfLife must be > 0");
    require(bandWidth > 0 && Double.isFinite(bandWidth), "bandWidth must be > 0");
    require(relativeFloor >= 0 && relativeFloor < 10, "relativeFloor must be in [0, 10)");
    require(openAfter >= 1, "openAfter must be at least 1");
    require(resolveAfter >= 1, "resolveAfter must be at least 1");
    require(newNormalAfter != null && !newNormalAfter.isNegative(),
        "newNormalAfter must be >= 0 (0 = never)");
    require(failureWindow != null && !failureWindow.isNegative() && !failureWindow.isZero(),
        "failureWindow must be > 0");
    require(checkpointTimeout != null && !checkpointTimeout.isNegative()
        && !checkpointTimeout.isZero(), "checkpointTimeout must be > 0");
    hostAliases = hostAliases == null ? Map.of() : Map.copyOf(hostAliases);
  }

  public static DetectorSettings defaults() {
    return new DetectorSettings(
        20, 120, Duration.ofDays(3), 4.0, 0.1, 3, 3, Duration.ofHours(6),
        Duration.ofMinutes(30), Duration.ofMinutes(10), Map.of());
  }

  public DetectorSettings withMinObservations(int n) {
    return new DetectorSettings(n, Math.max(windowSize, n), halfLife, bandWidth, relativeFloor,
        openAfter, resolveAfter, newNormalAfter, failureWindow, checkpointTimeout, hostAliases);
  }

  public DetectorSettings withHostAliases(Map<String, String> aliases) {
    return new DetectorSettings(minObservations, windowSize, halfLife, bandWidth, relativeFloor,
        openAfter, resolveAfter, newNormalAfter, failureWindow, checkpointTimeout, aliases);
  }

  public DetectorSettings withNewNormalAfter(Duration after) {
    return new DetectorSettings(minObservations, windowSize, halfLife, bandWidth, relativeFloor,
        openAfter, resolveAfter, after, failureWindow, checkpointTimeout, hostAliases);
  }

  /** True when a lasting level may become the new normal ({@link #newNormalAfter} is not 0). */
  public boolean learnsNewNormal() {
    return !newNormalAfter.isZero();
  }

  /** The same settings with the job's own checkpoint timeout (as Flink reports it). */
  public DetectorSettings withCheckpointTimeout(Duration timeout) {
    return new DetectorSettings(minObservations, windowSize, halfLife, bandWidth, relativeFloor,
        openAfter, resolveAfter, newNormalAfter, failureWindow, timeout, hostAliases);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
