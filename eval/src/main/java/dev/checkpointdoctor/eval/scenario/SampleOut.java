package dev.checkpointdoctor.eval.scenario;

/**
 * Where a simulator writes what Prometheus would have stored: into memory for a recording
 * ({@link SeriesRecorder}) or straight on to the detector ({@link StreamingSamples}).
 */
interface SampleOut {
  /**
   * One sample.
   *
   * @param labels name/value pairs in the order the exporter writes them
   */
  void add(String name, String[] labels, long ts, double value);

  /**
   * The simulator will write no sample older than {@code ms} from now on: a streaming receiver
   * may pass on everything before it.
   */
  default void nothingBefore(long ms) {}
}
