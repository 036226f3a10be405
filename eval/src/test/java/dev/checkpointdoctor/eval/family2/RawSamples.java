package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.eval.scenario.GeneratedScenario.SampleSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The raw samples of some metrics of a played scenario, per series, for tests that check from
 * the samples themselves (not from the detector) what the simulator put in.
 */
class RawSamples implements SampleSink {
  /** One series: its labels, timestamps and values (stale markers dropped). */
  static final class Series {
    final Labels labels;
    long[] ts = new long[64];
    double[] v = new double[64];
    int n;

    Series(Labels labels) {
      this.labels = labels;
    }

    void add(long t, double value) {
      if (n == ts.length) {
        ts = Arrays.copyOf(ts, n * 2);
        v = Arrays.copyOf(v, n * 2);
      }
      ts[n] = t;
      v[n++] = value;
    }

    /** Values stamped in [from, to). */
    List<Double> values(long from, long to) {
      List<Double> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (ts[i] >= from && ts[i] < to) {
          out.add(v[i]);
        }
      }
      return out;
    }

    /** Per-second rates of a counter between consecutive samples ending in [from, to). */
    List<double[]> rates(long from, long to) {
      List<double[]> out = new ArrayList<>();
      for (int i = 1; i < n; i++) {
        if (ts[i] >= from && ts[i] < to && v[i] >= v[i - 1] && ts[i] > ts[i - 1]
            && ts[i] - ts[i - 1] <= 130_000) {
          out.add(new double[] {ts[i], (v[i] - v[i - 1]) / ((ts[i] - ts[i - 1]) / 1000.0)});
        }
      }
      return out;
    }
  }

  private final Predicate<String> names;
  private final Map<Labels, Series> series = new LinkedHashMap<>();
  long samples;
  long lastTs = Long.MIN_VALUE;
  boolean wentBack;

  RawSamples(Predicate<String> names) {
    this.names = names;
  }

  @Override
  public void sample(Labels labels, long timestampMs, double value) {
    samples++;
    if (timestampMs < lastTs) {
      wentBack = true;
    }
    lastTs = timestampMs;
    if (Double.isNaN(value) || !names.test(labels.metricName())) {
      return;
    }
    series.computeIfAbsent(labels, Series::new).add(timestampMs, value);
  }

  List<Series> of(String metric) {
    List<Series> out = new ArrayList<>();
    for (Series s : series.values()) {
      if (s.labels.metricName().equals(metric)) {
        out.add(s);
      }
    }
    return out;
  }

  java.util.Set<String> metricNames() {
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (Labels l : series.keySet()) {
      names.add(l.metricName());
    }
    return names;
  }

  /** Every value of a metric in [from, to), over all its series. */
  List<Double> values(String metric, long from, long to) {
    List<Double> out = new ArrayList<>();
    for (Series s : of(metric)) {
      out.addAll(s.values(from, to));
    }
    return out;
  }

  /** Groups series by the value of a label. */
  static Map<String, List<Series>> by(List<Series> list, String label) {
    Map<String, List<Series>> out = new HashMap<>();
    for (Series s : list) {
      out.computeIfAbsent(s.labels.getOrDefault(label, ""), k -> new ArrayList<>()).add(s);
    }
    return out;
  }

  static double median(List<Double> values) {
    return quantile(values, 0.5);
  }

  static double quantile(List<Double> values, double q) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a[(int) Math.min(a.length - 1, Math.floor(q * (a.length - 1) + 0.5))];
  }

  /** Coefficient of variation (standard deviation / mean). */
  static double cv(List<Double> values) {
    double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double var = values.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum()
        / Math.max(1, values.size() - 1);
    return mean == 0 ? Double.NaN : Math.sqrt(var) / mean;
  }
}
