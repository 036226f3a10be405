package dev.checkpointdoctor.lab;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * What differs between the Flink lines the lab builds against (this one: 2.x, -Pflink2;
 * src/flink1/java is the default build's). Everything else compiles against both.
 */
final class FlinkLine {
  /** So that a 2.x run does not overwrite the 1.20 recording of the same scenario. */
  static final String RECORDING_PREFIX = "flink2-";

  private FlinkLine() {}

  /**
   * Output buffers that hold ~16 MB per source subtask for {@link WideJob}. 2.x has no
   * floating-buffers-per-gate / max-buffers-per-channel any more (a pool of ~10 buffers per
   * subpartition held ~650 KB per checkpoint in a first 2.3.0 run), so the buffers get bigger
   * instead of more.
   */
  static void deepOutputBuffers(org.apache.flink.configuration.Configuration c) {
    c.setString("taskmanager.memory.segment-size", "1mb");
  }

  /**
   * A Sink V2: 2.x moved SinkFunction to sink.legacy and keeps it only for compatibility. The
   * task becomes "count -> slow-map -> sink: Writer" (1.20: "… -> Sink: sink").
   */
  static <T> void discard(DataStream<T> in, String name) {
    in.sinkTo(new DiscardingSink<>()).name(name);
  }
}
