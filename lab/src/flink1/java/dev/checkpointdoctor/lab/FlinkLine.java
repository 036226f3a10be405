package dev.checkpointdoctor.lab;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.DiscardingSink;

/**
 * What differs between the Flink lines the lab builds against (this one: 1.20, the default
 * build; src/flink2/java is the -Pflink2 one). Everything else compiles against both.
 */
final class FlinkLine {
  /** 1.20 recordings keep the names they had before there was a second line. */
  static final String RECORDING_PREFIX = "";

  private FlinkLine() {}

  /** The legacy SinkFunction sink, so the 1.20 job graph (and its task names) stays as it was. */
  static <T> void discard(DataStream<T> in, String name) {
    in.addSink(new DiscardingSink<>()).name(name);
  }
}
