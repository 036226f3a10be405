package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.detector.baseline.SignalTracker;
import dev.checkpointdoctor.detector.catalog.MetricRule;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.extract.SignalExtractor;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.ingest.remotewrite.DecodedSeries;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The detector side, per sample of a used series: signal extraction alone, one baseline update,
 * and the whole detector (extraction, baselines, anomaly state) as the worker thread calls it.
 * Every invocation is the next scrape: timestamps advance 15 s and values move, so counters are
 * differenced and per-checkpoint gauges complete a checkpoint.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PipelineBench {
  private Labels[] labels;
  private MetricRule[] rules;
  private double[] base;
  private SignalExtractor extractor;
  private Detector detector;
  private SignalTracker tracker;
  private long ts = 1_700_000_000_000L;
  private int round;
  private final long[] oneTs = new long[1];
  private final double[] oneValue = new double[1];
  private double[] trackerValues;

  @Setup
  public void setUp() {
    SignalCatalog catalog = SignalCatalog.defaults();
    List<DecodedSeries> used = BenchData.usedSeries();
    labels = new Labels[used.size()];
    rules = new MetricRule[used.size()];
    base = new double[used.size()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = used.get(i).labels();
      rules[i] = catalog.ruleFor(labels[i].metricName());
      base[i] = used.get(i).values()[0];
    }
    DetectorSettings settings = DetectorSettings.defaults();
    extractor = new SignalExtractor(catalog, settings);
    detector = new Detector(catalog, settings);
    tracker = new SignalTracker(Signal.CHECKPOINT_DURATION, settings);
    trackerValues = new double[1024];
    java.util.Random r = new java.util.Random(42);
    for (int i = 0; i < trackerValues.length; i++) {
      trackerValues[i] = 300 + 20 * r.nextGaussian();
    }
  }

  private double value(int i) {
    return base[i] + round * Math.max(1, Math.abs(base[i]) * 0.001);
  }

  @Benchmark
  @OperationsPerInvocation(BenchData.USED_SERIES)
  public void extract(Blackhole bh) {
    ts += 15_000;
    round++;
    Consumer<Observation> out = bh::consume;
    for (int i = 0; i < labels.length; i++) {
      extractor.onSample(rules[i], labels[i], ts, value(i), out);
    }
    extractor.flush(ts, out);
  }

  @Benchmark
  @OperationsPerInvocation(BenchData.USED_SERIES)
  public void detector() {
    ts += 15_000;
    round++;
    oneTs[0] = ts;
    for (int i = 0; i < labels.length; i++) {
      oneValue[0] = value(i);
      detector.accept(labels[i], oneTs, oneValue);
    }
    detector.endBatch();
  }

  @Benchmark
  public SignalTracker.Step baselineObserve() {
    ts += 15_000;
    return tracker.observe(ts, trackerValues[round++ & 1023]);
  }
}
