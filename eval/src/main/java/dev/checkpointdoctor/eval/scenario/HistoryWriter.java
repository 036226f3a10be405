package dev.checkpointdoctor.eval.scenario;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a history as gzip'd Prometheus text exposition with millisecond timestamps. Samples are
 * written series by series (each series oldest first) because repeated label sets then compress
 * to almost nothing; readers merge by timestamp anyway.
 */
public final class HistoryWriter {
  private HistoryWriter() {}

  /**
   * @param header comment lines (without the leading {@code # })
   * @param types metric name to Prometheus type, written as {@code # TYPE} lines
   */
  public static void write(Path file, List<String> header, Map<String, String> types,
      SeriesRecorder recorder) throws IOException {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16);
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))) {
      for (String h : header) {
        w.write("# " + h + "\n");
      }
      String lastName = null;
      for (SeriesRecorder.Series s : recorder.series()) {
        if (!s.name().equals(lastName)) {
          lastName = s.name();
          String type = types.get(s.name());
          if (type != null) {
            w.write("# TYPE " + s.name() + " " + type + "\n");
          }
        }
        String prefix = s.key() + " ";
        for (int i = 0; i < s.size(); i++) {
          w.write(prefix);
          w.write(format(s.value(i)));
          w.write(' ');
          w.write(Long.toString(s.timestamp(i)));
          w.write('\n');
        }
      }
    }
  }

  /** Integers as integers, others to 5 significant digits: the noise is larger than that. */
  static String format(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return new BigDecimal(v).round(new MathContext(5)).stripTrailingZeros().toString();
  }
}
