package dev.checkpointdoctor.detector.extract;

import dev.checkpointdoctor.detector.model.Labels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test-only parser for the Prometheus text format as Flink's reporter writes it: {@code
 * name{a="x",b="y",} value}, with a trailing comma in the label list. Skips {@code #} lines and
 * summary {@code quantile} lines.
 */
public final class ScrapeFixture {
  public static final String FLINK_120 = "/scrapes/flink-1.20.3-metrics-sample.txt";
  public static final String FLINK_230 = "/scrapes/flink-2.3.0-metrics-sample.txt";

  public record Sample(Labels labels, double value) {
    public String name() {
      return labels.metricName();
    }
  }

  private ScrapeFixture() {}

  public static List<Sample> load(String resource) {
    try (InputStream in = ScrapeFixture.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("missing resource " + resource);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public static List<Sample> parse(String text) {
    List<Sample> out = new ArrayList<>();
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      Map<String, String> labels = new TreeMap<>();
      int brace = line.indexOf('{');
      int space;
      String name;
      if (brace >= 0 && brace < line.indexOf(' ')) {
        name = line.substring(0, brace);
        int i = brace + 1;
        while (line.charAt(i) != '}') {
          if (line.charAt(i) == ',' || line.charAt(i) == ' ') {
            i++;
            continue;
          }
          int eq = line.indexOf('=', i);
          String key = line.substring(i, eq).strip();
          StringBuilder v = new StringBuilder();
          int j = eq + 2; // skip ="
          while (line.charAt(j) != '"') {
            char c = line.charAt(j);
            if (c == '\\') {
              char n = line.charAt(++j);
              v.append(n == 'n' ? '\n' : n);
            } else {
              v.append(c);
            }
            j++;
          }
          labels.put(key, v.toString());
          i = j + 1;
        }
        space = i + 1;
      } else {
        space = line.indexOf(' ');
        name = line.substring(0, space);
      }
      if (labels.containsKey("quantile")) {
        continue;
      }
      String[] rest = line.substring(space).strip().split("\\s+");
      labels.put(Labels.METRIC_NAME, name);
      out.add(new Sample(Labels.fromMap(labels), parseValue(rest[0])));
    }
    return out;
  }

  private static double parseValue(String s) {
    switch (s) {
      case "NaN":
        return Double.NaN;
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      default:
        return Double.parseDouble(s);
    }
  }
}
