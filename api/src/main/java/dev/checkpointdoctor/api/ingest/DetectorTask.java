package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.DetectorInput;

/**
 * Work that must run between two live batches and never inside one: a slice of history, or the
 * live samples held while a job bootstrapped. Every detector thread stops at the same place in
 * the stream of requests; one of them runs the task, handing samples to the detector through
 * the same routing to shards live samples take ({@link DetectorInput#accept}, {@link
 * DetectorInput#endBatch}), then all go on.
 */
@FunctionalInterface
public interface DetectorTask {
  void run(DetectorInput detector);
}
