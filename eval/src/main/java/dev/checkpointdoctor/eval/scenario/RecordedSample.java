package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Labels;

/** One sample of a recorded history: a series, its event time (ms) and value. */
public record RecordedSample(Labels labels, long timestampMs, double value) {}
