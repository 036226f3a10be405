package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import dev.checkpointdoctor.ingest.remotewrite.DecodedSeries;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The detector as the server runs it, per sample of a used series: the cause ranker as diagnoser
 * and a listener that keeps every evaluation, as the series feed queues them. Unlike {@link
 * PipelineBench#detector}, whose steadily rising values soon open an anomaly on every baseline
 * (and an open baseline learns nothing), values here are stationary noise around each series'
 * level and counters grow by a noisy step, so baselines keep learning and their bands are
 * recomputed every scrape, as in a healthy fleet. Levels of 0 (backpressure, failures) stay 0.
 *
 * <p>On a shared machine the wall-clock score mostly measures the neighbours; {@code java -cp
 * bench/target/benchmarks.jar dev.checkpointdoctor.bench.ServerPathBench} reports the detector
 * thread's CPU time per sample instead; {@code -Dseries=5000} feeds more used series (from a
 * bigger fleet) than the caches hold, as a server's detector sees them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ServerPathBench {
  private static final Set<Kind> COUNTERS = EnumSet.of(Kind.CP_COMPLETED_ID,
      Kind.CP_COMPLETED_COUNT, Kind.CP_FAILED_COUNT, Kind.NUM_RESTARTS, Kind.GC_COLLECTOR_TIME,
      Kind.RDB_STALL_MICROS, Kind.DISK_READS, Kind.DISK_WRITES, Kind.DISK_WRITTEN_BYTES,
      Kind.DISK_IO_TIME, Kind.DISK_READ_TIME, Kind.DISK_WRITE_TIME, Kind.CFS_PERIODS,
      Kind.CFS_THROTTLED_PERIODS);
  private static final int NOISE = 1 << 12;
  private static final int WINDOWS = Integer.getInteger("windows", 5);

  private Labels[] labels;
  private boolean[] counter;
  private double[] level;
  private double[] step;
  private double[] current;
  private final double[] noise = new double[NOISE];
  private Detector detector;
  private final Evaluation[] kept = new Evaluation[1 << 12];
  private int keptAt;
  private long ts = 1_700_000_000_000L;
  private int round;
  private final long[] oneTs = new long[1];
  private final double[] oneValue = new double[1];

  @Setup
  public void setUp() {
    setUp(BenchData.USED_SERIES);
  }

  private void setUp(int series) {
    SignalCatalog catalog = SignalCatalog.defaults();
    List<DecodedSeries> used = BenchData.usedSeries(series);
    int n = used.size();
    labels = new Labels[n];
    counter = new boolean[n];
    level = new double[n];
    step = new double[n];
    current = new double[n];
    for (int i = 0; i < n; i++) {
      labels[i] = used.get(i).labels();
      MetricRule rule = catalog.ruleFor(labels[i].metricName());
      double base = used.get(i).values()[0];
      Kind kind = rule.kind();
      counter[i] = COUNTERS.contains(kind);
      level[i] = base;
      current[i] = base;
      step[i] = kind == Kind.CP_FAILED_COUNT || kind == Kind.NUM_RESTARTS ? 0
          : kind == Kind.CP_COMPLETED_ID || kind == Kind.CP_COMPLETED_COUNT ? 1
          : Math.max(1, Math.abs(base) * 0.001);
    }
    Random r = new Random(42);
    for (int i = 0; i < NOISE; i++) {
      noise[i] = Math.max(-2, Math.min(2, r.nextGaussian())); // so a counter never goes down
    }
    DetectorSettings settings = DetectorSettings.defaults();
    detector = new Detector(catalog, settings, new CauseRanker(settings));
    detector.addListener(new DetectorListener() {
      @Override
      public void evaluated(Evaluation evaluation) {
        kept[keptAt++ & (kept.length - 1)] = evaluation;
      }
    });
  }

  private double next(int i) {
    double z = noise[(round * 7919 + i * 31) & (NOISE - 1)];
    if (counter[i]) {
      // a whole step when the step is 1 (checkpoint ids), a noisy one otherwise
      current[i] += step[i] == 1 ? 1 : step[i] * (1 + 0.5 * z);
      return current[i];
    }
    return level[i] * (1 + 0.05 * z);
  }

  /** Warms for 5 s of CPU, then prints the CPU ns per sample of five 2 s CPU windows. */
  public static void main(String[] args) {
    ServerPathBench b = new ServerPathBench();
    int series = Integer.getInteger("series", BenchData.USED_SERIES);
    b.setUp(series);
    java.util.function.DoubleSupplier scrape = () -> {
      b.server();
      return b.round;
    };
    ThreadCpu.warm(scrape, 1, 5_000_000_000L);
    StringBuilder out = new StringBuilder("CPU ns per sample:");
    for (int w = 0; w < WINDOWS; w++) {
      out.append(String.format(" %.1f", ThreadCpu.window(scrape, 1, 2_000_000_000L) / series));
      if (Boolean.getBoolean("verbose")) {
        out.append(String.format(" [round %d, open %d]", b.round, b.detector.openAnomalyCount()));
      }
    }
    System.out.println(out);
  }

  @Benchmark
  @OperationsPerInvocation(BenchData.USED_SERIES)
  public void server() {
    ts += 15_000;
    round++;
    oneTs[0] = ts;
    for (int i = 0; i < labels.length; i++) {
      oneValue[0] = next(i);
      detector.accept(labels[i], oneTs, oneValue);
    }
    detector.endBatch();
  }
}
