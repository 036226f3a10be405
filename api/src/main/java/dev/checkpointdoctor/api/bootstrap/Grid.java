package dev.checkpointdoctor.api.bootstrap;

/**
 * The evaluation times of one {@code query_range}: {@code start + i * step} for {@code i < points},
 * as Prometheus evaluates them (both ends included).
 */
record Grid(long startMs, long stepMs, int points) {

  Grid {
    if (stepMs <= 0 || points <= 0) {
      throw new IllegalArgumentException("grid needs a positive step and points");
    }
  }

  long timeMs(int i) {
    return startMs + i * stepMs;
  }

  long endMs() {
    return timeMs(points - 1);
  }

  /** The index of an evaluation time from an answer, or -1 when it is not one of ours. */
  int index(long tsMs) {
    long offset = tsMs - startMs;
    if (offset < 0) {
      return -1;
    }
    long i = (offset + stepMs / 2) / stepMs;
    return i < points && Math.abs(offset - i * stepMs) <= Math.max(1, stepMs / 100) ? (int) i : -1;
  }

  /** Seconds as the API takes them, with milliseconds: {@code 1700000000.5}. */
  static String seconds(long ms) {
    long s = Math.floorDiv(ms, 1000);
    long frac = Math.floorMod(ms, 1000);
    return frac == 0 ? Long.toString(s) : s + "." + String.format(java.util.Locale.ROOT, "%03d", frac);
  }
}
