package dev.checkpointdoctor.api.bootstrap;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How one target is read: one step for all its series (the shortest scrape interval among them),
 * steps half an interval after the scrapes of the target with that interval, slices of {@code
 * pointsPerSlice} steps from {@code startMs} on (the per-scrape tier from {@code scrapeStartMs},
 * a slice boundary) up to {@code endMs}; and each scrape target's cadence, as far as known (more
 * are learnt as history shows targets that are gone now).
 */
record Plan(long stepMs, long startMs, long scrapeStartMs, long endMs, int pointsPerSlice,
    int expectedSeries, Map<String, Cadence> cadences) {

  Plan {
    cadences = new ConcurrentHashMap<>(cadences);
  }

  long sliceMs() {
    return stepMs * pointsPerSlice;
  }

  int slices() {
    return (int) ((endMs - startMs) / sliceMs()) + 1;
  }

  /** The grid of slice {@code k}, its last point at most {@code endMs}. */
  Grid grid(int k) {
    long from = startMs + k * sliceMs();
    int points = (int) Math.min(pointsPerSlice, (endMs - from) / stepMs + 1);
    return new Grid(from, stepMs, points);
  }
}
