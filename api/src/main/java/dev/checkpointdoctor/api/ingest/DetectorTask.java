package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.Detector;

/**
 * Work that must run on the detector thread, between two live batches and never inside one: a
 * slice of history, or the live samples held while a job bootstrapped. It hands samples to the
 * detector through the same {@link Detector#accept} and {@link Detector#endBatch} live samples
 * use.
 */
@FunctionalInterface
public interface DetectorTask {
  void run(Detector detector);
}
