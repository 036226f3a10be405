package dev.checkpointdoctor.eval.family2;

import java.util.Locale;

/**
 * How a fault comes in, as a strength over event time: 0 before the fault, 1 once it is fully
 * there. Real faults rarely switch on: a leak fills the heap over hours, a sink degrades through
 * the morning, a hot key takes over as a campaign spreads.
 */
enum Ramp {
  /** Full strength at the start (an outage, a config push). */
  STEP,
  /** Linear from 0 to 1 over the ramp time. */
  LINEAR,
  /** Logistic: slow, then fast, then saturating; 5 % at the start, 95 % at the end of the ramp. */
  SIGMOID,
  /** Jumps to 60 % at the start, then drifts on linearly, reaching 100 % after the ramp time. */
  STEP_THEN_DRIFT;

  /**
   * Strength at {@code t}.
   *
   * @param startMs the fault start (the first moment the fault is physically present)
   * @param rampMs how long it takes to reach full strength (ignored by {@link #STEP})
   */
  double at(long t, long startMs, long rampMs) {
    if (t < startMs) {
      return 0;
    }
    double x = rampMs <= 0 ? 1 : (t - startMs) / (double) rampMs;
    return switch (this) {
      case STEP -> 1;
      case LINEAR -> Math.min(1, x);
      case SIGMOID -> {
        // 2.944 = ln(19): the logistic is at 5 % at x = 0 and at 95 % at x = 1
        double z = (x - 0.5) * 2 * 2.944;
        yield 1 / (1 + Math.exp(-z));
      }
      case STEP_THEN_DRIFT -> Math.min(1, 0.6 + 0.4 * x);
    };
  }

  String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
