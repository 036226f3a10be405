package dev.checkpointdoctor.api.bench;

import dev.checkpointdoctor.api.bench.FlinkFleet.Series;
import dev.checkpointdoctor.api.bench.FlinkFleet.Shape;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fleet built from real scrapes: per job, the whole Flink 1.20.3 exposition of one job (its
 * JobManager and TaskManager, {@code flink-1.20.3-metrics-sample.txt}, 819 series) with the job's
 * own name, ids and host, and a node_exporter 1.5.0 scrape ({@code
 * node-exporter-1.5.0-metrics-sample.txt}, 505 series) of the TaskManager's host; Prometheus'
 * {@code instance} and {@code job} labels added as a scrape adds them. {@link #kept} keeps only
 * what deploy/prometheus/remote-write.yml's {@code write_relabel_configs} keeps, i.e. what a user
 * who follows the README sends: every series of it is used by the catalog.
 */
public final class SampleFleet implements Fleet {
  static final String FLINK = "/bench/flink-1.20.3-metrics-sample.txt";
  static final String NODE = "/bench/node-exporter-1.5.0-metrics-sample.txt";

  /** One series of an exposition: labels (name included) and value. */
  record Exposed(Map<String, String> labels, double value, boolean counter) {}

  private final List<Series> series = new ArrayList<>();
  private final int used;

  private SampleFleet(int jobs, Predicate<String> keep) {
    List<Exposed> flink = parse(resource(FLINK));
    List<Exposed> node = parse(resource(NODE));
    int n = 0;
    for (int job = 0; job < jobs; job++) {
      final int j = job;
      String host = "worker_" + j;
      for (Exposed e : flink) {
        Map<String, String> l = new TreeMap<>(e.labels());
        String name = l.get("__name__");
        if (!keep.test(name)) {
          continue;
        }
        boolean jobManager = name.startsWith("flink_jobmanager_");
        for (String k : new String[] {"job_id", "tm_id", "task_attempt_id"}) {
          l.computeIfPresent(k, (key, v) -> v + "_" + j);
        }
        l.computeIfPresent("job_name", (k, v) -> v + "_" + j);
        l.put("host", jobManager ? "jm_" + j : host);
        l.put("instance", jobManager ? "jm_" + j + ":9249" : host + ":9250");
        l.put("job", "flink");
        n += add(l, flinkShape(name), e.value());
      }
      for (Exposed e : node) {
        Map<String, String> l = new TreeMap<>(e.labels());
        if (!keep.test(l.get("__name__"))) {
          continue;
        }
        l.put("instance", host + ":9100");
        l.put("job", "node");
        n += add(l, e.counter() ? Shape.COUNTER : Shape.GAUGE, e.value());
      }
    }
    this.used = n;
  }

  /** Every series of {@code jobs} jobs and their hosts. */
  public static SampleFleet unfiltered(int jobs) {
    return new SampleFleet(jobs, name -> true);
  }

  /** Only the series deploy/prometheus/remote-write.yml's keep regex passes. */
  public static SampleFleet kept(int jobs, Path remoteWriteYml) {
    Pattern keep = keepRegex(remoteWriteYml);
    return new SampleFleet(jobs, name -> keep.matcher(name).matches());
  }

  /** The {@code write_relabel_configs} keep regex, anchored as Prometheus anchors it. */
  static Pattern keepRegex(Path remoteWriteYml) {
    try {
      Matcher m = Pattern.compile("regex: '([^']+)'").matcher(Files.readString(remoteWriteYml));
      if (!m.find()) {
        throw new IllegalStateException("no keep regex in " + remoteWriteYml);
      }
      return Pattern.compile("^(?:" + m.group(1) + ")$");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private int add(Map<String, String> labels, Shape shape, double base) {
    series.add(new Series(FlinkFleet.labelFields(labels), shape, base));
    return FlinkFleet.CATALOG.accepts(labels.get("__name__"));
  }

  private static Shape flinkShape(String name) {
    if (name.endsWith("_lastCheckpointDuration")) {
      return Shape.CHECKPOINT_DURATION;
    }
    if (name.endsWith("_lastCompletedCheckpointId") || name.endsWith("_totalNumberOfCheckpoints")
        || name.endsWith("_numberOfCompletedCheckpoints")) {
      return Shape.CHECKPOINT_ID;
    }
    // Flink exports every metric as a gauge; these are counts that only grow
    if (name.matches(".*_(num(Records|Bytes)(In|Out)|Count|accumulate\\w+|stall_micros|Time)$")
        && !name.endsWith("PerSecond")) {
      return Shape.COUNTER;
    }
    return Shape.GAUGE;
  }

  @Override
  public List<Series> series() {
    return series;
  }

  @Override
  public int usedSeries() {
    return used;
  }

  private static String resource(String path) {
    try (InputStream in = SampleFleet.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a Prometheus text exposition (labels with escapes, trailing commas). */
  static List<Exposed> parse(String text) {
    Map<String, String> types = new HashMap<>();
    List<Exposed> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] f = line.split(" ");
        types.put(f[2], f[3]);
        continue;
      }
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Map<String, String> labels = new TreeMap<>();
      int i = 0;
      while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
        i++;
      }
      String name = line.substring(0, i);
      labels.put("__name__", name);
      if (i < line.length() && line.charAt(i) == '{') {
        i++;
        while (line.charAt(i) != '}') {
          int eq = line.indexOf('=', i);
          String key = line.substring(i, eq);
          StringBuilder v = new StringBuilder();
          int k = eq + 2; // past ="
          while (line.charAt(k) != '"') {
            char c = line.charAt(k++);
            if (c == '\\') {
              char esc = line.charAt(k++);
              v.append(esc == 'n' ? '\n' : esc);
            } else {
              v.append(c);
            }
          }
          labels.put(key, v.toString());
          i = k + 1;
          if (line.charAt(i) == ',') {
            i++;
          }
        }
        i++;
      }
      String rest = line.substring(i).trim().split(" ")[0];
      double value = switch (rest) {
        case "+Inf" -> Double.MAX_VALUE;
        case "-Inf" -> -Double.MAX_VALUE;
        case "NaN" -> 0;
        default -> Double.parseDouble(rest);
      };
      String base = name.replaceAll("_(bucket|sum|count)$", "");
      String type = types.getOrDefault(name, types.getOrDefault(base, "gauge"));
      out.add(new Exposed(labels, value, type.equals("counter")));
    }
    return out;
  }
}
