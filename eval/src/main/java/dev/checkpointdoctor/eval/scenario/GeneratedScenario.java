package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Labels;

/**
 * One simulated job history, produced on demand instead of read from a file: production-scale
 * histories (days of 15 s scrapes) are too large to keep on disk or in memory, so a simulator
 * plays them straight into the detector.
 */
public interface GeneratedScenario {
  /** What the history should be diagnosed as (its {@code file} is empty: nothing is written). */
  ScenarioManifest.Entry truth();

  /** Runs the simulation, handing every sample to {@code sink} in non-decreasing event time. */
  void play(SampleSink sink);

  /** Receives the samples of a {@link GeneratedScenario}. */
  @FunctionalInterface
  interface SampleSink {
    void sample(Labels labels, long timestampMs, double value);
  }
}
