package dev.checkpointdoctor.lab;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

/** Saves the remote-written series of a run in the text format {@code replay} reads. */
final class Recording {
  private Recording() {}

  /** The keep regex of deploy/prometheus/remote-write.yml, so the lab sends what operators send. */
  static String keepRegex(Path remoteWriteYml) throws IOException {
    Matcher m = Pattern.compile("regex: '([^']+)'").matcher(Files.readString(remoteWriteYml));
    if (!m.find()) {
      throw new IllegalStateException("no regex in " + remoteWriteYml);
    }
    return m.group(1);
  }

  /**
   * Writes every raw sample Prometheus holds of the remote-written series (the keep regex) in
   * (from, to] as {@code name{labels} value ts_ms}, gzip'd, ordered by time; returns the count.
   * Uses instant queries of range selectors, which return the raw samples with their own
   * timestamps (query_range would resample them onto steps).
   */
  static long write(String promUrl, String keepRegex, Instant from, Instant to, Path file)
      throws IOException {
    List<Object[]> rows = new ArrayList<>(); // ts, line
    Duration chunk = Duration.ofMinutes(2);
    for (Instant start = from; start.isBefore(to); start = start.plus(chunk)) {
      Instant end = start.plus(chunk).isBefore(to) ? start.plus(chunk) : to;
      long rangeMs = Duration.between(start, end).toMillis();
      String q = "{__name__=~\"" + keepRegex.replace("\\", "\\\\") + "\"}[" + rangeMs + "ms]";
      String url = promUrl + "/api/v1/query?query=" + Lab.enc(q) + "&time="
          + String.format(java.util.Locale.ROOT, "%.3f", end.toEpochMilli() / 1000.0);
      JsonNode r = Lab.JSON.readTree(Http.get(url).body());
      if (!"success".equals(r.path("status").asText())) {
        throw new IOException("Prometheus query failed: " + r);
      }
      for (JsonNode series : r.path("data").path("result")) {
        JsonNode metric = series.path("metric");
        StringBuilder sb = new StringBuilder(metric.path("__name__").asText()).append('{');
        Iterator<Map.Entry<String, JsonNode>> it = metric.fields();
        boolean first = true;
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> e = it.next();
          if (e.getKey().equals("__name__")) {
            continue;
          }
          if (!first) {
            sb.append(',');
          }
          first = false;
          sb.append(e.getKey()).append("=\"").append(e.getValue().asText()
              .replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
        }
        String head = sb.append("} ").toString();
        for (JsonNode v : series.path("values")) {
          long ts = Math.round(v.get(0).asDouble() * 1000);
          rows.add(new Object[] {ts, head + v.get(1).asText() + " " + ts});
        }
      }
    }
    rows.sort((a, b) -> Long.compare((Long) a[0], (Long) b[0]));
    Files.createDirectories(file.toAbsolutePath().getParent());
    try (Writer w = new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(file)),
        StandardCharsets.UTF_8)) {
      w.write("# Checkpoint Doctor lab recording: the remote-written series, raw samples\n");
      for (Object[] row : rows) {
        w.write((String) row[1]);
        w.write('\n');
      }
    }
    return rows.size();
  }
}
