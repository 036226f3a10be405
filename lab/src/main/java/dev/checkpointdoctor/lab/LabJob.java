package dev.checkpointdoctor.lab;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/** The lab's Flink job: rate-limited source → keyed RocksDB state → map → discarding sink. */
final class LabJob {
  static final int RATE = 4000;
  static final int PARALLELISM = 2;

  private LabJob() {}

  static Configuration config(Path work, int reporterPortFrom, String checkpointScheme,
      String backend) {
    Configuration c = new Configuration();
    c.setString("state.backend.type", backend);
    c.setString("state.backend.rocksdb.localdir", work.resolve("rocksdb").toString());
    c.setString("execution.checkpointing.incremental", "true");
    c.setString("execution.checkpointing.interval", "2s");
    c.setString("execution.checkpointing.storage", "filesystem");
    c.setString("execution.checkpointing.dir",
        checkpointScheme + "://" + work.resolve("checkpoints").toAbsolutePath());
    c.setString("execution.checkpointing.timeout", "30s");
    c.setString("execution.checkpointing.tolerable-failed-checkpoints", "1000000");
    c.setString("restart-strategy.type", "fixed-delay");
    c.setString("restart-strategy.fixed-delay.attempts", "1000");
    c.setString("restart-strategy.fixed-delay.delay", "1s");
    c.setString("taskmanager.numberOfTaskSlots", String.valueOf(PARALLELISM));
    c.setString("rest.bind-address", "127.0.0.1");
    c.setString("rest.address", "127.0.0.1");
    c.setString("jobmanager.bind-host", "127.0.0.1");
    c.setString("taskmanager.bind-host", "127.0.0.1");
    c.setString("taskmanager.host", "127.0.0.1");
    // Flink's PrometheusReporter (same exposition), bound to loopback only
    c.setString("metrics.reporter.prom.factory.class",
        LoopbackPrometheusReporterFactory.class.getName());
    c.setString("metrics.reporter.prom.port", reporterPortFrom + "-" + (reporterPortFrom + 10));
    // as deploy/flink/config.yaml: the RocksDB native metrics the catalog uses, labelled by column family
    c.setString("state.backend.rocksdb.metrics.column-family-as-variable", "true");
    c.setString("state.backend.rocksdb.metrics.estimate-pending-compaction-bytes", "true");
    c.setString("state.backend.rocksdb.metrics.actual-delayed-write-rate", "true");
    c.setString("state.backend.rocksdb.metrics.is-write-stopped", "true");
    c.setString("state.backend.rocksdb.metrics.num-files-at-level", "true");
    c.setString("state.backend.rocksdb.metrics.stall-micros", "true");
    return c;
  }

  static JobClient start(String jobName, Configuration conf) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(PARALLELISM);
    DataGeneratorSource<Long> source = new DataGeneratorSource<>(new Keys(), Long.MAX_VALUE,
        RateLimiterStrategy.perSecond(RATE), Types.LONG);
    FlinkLine.discard(env.fromSource(source, WatermarkStrategy.noWatermarks(), "source")
        .keyBy(k -> k)
        .process(new Count()).name("count")
        .map(new SlowMap()).name("slow-map"), "sink");
    return env.executeAsync(jobName);
  }

  /** The source's keys; its open() is the source task thread's first call into the job's code. */
  static final class Keys implements GeneratorFunction<Long, Long> {
    @Override
    public void open(SourceReaderContext context) {
      CpuQuota.enrolCurrentThread(context.metricGroup().getAllVariables().get("<tm_id>"));
    }

    @Override
    public Long map(Long seq) {
      return Faults.growState ? (1L << 40) + seq
          : Faults.dataSkew ? SkewKeys.key(seq)
          : seq % (Faults.heavyWrites ? HEAVY_KEYS : 1000);
    }
  }

  /** Keys of the disk scenario's job: a fixed set, so its state does not grow. */
  static final int HEAVY_KEYS = 20_000;
  static final int HEAVY_PAYLOAD = 1024;

  /**
   * Keyed state without TTL: a counter and a 256-byte payload per key (with {@link
   * Faults#heavyWrites}: a 1 KB payload rewritten on every record, ~4 MB/s into RocksDB, flushed
   * to new SST files at every checkpoint and compacted).
   */
  static final class Count extends KeyedProcessFunction<Long, Long, Long> {
    private transient ValueState<Long> count;
    private transient ValueState<byte[]> payload;

    // open(OpenContext): 1.20 has it (and calls it), 2.x removed open(Configuration)
    @Override
    public void open(OpenContext context) {
      // the count -> map -> sink task thread (cpu_throttling: into the quota's group)
      CpuQuota.enrolCurrentThread(getRuntimeContext().getMetricGroup().getAllVariables()
          .get("<tm_id>"));
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
      payload = getRuntimeContext().getState(
          new ValueStateDescriptor<>("payload", byte[].class));
    }

    @Override
    public void processElement(Long key, Context ctx, Collector<Long> out) throws Exception {
      Long c = count.value();
      long n = c == null ? 1 : c + 1;
      count.update(n);
      if (Faults.heavyWrites) {
        byte[] b = new byte[HEAVY_PAYLOAD];
        // varies with the count so that compression cannot make the flushes small
        long x = key * 0x9E3779B97F4A7C15L + n;
        for (int i = 0; i < b.length; i++) {
          x ^= x << 13;
          x ^= x >>> 7;
          x ^= x << 17;
          b[i] = (byte) x;
        }
        payload.update(b);
      } else if (c == null) {
        byte[] b = new byte[256];
        for (int i = 0; i < b.length; i++) {
          b[i] = (byte) (key * 31 + i);
        }
        payload.update(b);
      }
      if (Faults.dataSkew && ++skewed % SkewKeys.RECORDS_PER_MS == 0) {
        LockSupport.parkNanos(1_000_000);
      }
      out.collect(n);
    }

    private long skewed;
  }

  /** The cache of the GC-pressure fault: filled up to {@link #CACHE_SHARE} of the heap. */
  static final java.util.List<byte[]> CACHE = new java.util.ArrayList<>();
  static final double CACHE_SHARE = 0.7;

  /** Sleeps 2 ms per record while {@link Faults#slowMap} is on: ~500 rec/s per subtask, a quarter of the load. */
  static final class SlowMap implements MapFunction<Long, Long> {
    @Override
    public Long map(Long v) {
      if (Faults.slowMap) {
        LockSupport.parkNanos(2_000_000);
      }
      if (Faults.gcPressure) {
        Runtime rt = Runtime.getRuntime();
        synchronized (CACHE) {
          // +256 KB per record until the cache holds CACHE_SHARE of the heap: reached in
          // seconds. Chunks stay below half a G1 region (1 MB at -Xmx1g): 1 MB arrays would be
          // humongous and take two regions each, and the "60 %" would be 120 %.
          if ((long) CACHE.size() << 18 < CACHE_SHARE * rt.maxMemory()) {
            CACHE.add(new byte[1 << 18]);
          }
        }
        byte[] garbage = new byte[64 << 10]; // churn: ~256 MB/s at 4,000 records/s
        garbage[(int) (v & 0x3fff)] = 1;
        return v + garbage[0];
      } else if (!CACHE.isEmpty()) {
        synchronized (CACHE) {
          CACHE.clear();
        }
      }
      return v;
    }
  }
}
