package dev.checkpointdoctor.detector.model;

/** Which departures from the baseline count as trouble for a signal. */
public enum Direction {
  /** Only values above the band are anomalous (durations, delays, failures). */
  UP,
  /** Only values below the band are anomalous (throughput). */
  DOWN,
  /** Departures either way are anomalous. */
  BOTH,
  /** Baselined for evidence only; never opens an anomaly by itself (restarts, disk activity). */
  NONE;

  public boolean flagsHigh() {
    return this == UP || this == BOTH;
  }

  public boolean flagsLow() {
    return this == DOWN || this == BOTH;
  }
}
