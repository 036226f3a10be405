package dev.checkpointdoctor.eval.nab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * One NAB data file ({@code timestamp,value}); timestamps are zone-less and read as UTC, which
 * only matters for the half-life (differences), never for matching.
 *
 * @param rawTimestamps as written in the file, echoed into results
 * @param rawValues as written in the file, echoed into results
 */
public record NabSeries(
    String name, String[] rawTimestamps, String[] rawValues, long[] timestampsMs,
    double[] values) {

  static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  public int size() {
    return values.length;
  }

  /** Reads {@code dataDir/name}; {@code name} is {@code <category>/<file>.csv}. */
  public static NabSeries read(Path dataDir, String name) throws IOException {
    List<String> lines = Files.readAllLines(dataDir.resolve(name));
    if (lines.isEmpty() || !lines.get(0).trim().equals("timestamp,value")) {
      throw new IOException(name + ": expected the header timestamp,value");
    }
    int n = lines.size() - 1;
    while (n > 0 && lines.get(n).isBlank()) {
      n--;
    }
    String[] ts = new String[n];
    String[] vs = new String[n];
    long[] ms = new long[n];
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      String line = lines.get(i + 1).trim();
      int comma = line.indexOf(',');
      if (comma < 0) {
        throw new IOException(name + ":" + (i + 2) + ": expected timestamp,value");
      }
      ts[i] = line.substring(0, comma);
      vs[i] = line.substring(comma + 1);
      try {
        ms[i] = parseMs(ts[i]);
        values[i] = Double.parseDouble(vs[i]);
      } catch (RuntimeException e) {
        throw new IOException(name + ":" + (i + 2) + ": " + e.getMessage(), e);
      }
    }
    return new NabSeries(name, ts, vs, ms, values);
  }

  /** {@code yyyy-MM-dd HH:mm:ss} with an optional fraction (the labels carry microseconds). */
  static long parseMs(String timestamp) {
    String t = timestamp.trim();
    int dot = t.indexOf('.');
    String whole = dot < 0 ? t : t.substring(0, dot);
    long ms = LocalDateTime.parse(whole, TIMESTAMP).toInstant(ZoneOffset.UTC).toEpochMilli();
    if (dot >= 0) {
      String frac = (t.substring(dot + 1) + "000").substring(0, 3);
      ms += Integer.parseInt(frac);
    }
    return ms;
  }
}
