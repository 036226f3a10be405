package dev.checkpointdoctor.api.bootstrap;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.checkpointdoctor.detector.model.Labels;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Prometheus HTTP API's JSON envelope ({@code status}, {@code data}, {@code errorType},
 * {@code error}, {@code warnings}) as a stream: a matrix goes straight into a {@link Matrix}'s
 * arrays, never through a tree or a String per point. The envelope is judged only once it was
 * read to the end, because {@code warnings} come after {@code data}.
 */
final class AnswerParser {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private AnswerParser() {}

  /**
   * A matrix answer on {@code grid}.
   *
   * @param maxSeries more series than this is a bad answer (a selector that matched far more than
   *     planned), refused before it fills memory
   */
  static Matrix matrix(InputStream in, Grid grid, int maxSeries) throws IOException,
      Problem.Failure {
    Matrix m = new Matrix(grid);
    Envelope e = read(in, p -> readMatrix(p, m, maxSeries));
    e.check();
    return m;
  }

  /** One series of a raw answer: its labels and its samples' own timestamps. */
  record RawSeries(Labels labels, long[] timestampsMs) {}

  /**
   * The raw samples of an instant query of a range selector ({@code sel[15m]}): their own
   * timestamps, which {@code query_range} does not give. Values are not kept.
   */
  static List<RawSeries> raw(InputStream in, int maxSeries) throws IOException,
      Problem.Failure {
    List<RawSeries> out = new ArrayList<>();
    Envelope e = read(in, p -> {
      expect(p, p.nextToken(), JsonToken.START_OBJECT);
      for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
        String field = p.currentName();
        if (field.equals("result")) {
          expect(p, p.nextToken(), JsonToken.START_ARRAY);
          for (JsonToken s = p.nextToken(); s != JsonToken.END_ARRAY; s = p.nextToken()) {
            if (out.size() >= maxSeries) {
              throw new Problem.Failure(Problem.BAD_RESPONSE, "more than " + maxSeries
                  + " series in one answer");
            }
            out.add(readRawSeries(p));
          }
        } else {
          p.nextToken();
          p.skipChildren();
        }
      }
    });
    e.check();
    return out;
  }

  private static RawSeries readRawSeries(JsonParser p) throws IOException, Problem.Failure {
    Labels labels = Labels.of();
    long[] ts = new long[16];
    int n = 0;
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String field = p.currentName();
      if (field.equals("metric")) {
        labels = readLabels(p);
      } else if (field.equals("values")) {
        expect(p, p.nextToken(), JsonToken.START_ARRAY);
        for (JsonToken pt = p.nextToken(); pt != JsonToken.END_ARRAY; pt = p.nextToken()) {
          expect(p, pt, JsonToken.START_ARRAY);
          long ms = timestamp(p);
          p.nextToken(); // the value
          expect(p, p.nextToken(), JsonToken.END_ARRAY);
          if (n == ts.length) {
            ts = java.util.Arrays.copyOf(ts, n * 2);
          }
          ts[n++] = ms;
        }
      } else {
        p.nextToken();
        p.skipChildren();
      }
    }
    return new RawSeries(labels, java.util.Arrays.copyOf(ts, n));
  }

  private static Labels readLabels(JsonParser p) throws IOException, Problem.Failure {
    expect(p, p.nextToken(), JsonToken.START_OBJECT);
    List<String> names = new ArrayList<>();
    List<String> values = new ArrayList<>();
    for (JsonToken l = p.nextToken(); l != JsonToken.END_OBJECT; l = p.nextToken()) {
      names.add(p.currentName());
      values.add(text(p));
    }
    return Labels.of(names.toArray(new String[0]), values.toArray(new String[0]));
  }

  private static long timestamp(JsonParser p) throws IOException, Problem.Failure {
    JsonToken ts = p.nextToken();
    if (ts == JsonToken.VALUE_NUMBER_INT) {
      return p.getLongValue() * 1000;
    }
    if (ts == JsonToken.VALUE_NUMBER_FLOAT) {
      long ms = millis(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
      return ms != Long.MIN_VALUE ? ms : Math.round(p.getDoubleValue() * 1000);
    }
    throw new Problem.Failure(Problem.BAD_RESPONSE, "a point without a timestamp");
  }

  /**
   * Seconds with a fraction ({@code 1700000000.123}) as milliseconds, rounded; Long.MIN_VALUE
   * for any other shape (an exponent), which the caller parses the slow way. Every point of an
   * answer has one, and parsing them as doubles was a third of the reading.
   */
  static long millis(char[] c, int off, int len) {
    long whole = 0;
    int i = off;
    int end = off + len;
    if (i == end) {
      return Long.MIN_VALUE;
    }
    for (; i < end && c[i] != '.'; i++) {
      char ch = c[i];
      if (ch < '0' || ch > '9' || i - off > 15) {
        return Long.MIN_VALUE;
      }
      whole = whole * 10 + (ch - '0');
    }
    long frac = 0;
    int digits = 0;
    boolean roundUp = false;
    for (i++; i < end; i++) {
      char ch = c[i];
      if (ch < '0' || ch > '9') {
        return Long.MIN_VALUE;
      }
      if (digits < 3) {
        frac = frac * 10 + (ch - '0');
        digits++;
      } else if (digits++ == 3) {
        roundUp = ch >= '5';
      }
    }
    for (; digits < 3; digits++) {
      frac *= 10;
    }
    return whole * 1000 + frac + (roundUp ? 1 : 0);
  }

  /** A list of strings ({@code /api/v1/label/NAME/values}). */
  static List<String> strings(InputStream in) throws IOException, Problem.Failure {
    List<String> out = new ArrayList<>();
    Envelope e = read(in, p -> {
      expect(p, p.nextToken(), JsonToken.START_ARRAY);
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        expect(p, t, JsonToken.VALUE_STRING);
        out.add(p.getText());
      }
    });
    e.check();
    return out;
  }

  /** The error message of an error answer's body, or null when it is not one. */
  static String errorOf(InputStream in) {
    try {
      Envelope e = read(in, p -> {
        p.nextToken();
        p.skipChildren();
      });
      return e.error == null ? null : (e.errorType == null ? "" : e.errorType + ": ") + e.error;
    } catch (IOException | Problem.Failure | RuntimeException e) {
      return null;
    }
  }

  private interface DataReader {
    void read(JsonParser p) throws IOException, Problem.Failure;
  }

  private static final class Envelope {
    String status;
    String errorType;
    String error;
    final List<String> warnings = new ArrayList<>();
    boolean data;

    void check() throws Problem.Failure {
      if (!"success".equals(status)) {
        throw new Problem.Failure(Problem.REJECTED, "status " + status + ": "
            + (errorType == null ? "" : errorType + ": ") + error);
      }
      if (!warnings.isEmpty()) {
        throw new Problem.Failure(Problem.PARTIAL, String.join("; ", warnings));
      }
      if (!data) {
        throw new Problem.Failure(Problem.BAD_RESPONSE, "answer without data");
      }
    }
  }

  private static Envelope read(InputStream in, DataReader data) throws IOException,
      Problem.Failure {
    Envelope e = new Envelope();
    try (JsonParser p = JSON.createParser(in)) {
      expect(p, p.nextToken(), JsonToken.START_OBJECT);
      for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
        expect(p, t, JsonToken.FIELD_NAME);
        String field = p.currentName();
        switch (field) {
          case "status" -> e.status = text(p);
          case "errorType" -> e.errorType = text(p);
          case "error" -> e.error = text(p);
          case "warnings" -> {
            expect(p, p.nextToken(), JsonToken.START_ARRAY);
            for (JsonToken w = p.nextToken(); w != JsonToken.END_ARRAY; w = p.nextToken()) {
              e.warnings.add(p.getText());
            }
          }
          case "data" -> {
            data.read(p);
            e.data = true;
          }
          default -> {
            p.nextToken();
            p.skipChildren();
          }
        }
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException | NumberFormatException x) {
      throw new Problem.Failure(Problem.BAD_RESPONSE, "not the JSON of the Prometheus API: "
          + x.getMessage());
    }
    return e;
  }

  private static void readMatrix(JsonParser p, Matrix m, int maxSeries) throws IOException,
      Problem.Failure {
    expect(p, p.nextToken(), JsonToken.START_OBJECT);
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String field = p.currentName();
      if (field.equals("resultType")) {
        String type = text(p);
        if (!"matrix".equals(type)) {
          throw new Problem.Failure(Problem.BAD_RESPONSE, "expected a matrix, got " + type);
        }
      } else if (field.equals("result")) {
        expect(p, p.nextToken(), JsonToken.START_ARRAY);
        for (JsonToken s = p.nextToken(); s != JsonToken.END_ARRAY; s = p.nextToken()) {
          if (m.size() >= maxSeries) {
            throw new Problem.Failure(Problem.BAD_RESPONSE, "more than " + maxSeries
                + " series in one answer");
          }
          readSeries(p, m);
        }
      } else {
        p.nextToken();
        p.skipChildren();
      }
    }
  }

  private static void readSeries(JsonParser p, Matrix m) throws IOException, Problem.Failure {
    Labels labels = null;
    double[] row = null;
    long present = 0;
    Grid grid = m.grid();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String field = p.currentName();
      if (field.equals("metric")) {
        labels = readLabels(p);
      } else if (field.equals("values")) {
        row = m.newRow();
        expect(p, p.nextToken(), JsonToken.START_ARRAY);
        for (JsonToken pt = p.nextToken(); pt != JsonToken.END_ARRAY; pt = p.nextToken()) {
          expect(p, pt, JsonToken.START_ARRAY);
          long tsMs = timestamp(p);
          expect(p, p.nextToken(), JsonToken.VALUE_STRING);
          double v = PromNumbers.parse(p.getTextCharacters(), p.getTextOffset(),
              p.getTextLength());
          expect(p, p.nextToken(), JsonToken.END_ARRAY);
          int i = grid.index(tsMs);
          if (i < 0) {
            throw new Problem.Failure(Problem.BAD_RESPONSE, "a point at " + tsMs
                + " ms, off the queried steps");
          }
          if (Matrix.absent(row[i])) {
            present++;
          }
          row[i] = v;
        }
      } else {
        p.nextToken();
        p.skipChildren(); // native histograms: not used by the catalog
      }
    }
    if (labels != null && row != null) {
      m.add(labels, row, present);
    }
  }

  private static String text(JsonParser p) throws IOException {
    JsonToken t = p.nextToken();
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
      p.skipChildren();
      return null;
    }
    return p.getText();
  }

  private static void expect(JsonParser p, JsonToken got, JsonToken want) throws Problem.Failure {
    if (got != want) {
      throw new Problem.Failure(Problem.BAD_RESPONSE, "expected " + want + " but found " + got
          + " at " + p.currentLocation());
    }
  }
}
