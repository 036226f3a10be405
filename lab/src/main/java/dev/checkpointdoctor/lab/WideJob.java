package dev.checkpointdoctor.lab;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The lab's job with unaligned checkpoints and 1 KB records (source → keyBy → count → slow map
 * → sink, same rate, keys and state). With 8-byte records a full set of network buffers holds a
 * few hundred KB, far below what unaligned inflation means (the service's rule wants 8 MiB above
 * three times the earlier level); 1 KB records and a larger output buffer pool make the
 * in-flight data under back-pressure tens of MB, as in jobs with real payloads.
 */
final class WideJob {
  static final int PAYLOAD = 1024;

  private WideJob() {}

  static void configure(Configuration c) {
    c.setString("execution.checkpointing.unaligned.enabled", "true");
    FlinkLine.deepOutputBuffers(c);
    c.setString("taskmanager.memory.network.min", "128m");
    c.setString("taskmanager.memory.network.max", "128m");
  }

  static JobClient start(String jobName, Configuration conf) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(LabJob.PARALLELISM);
    DataGeneratorSource<Tuple2<Long, byte[]>> source = new DataGeneratorSource<>(
        seq -> Tuple2.of(seq % 1000, new byte[PAYLOAD]), Long.MAX_VALUE,
        RateLimiterStrategy.perSecond(LabJob.RATE),
        Types.TUPLE(Types.LONG, Types.PRIMITIVE_ARRAY(Types.BYTE)));
    FlinkLine.discard(env.fromSource(source, WatermarkStrategy.noWatermarks(), "source")
        .keyBy(t -> t.f0, Types.LONG)
        .process(new Count()).name("count")
        .map(new LabJob.SlowMap()).name("slow-map"), "sink");
    return env.executeAsync(jobName);
  }

  /** The lab job's keyed count (RocksDB), reading the key of the wide record. */
  static final class Count extends KeyedProcessFunction<Long, Tuple2<Long, byte[]>, Long> {
    private transient ValueState<Long> count;

    @Override
    public void open(OpenContext context) {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
    }

    @Override
    public void processElement(Tuple2<Long, byte[]> in, Context ctx, Collector<Long> out)
        throws Exception {
      Long c = count.value();
      long n = c == null ? 1 : c + 1;
      count.update(n);
      out.collect(n);
    }
  }
}
