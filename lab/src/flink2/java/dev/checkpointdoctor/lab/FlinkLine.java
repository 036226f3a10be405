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
   * A Sink V2: 2.x moved SinkFunction to sink.legacy and keeps it only for compatibility. The
   * task becomes "count -> slow-map -> sink: Writer" (1.20: "… -> Sink: sink").
   */
  static <T> void discard(DataStream<T> in, String name) {
    in.sinkTo(new DiscardingSink<>()).name(name);
  }
}
