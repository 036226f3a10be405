package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.PromValues;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * Reads recorded metric histories, gzip'd or not (told apart by the gzip magic, not the name):
 *
 * <ul>
 *   <li>Prometheus text exposition with millisecond timestamps, {@code name{a="b",} value ts}
 *       (the corpus format; Flink's trailing comma is accepted);
 *   <li>{@code promtool tsdb dump} output, {@code {__name__="name", a="b"} value ts}.
 * </ul>
 *
 * <p>Lines starting with {@code #} and blank lines are skipped. Every sample needs a timestamp:
 * replay runs in event time, so a sample without one is an error, not "now".
 */
public final class HistoryReader {
  private final Map<String, Labels> interned = new HashMap<>();

  /** Reads one file; samples come back in file order. */
  public List<RecordedSample> read(Path file) throws HistoryFormatException {
    List<RecordedSample> out = new ArrayList<>();
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file));
        BufferedReader reader = new BufferedReader(
            new InputStreamReader(maybeGunzip(raw), StandardCharsets.UTF_8))) {
      String line;
      int lineNo = 0;
      while ((line = reader.readLine()) != null) {
        lineNo++;
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          continue;
        }
        try {
          out.add(parseLine(trimmed));
        } catch (IllegalArgumentException e) {
          throw new HistoryFormatException(file + ":" + lineNo + ": " + e.getMessage());
        }
      }
    } catch (IOException e) {
      throw new HistoryFormatException(file + ": cannot read: " + e.getMessage());
    }
    return out;
  }

  private static InputStream maybeGunzip(InputStream in) throws IOException {
    in.mark(2);
    int b0 = in.read();
    int b1 = in.read();
    in.reset();
    return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
  }

  RecordedSample parseLine(String line) {
    Map<String, String> labels = new TreeMap<>();
    int pos;
    String name = null;
    if (line.charAt(0) == '{') {
      pos = parseLabels(line, 0, labels);
    } else {
      int end = 0;
      while (end < line.length() && isNameChar(line.charAt(end))) {
        end++;
      }
      if (end == 0) {
        throw new IllegalArgumentException("expected a metric name or '{', got \""
            + abbreviate(line) + "\"");
      }
      name = line.substring(0, end);
      pos = end < line.length() && line.charAt(end) == '{' ? parseLabels(line, end, labels) : end;
    }
    if (name != null) {
      if (labels.containsKey(Labels.METRIC_NAME)) {
        throw new IllegalArgumentException("metric name given twice");
      }
      labels.put(Labels.METRIC_NAME, name);
    } else if (!labels.containsKey(Labels.METRIC_NAME)) {
      throw new IllegalArgumentException("no __name__ label");
    }
    String[] rest = line.substring(pos).trim().split("\\s+");
    if (rest.length < 2 || rest[0].isEmpty()) {
      throw new IllegalArgumentException(rest.length == 1 && !rest[0].isEmpty()
          ? "sample has no timestamp (replay needs event time in milliseconds)"
          : "expected \"value timestamp\" after the labels");
    }
    if (rest.length > 2) {
      throw new IllegalArgumentException("unexpected text after the timestamp: \"" + rest[2]
          + "\"");
    }
    double value = parseValue(rest[0]);
    long ts;
    try {
      ts = Long.parseLong(rest[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("timestamp is not an integer (milliseconds): \""
          + rest[1] + "\"");
    }
    String key = labels.toString();
    Labels l = interned.computeIfAbsent(key, k -> Labels.fromMap(labels));
    return new RecordedSample(l, ts, value);
  }

  /** Parses {@code {a="b", c="d",}} starting at the brace; returns the index after it. */
  private static int parseLabels(String s, int open, Map<String, String> into) {
    int i = open + 1;
    while (true) {
      i = skipSpaces(s, i);
      if (i >= s.length()) {
        throw new IllegalArgumentException("unterminated label set");
      }
      if (s.charAt(i) == '}') {
        return i + 1;
      }
      int nameStart = i;
      while (i < s.length() && isNameChar(s.charAt(i))) {
        i++;
      }
      if (i == nameStart) {
        throw new IllegalArgumentException("bad label name at column " + (i + 1));
      }
      String name = s.substring(nameStart, i);
      i = skipSpaces(s, i);
      if (i >= s.length() || s.charAt(i) != '=') {
        throw new IllegalArgumentException("expected '=' after label " + name);
      }
      i = skipSpaces(s, i + 1);
      if (i >= s.length() || s.charAt(i) != '"') {
        throw new IllegalArgumentException("expected '\"' to open the value of label " + name);
      }
      StringBuilder v = new StringBuilder();
      i++;
      while (true) {
        if (i >= s.length()) {
          throw new IllegalArgumentException("unterminated value of label " + name);
        }
        char c = s.charAt(i++);
        if (c == '"') {
          break;
        }
        if (c == '\\' && i < s.length()) {
          char e = s.charAt(i++);
          v.append(e == 'n' ? '\n' : e);
        } else {
          v.append(c);
        }
      }
      if (into.put(name, v.toString()) != null) {
        throw new IllegalArgumentException("label " + name + " given twice");
      }
      i = skipSpaces(s, i);
      if (i < s.length() && s.charAt(i) == ',') {
        i++;
      }
    }
  }

  private static double parseValue(String s) {
    try {
      return PromValues.parse(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("value is not a number: \"" + s + "\"");
    }
  }

  private static int skipSpaces(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '_' || c == ':';
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }
}
