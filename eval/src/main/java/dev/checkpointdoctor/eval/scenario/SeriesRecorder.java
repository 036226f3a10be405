package dev.checkpointdoctor.eval.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Collects generated samples per series in memory, keyed by the exposition series text. */
public final class SeriesRecorder implements SampleOut {
  private final Map<String, Series> series = new LinkedHashMap<>();

  /**
   * Records one sample.
   *
   * @param labels name/value pairs in the order the exporter writes them
   */
  @Override
  public void add(String name, String[] labels, long ts, double value) {
    StringBuilder key = new StringBuilder(name);
    if (labels.length > 0) {
      key.append('{');
      for (int i = 0; i < labels.length; i += 2) {
        key.append(labels[i]).append("=\"").append(labels[i + 1]).append("\",");
      }
      key.setLength(key.length() - 1);
      key.append('}');
    }
    String k = key.toString();
    series.computeIfAbsent(k, x -> new Series(name, x)).add(ts, value);
  }

  /** Series sorted by metric name, then by label text; each series oldest first. */
  public Collection<Series> series() {
    List<Series> out = new ArrayList<>(series.values());
    out.sort(Comparator.comparing(Series::name).thenComparing(Series::key));
    return out;
  }

  public long sampleCount() {
    long n = 0;
    for (Series s : series.values()) {
      n += s.size();
    }
    return n;
  }

  /** Metric names present, for {@code # TYPE} lines. */
  public Map<String, Integer> names() {
    Map<String, Integer> m = new TreeMap<>();
    for (Series s : series.values()) {
      m.merge(s.name(), 1, Integer::sum);
    }
    return m;
  }

  /** One series: its text key and samples. */
  public static final class Series {
    private final String name;
    private final String key;
    private long[] ts = new long[64];
    private double[] values = new double[64];
    private int size;

    Series(String name, String key) {
      this.name = name;
      this.key = key;
    }

    void add(long t, double v) {
      if (size == ts.length) {
        ts = Arrays.copyOf(ts, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      ts[size] = t;
      values[size++] = v;
    }

    public String name() {
      return name;
    }

    public String key() {
      return key;
    }

    public int size() {
      return size;
    }

    public long timestamp(int i) {
      return ts[i];
    }

    public double value(int i) {
      return values[i];
    }
  }
}
