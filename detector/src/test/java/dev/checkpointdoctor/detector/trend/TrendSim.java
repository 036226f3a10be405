package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import dev.checkpointdoctor.detector.pipeline.DetectorState;
import dev.checkpointdoctor.detector.pipeline.DetectorStateCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Test-only production-time-scale job for the trend test: days of checkpoints (one scrape per
 * completed checkpoint, so weeks run in a second) with the job manager's checkpoint gauges and
 * the sources' records-in, fed through a {@link Detector} with the cause ranker. The input rate
 * follows a daily (and optionally weekly) cycle and wanders; the full size follows the input
 * rate a little, the checkpoint duration follows the size and the input rate; every value has
 * multiplicative noise; optionally the state grows (compounding) from some hour on.
 */
public final class TrendSim {
  static final long T0 = 1_796_083_200_000L; // 2026-12-01T00:00:00Z, a Tuesday
  static final long HOUR = 3_600_000L;

  final Random rnd;
  final String job;
  final long intervalMs;
  final List<Diagnosis> diagnoses = new ArrayList<>();
  /** Event time at which each of {@link #diagnoses} was made. */
  final List<Long> diagnosedAtMs = new ArrayList<>();
  final List<Anomaly> opened = new ArrayList<>();
  Detector detector;
  final DetectorSettings settings;
  long now = T0;
  long completed;

  // the job
  double baseSize = 2e9;
  double baseDurationMs = 20_000;
  double baseRecordsPerS = 20_000;
  double dailyAmplitude = 0.3;
  /** Input rate on Saturdays and Sundays as a share of weekdays (1: no weekly cycle). */
  double weekend = 1;
  /** How much the full size follows the input rate (0: not at all, 1: proportionally). */
  double sizeFollowsLoad = 0.1;
  double noise = 0.05;
  double sizeNoise = 0.01;
  /** Growth of the state per hour (compounding), from {@link #growthStartMs} on. */
  double growthPerHour;
  long growthStartMs = Long.MAX_VALUE;
  /** From {@link #stepAtMs} on, every checkpoint takes this many times longer (a slow store). */
  double stepFactor = 1;
  long stepAtMs = Long.MAX_VALUE;
  private double wander;

  TrendSim(long seed, long intervalMs) {
    this(seed, intervalMs, DetectorSettings.defaults());
  }

  TrendSim(long seed, long intervalMs, DetectorSettings settings) {
    this.rnd = new Random(seed);
    this.job = "trend_" + seed;
    this.intervalMs = intervalMs;
    this.settings = settings;
    attach(new Detector(SignalCatalog.defaults(), settings, new CauseRanker(settings)));
  }

  private void attach(Detector d) {
    detector = d;
    d.addListener(new DetectorListener() {
      @Override
      public void anomalyOpened(Anomaly a) {
        opened.add(a);
      }

      @Override
      public void diagnosisChanged(String j, Diagnosis before, Diagnosis after, long atMs) {
        if (after != null) {
          diagnoses.add(after);
          diagnosedAtMs.add(atMs);
        }
      }
    });
  }

  /**
   * Snapshot the detector, encode and decode the snapshot and start a new detector from it, as
   * a restart of the service does.
   */
  void restart() {
    DetectorState state;
    try {
      state = DetectorStateCodec.decode(DetectorStateCodec.encode(detector.snapshot()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    attach(new Detector(SignalCatalog.defaults(), settings, new CauseRanker(settings), state));
  }

  double load(long t) {
    double hours = (t - T0) / (double) HOUR;
    double daily = 1 + dailyAmplitude * Math.sin(2 * Math.PI * (hours - 9) / 24);
    long day = Math.floorDiv(t - T0, 24 * HOUR) + 2; // T0 is a Tuesday: day 5, 6 = Sat, Sun
    boolean weekendDay = Math.floorMod(day, 7) >= 5;
    return daily * (weekendDay ? weekend : 1) * Math.exp(wander);
  }

  double stateSize(long t) {
    double s = baseSize;
    if (t >= growthStartMs) {
      s *= Math.pow(1 + growthPerHour, (t - growthStartMs) / (double) HOUR);
    }
    return s;
  }

  /** Runs {@code hours} more of checkpoints. */
  void run(double hours) {
    long end = now + Math.round(hours * HOUR);
    while (now < end) {
      now += intervalMs;
      wander = 0.9 * wander + 0.02 * rnd.nextGaussian();
      double load = load(now);
      double size = stateSize(now) * (1 + sizeFollowsLoad * (load - 1)) * jitter(sizeNoise);
      double duration = baseDurationMs * (size / baseSize) * (0.7 + 0.3 * load) * jitter(noise)
          * (now >= stepAtMs ? stepFactor : 1);
      completed++;
      jm("lastCheckpointDuration", Math.rint(duration));
      jm("lastCheckpointFullSize", Math.rint(size));
      jm("lastCheckpointSize", Math.rint(size * 0.05 * load * jitter(noise)));
      jm("numberOfCompletedCheckpoints", completed);
      jm("numberOfFailedCheckpoints", 0);
      jm("numberOfInProgressCheckpoints", 0);
      for (int i = 0; i < 2; i++) {
        task("numRecordsInPerSecond", i, baseRecordsPerS * load * jitter(noise));
      }
      detector.endBatch();
    }
  }

  double jitter(double sigma) {
    return Math.exp(sigma * rnd.nextGaussian());
  }

  private final java.util.Map<String, Labels> labels = new java.util.HashMap<>();

  private void jm(String metric, double value) {
    String name = "flink_jobmanager_job_" + metric;
    Labels l = labels.computeIfAbsent(name, k -> Labels.of("__name__", k, "job", "flink",
        "instance", "jm:9249", "job_id", "00000000000000000000000000000a01", "job_name", job));
    detector.accept(l, new long[] {now}, new double[] {value});
  }

  private void task(String metric, int subtask, double value) {
    String name = "flink_taskmanager_job_task_" + metric;
    Labels l = labels.computeIfAbsent(name + subtask, k -> Labels.of("__name__", name, "job",
        "flink", "instance", "tm-0:9249", "host", "worker_0", "tm_id", "flink_tm_0", "job_id",
        "00000000000000000000000000000a01", "job_name", job, "subtask_index",
        Integer.toString(subtask), "task_name", "Source:_kafka", "task_id", "t0"));
    detector.accept(l, new long[] {now}, new double[] {value});
  }

  /** The first diagnosis naming {@code cause}, or null. */
  Diagnosis first(String cause) {
    return diagnoses.stream().filter(d -> d.cause().equals(cause)).findFirst().orElse(null);
  }

  /** When {@code cause} was first named, or -1. */
  long firstNamedAtMs(String cause) {
    for (int i = 0; i < diagnoses.size(); i++) {
      if (diagnoses.get(i).cause().equals(cause)) {
        return diagnosedAtMs.get(i);
      }
    }
    return -1;
  }

  List<Anomaly> trendAnomalies() {
    return opened.stream().filter(a -> a.scope().equals(GrowthTest.ANOMALY_SCOPE)).toList();
  }
}
