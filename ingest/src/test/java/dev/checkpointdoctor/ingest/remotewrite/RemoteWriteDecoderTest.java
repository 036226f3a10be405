package dev.checkpointdoctor.ingest.remotewrite;

import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.compress;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.compressLiteralOnly;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.concat;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.label;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.sample;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.series;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.snappyHeader;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.writeRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteException.Kind;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.Proto;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class RemoteWriteDecoderTest {
  private static final long STALE_NAN = 0x7ff0000000000002L;
  private static final long TS = 1796210595122L;

  private static DecodedWrite decode(byte[] proto) {
    return decode(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL, proto);
  }

  private static DecodedWrite decode(DecodeLimits limits, MetricNameFilter filter, byte[] proto) {
    byte[] body = compress(proto);
    return new RemoteWriteDecoder(limits, filter).decode(body, 0, body.length);
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(
      DecodeLimits limits, byte[] proto, Kind kind, String messagePart) {
    return assertThatThrownBy(() -> decode(limits, MetricNameFilter.ACCEPT_ALL, proto))
        .isInstanceOfSatisfying(
            RemoteWriteException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(kind);
              assertThat(e.httpStatus()).isEqualTo(kind == Kind.MALFORMED ? 400 : 413);
              assertThat(e.getStackTrace()).isEmpty();
            })
        .hasMessageContaining(messagePart);
  }

  private static void assertMalformed(byte[] proto, String messagePart) {
    assertRejected(DecodeLimits.defaults(), proto, Kind.MALFORMED, messagePart);
  }

  private static DecodeLimits limits(int series, int labels, int nameLen, int valueLen) {
    return new DecodeLimits(1 << 20, 1 << 20, series, labels, nameLen, valueLen);
  }

  private static Proto up(String... extraLabelPairs) {
    String[] pairs = new String[extraLabelPairs.length + 2];
    pairs[0] = "__name__";
    pairs[1] = "up";
    System.arraycopy(extraLabelPairs, 0, pairs, 2, extraLabelPairs.length);
    return series(pairs, new long[] {TS}, new double[] {1});
  }

  private static Proto seriesWithLabels(String... labelPairs) {
    return series(labelPairs, new long[] {TS}, new double[] {1});
  }

  // ------------------------------------------------------------------ round trips

  @Test
  void roundTripsRandomSeries() {
    Random rnd = new Random(7);
    String[] names = {"a", "B", "device", "instance", "job", "le", "quantile", "_x", "z9_"};
    String[] valueParts = {"x", "0.5", "ü", "€", "😀", "/dev/vda", "a b", "\u0000", "日本"};
    long[] specialBits = {
      STALE_NAN,
      0x7ff8000000000001L,
      0xfff8000000000000L,
      0x7ff0000000000001L,
      Double.doubleToRawLongBits(Double.POSITIVE_INFINITY),
      Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY),
      Double.doubleToRawLongBits(-0.0),
      0L,
      Double.doubleToRawLongBits(Double.MIN_VALUE),
      Double.doubleToRawLongBits(Double.MAX_VALUE)
    };
    for (int iter = 0; iter < 200; iter++) {
      int n = 1 + rnd.nextInt(40);
      List<Labels> expectedLabels = new ArrayList<>();
      List<long[]> expectedTs = new ArrayList<>();
      List<long[]> expectedBits = new ArrayList<>();
      Proto[] protos = new Proto[n];
      for (int s = 0; s < n; s++) {
        TreeMap<String, String> m = new TreeMap<>();
        m.put("__name__", "m_" + rnd.nextInt(20) + (rnd.nextBoolean() ? ":sum" : ""));
        int extra = rnd.nextInt(6);
        for (int k = 0; k < extra; k++) {
          StringBuilder v = new StringBuilder();
          int parts = 1 + rnd.nextInt(3);
          for (int p = 0; p < parts; p++) {
            v.append(valueParts[rnd.nextInt(valueParts.length)]);
          }
          m.put(names[rnd.nextInt(names.length)], v.toString());
        }
        int samples = rnd.nextInt(4);
        long[] ts = new long[samples];
        long[] bits = new long[samples];
        double[] vals = new double[samples];
        for (int k = 0; k < samples; k++) {
          ts[k] = rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(3) == 0 ? -rnd.nextLong() : TS + k;
          bits[k] =
              rnd.nextBoolean()
                  ? specialBits[rnd.nextInt(specialBits.length)]
                  : Double.doubleToRawLongBits(rnd.nextGaussian() * 1e6);
          vals[k] = Double.longBitsToDouble(bits[k]);
        }
        String[] pairs = new String[m.size() * 2];
        int i = 0;
        for (var e : m.entrySet()) {
          pairs[i++] = e.getKey();
          pairs[i++] = e.getValue();
        }
        protos[s] = series(pairs, ts, vals);
        expectedLabels.add(Labels.fromMap(m));
        expectedTs.add(ts);
        expectedBits.add(bits);
      }
      byte[] proto = writeRequest(protos);
      byte[] body = rnd.nextBoolean() ? compress(proto) : compressLiteralOnly(proto, 1 + rnd.nextInt(300));
      DecodedWrite w =
          new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL)
              .decode(body, 0, body.length);
      assertThat(w.series()).hasSize(n);
      assertThat(w.timeseriesCount()).isEqualTo(n);
      int total = 0;
      for (int s = 0; s < n; s++) {
        DecodedSeries d = w.series().get(s);
        assertThat(d.labels()).isEqualTo(expectedLabels.get(s));
        assertThat(d.timestamps()).isEqualTo(expectedTs.get(s));
        long[] bits = expectedBits.get(s);
        assertThat(d.values()).hasSize(bits.length);
        for (int k = 0; k < bits.length; k++) {
          assertThat(Double.doubleToRawLongBits(d.values()[k])).isEqualTo(bits[k]);
        }
        total += bits.length;
      }
      assertThat(w.sampleCount()).isEqualTo(total);
      assertThat(w.acceptedSampleCount()).isEqualTo(total);
    }
  }

  @Test
  void staleMarkerAndInfinitiesKeepTheirBits() {
    byte[] proto =
        writeRequest(
            series(
                new String[] {"__name__", "up", "job", "j"},
                new long[] {1, 2, 3, 4},
                new double[] {
                  Double.longBitsToDouble(STALE_NAN),
                  Double.POSITIVE_INFINITY,
                  Double.NEGATIVE_INFINITY,
                  Double.NaN
                }));
    DecodedSeries s = decode(proto).series().get(0);
    assertThat(Double.doubleToRawLongBits(s.values()[0])).isEqualTo(STALE_NAN);
    assertThat(s.values()[1]).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(s.values()[2]).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(Double.doubleToRawLongBits(s.values()[3]))
        .isEqualTo(Double.doubleToRawLongBits(Double.NaN));
    assertThat(s.timestamps()).containsExactly(1, 2, 3, 4);
  }

  @Test
  void absentSampleFieldsAreZeroAndUnknownFieldsAreSkippedEverywhere() {
    Proto sampleWithExtras =
        new Proto()
            .tag(7, 0).varint(99)
            .tag(1, 1).fixed64(Double.doubleToRawLongBits(2.5))
            .tag(8, 5).raw(1, 2, 3, 4)
            .tag(2, 0).varint(-5L)
            .tag(9, 2).varint(2).raw(0, 0);
    Proto labelWithExtras =
        new Proto().tag(3, 0).varint(1).stringField(1, "job").tag(4, 1).fixed64(0).stringField(2, "x");
    Proto ts =
        new Proto()
            .message(1, label("__name__", "up"))
            .tag(9, 1).fixed64(42)
            .message(1, labelWithExtras)
            .message(2, new Proto()) // empty Sample: value 0.0, timestamp 0
            .message(2, sampleWithExtras)
            .message(3, new Proto().message(1, label("trace_id", "abc")).tag(2, 1).fixed64(1))
            .message(4, new Proto().tag(1, 0).varint(3).tag(4, 0).varint(1))
            .message(4, new Proto())
            .tag(20, 5).raw(0, 0, 0, 0);
    byte[] proto =
        concat(
            new Proto().tag(2, 2).varint(3).raw(1, 2, 3).bytes(), // reserved field 2
            new Proto().message(1, ts).bytes(),
            new Proto().message(3, new Proto().tag(1, 0).varint(2).stringField(2, "up")).bytes(),
            new Proto().tag(15, 0).varint(300).bytes());
    DecodedWrite w = decode(proto);
    assertThat(w.series()).hasSize(1);
    DecodedSeries s = w.series().get(0);
    assertThat(s.labels()).isEqualTo(Labels.of("__name__", "up", "job", "x"));
    assertThat(s.timestamps()).containsExactly(0L, -5L);
    assertThat(s.values()).containsExactly(0.0, 2.5);
    assertThat(Double.doubleToRawLongBits(s.values()[0])).isZero();
    assertThat(w.exemplarCount()).isEqualTo(1);
    assertThat(w.histogramCount()).isEqualTo(2);
    assertThat(w.metadataCount()).isEqualTo(1);
    assertThat(w.sampleCount()).isEqualTo(2);
  }

  @Test
  void emptyRequest() {
    DecodedWrite w = decode(new byte[0]);
    assertThat(w.timeseriesCount()).isZero();
    assertThat(w.series()).isEmpty();
  }

  @Test
  void seriesWithoutNameOrRejectedIsUnusedAndNotValidated() {
    MetricNameFilter onlyUp = (b, off, len) -> len == 2 && b[off] == 'u' && b[off + 1] == 'p';
    byte[] proto =
        writeRequest(
            series(new String[] {"job", "j"}, new long[] {1, 2}, new double[] {1, 2}),
            up("job", "j"),
            // rejected by the filter: invalid label name, unsorted, empty value - all ignored
            // (a repeated label name is not: see aRepeatedLabelNameFailsTheRequestEven...)
            series(
                new String[] {"__name__", "down", "1bad", "", "b", "x", "a", "y"},
                new long[] {1, 2, 3},
                new double[] {1, 2, 3}),
            series(new String[] {"__name__", "up", "zz", "ü"}, new long[] {}, new double[] {}));
    DecodedWrite w = decode(DecodeLimits.defaults(), onlyUp, proto);
    assertThat(w.timeseriesCount()).isEqualTo(4);
    assertThat(w.series()).extracting(s -> s.labels().metricName()).containsExactly("up", "up");
    assertThat(w.series().get(1).labels().get("zz")).isEqualTo("ü");
    assertThat(w.sampleCount()).isEqualTo(6);
    assertThat(w.acceptedSampleCount()).isEqualTo(1);
    assertThat(w.unusedSeriesCount()).isEqualTo(2);
    assertThat(w.unusedSampleCount()).isEqualTo(5);
  }

  @Test
  void droppedSeriesFramingIsStillChecked() {
    Proto brokenSample = new Proto().tag(1, 1).raw(1, 2, 3); // fixed64 truncated
    byte[] proto =
        writeRequest(new Proto().message(1, label("__name__", "down")).message(2, brokenSample));
    assertThatThrownBy(
            () -> decode(DecodeLimits.defaults(), (b, o, l) -> false, proto))
        .isInstanceOf(RemoteWriteException.class)
        .hasMessageContaining("protobuf: TimeSeries #0 Sample: truncated fixed64");
  }

  @Test
  void oneBadSeriesRejectsTheWholeRequest() {
    byte[] proto = writeRequest(up("job", "a"), up("job", "b"), up("job", ""));
    assertMalformed(proto, "label \"job\" in series #2 (metric up) has an empty value");
  }

  // ------------------------------------------------------------------ labels cache

  private static DecodedWrite decodeWith(RemoteWriteDecoder d, byte[] proto) {
    byte[] body = compress(proto);
    return d.decode(body, 0, body.length);
  }

  @Test
  void repeatedSeriesReuseCachedLabelsButStillValidateSamples() {
    RemoteWriteDecoder d =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL);
    Labels first = decodeWith(d, writeRequest(up("job", "a"))).series().get(0).labels();
    DecodedWrite again = decodeWith(d, writeRequest(up("job", "a"), up("job", "b")));
    assertThat(again.series().get(0).labels()).isSameAs(first);
    assertThat(again.series().get(1).labels()).isEqualTo(Labels.of("__name__", "up", "job", "b"));
    // Same label bytes, broken sample: still rejected.
    Proto ts =
        new Proto()
            .message(1, label("__name__", "up"))
            .message(1, label("job", "a"))
            .message(2, new Proto().tag(2, 1).fixed64(5));
    assertThatThrownBy(() -> decodeWith(d, writeRequest(ts)))
        .isInstanceOf(RemoteWriteException.class)
        .hasMessageContaining("protobuf: TimeSeries #0 Sample: field 2 has wire type 1, expected 0");
    // Different limits do not leak through a cache: each decoder owns its cache.
    RemoteWriteDecoder strict = new RemoteWriteDecoder(limits(10, 10, 10, 1), MetricNameFilter.ACCEPT_ALL);
    assertThatThrownBy(() -> decodeWith(strict, writeRequest(up("job", "a"))))
        .isInstanceOf(RemoteWriteException.class)
        .hasMessageContaining("exceeding limit 1");
  }

  @Test
  void interleavedLabelsAndSamplesDecodeCorrectlyRepeatedly() {
    Proto ts =
        new Proto()
            .message(1, label("__name__", "up"))
            .message(2, sample(1, 10))
            .message(1, label("job", "a"))
            .message(2, sample(2, 20));
    Proto invalid =
        new Proto()
            .message(1, label("__name__", "up"))
            .message(2, sample(1, 10))
            .message(1, label("job", ""));
    RemoteWriteDecoder d =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL);
    for (int i = 0; i < 3; i++) {
      DecodedSeries s = decodeWith(d, writeRequest(ts)).series().get(0);
      assertThat(s.labels()).isEqualTo(Labels.of("__name__", "up", "job", "a"));
      assertThat(s.timestamps()).containsExactly(10, 20);
      assertThat(s.values()).containsExactly(1.0, 2.0);
      assertThatThrownBy(() -> decodeWith(d, writeRequest(invalid)))
          .hasMessageContaining("has an empty value");
    }
  }

  @Test
  void invalidSeriesIsNeverCached() {
    RemoteWriteDecoder d =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL);
    byte[] bad = writeRequest(up("job", "b", "instance", "i"));
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> decodeWith(d, bad)).hasMessageContaining("labels not sorted");
    }
  }

  // ------------------------------------------------------------------ size limits

  @Test
  void compressedBodyOverLimit() {
    DecodeLimits l = new DecodeLimits(100, 1 << 20, 10, 10, 10, 10);
    byte[] body = new byte[101];
    assertThatThrownBy(
            () -> new RemoteWriteDecoder(l, MetricNameFilter.ACCEPT_ALL).decode(body, 0, 101))
        .isInstanceOfSatisfying(
            RemoteWriteException.class, e -> assertThat(e.httpStatus()).isEqualTo(413))
        .hasMessage(
            "compressed body of 101 bytes exceeds limit 100 (raise --max-compressed-bytes)");
  }

  @Test
  void declaredSizeOverLimitIsRejectedBeforeAllocating() {
    byte[] body = concat(snappyHeader(Integer.MAX_VALUE), new byte[] {0, 'x'});
    RemoteWriteDecoder d =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL);
    assertThatThrownBy(() -> d.decode(body, 0, body.length))
        .isInstanceOfSatisfying(
            RemoteWriteException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE))
        .hasMessage(
            "declared decompressed size 2147483647 exceeds limit 67108864"
                + " (raise --max-decompressed-bytes)");
    assertThat(d.bufferCapacity()).isZero();
  }

  @Test
  void snappyErrorsSurfaceAsMalformed() {
    byte[] proto = writeRequest(up());
    byte[] body = compressLiteralOnly(proto);
    byte[] truncated = java.util.Arrays.copyOf(body, body.length - 1);
    RemoteWriteDecoder d =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL);
    assertThatThrownBy(() -> d.decode(truncated, 0, truncated.length))
        .isInstanceOfSatisfying(
            RemoteWriteException.class, e -> assertThat(e.httpStatus()).isEqualTo(400))
        .hasMessageContaining("snappy: literal of");
  }

  @Test
  void tooManySeries() {
    byte[] proto = writeRequest(up("job", "a"), up("job", "b"), up("job", "c"));
    assertRejected(
        limits(2, 10, 10, 10),
        proto,
        Kind.MALFORMED,
        "request has more than 2 TimeSeries (limit --max-series-per-request)");
    assertThat(decode(limits(3, 10, 10, 10), MetricNameFilter.ACCEPT_ALL, proto).series())
        .hasSize(3);
  }

  @Test
  void tooManyLabels() {
    byte[] proto = writeRequest(up("a", "1", "b", "2", "c", "3"));
    assertRejected(
        limits(10, 3, 10, 10),
        proto,
        Kind.MALFORMED,
        "series #0 (metric up) has 4 labels, exceeding limit 3 (raise --max-labels-per-series)");
    assertThat(decode(limits(10, 4, 10, 10), MetricNameFilter.ACCEPT_ALL, proto).series())
        .hasSize(1);
  }

  @Test
  void overLongLabelValueAndName() {
    byte[] proto = writeRequest(up("job", "12345678901"));
    assertRejected(
        limits(10, 10, 10, 10),
        proto,
        Kind.MALFORMED,
        "value of label \"job\" in series #0 (metric up) is 11 bytes, exceeding limit 10");
    assertThat(decode(limits(10, 10, 10, 11), MetricNameFilter.ACCEPT_ALL, proto).series())
        .hasSize(1);
    byte[] longName = writeRequest(up("abcdefghijk", "v"));
    assertRejected(
        limits(10, 10, 10, 10),
        longName,
        Kind.MALFORMED,
        "label name of 11 bytes in series #0 (metric up) exceeds limit 10");
  }

  // ------------------------------------------------------------------ label validation

  @Test
  void invalidLabelName() {
    byte[] proto =
        writeRequest(up(), up(), up(), seriesWithLabels("1bad", "x", "__name__", "up"));
    assertMalformed(
        proto,
        "label name \"1bad\" in series #3 (metric up) is not valid [a-zA-Z_][a-zA-Z0-9_]*");
    assertMalformed(writeRequest(up("a-b", "x")), "label name \"a-b\" in series #0");
    assertMalformed(writeRequest(up("a:b", "x")), "label name \"a:b\" in series #0");
    assertMalformed(
        writeRequest(seriesWithLabels("", "x", "__name__", "up")), "label name \"\" in series #0");
  }

  @Test
  void invalidMetricName() {
    assertMalformed(
        writeRequest(seriesWithLabels("__name__", "0up")),
        "metric name \"0up\" in series #0 is not valid [a-zA-Z_:][a-zA-Z0-9_:]*");
    assertMalformed(
        writeRequest(seriesWithLabels("__name__", "up-time")), "metric name \"up-time\"");
    assertThat(decode(writeRequest(seriesWithLabels("__name__", ":a:b_1"))).series()).hasSize(1);
  }

  @Test
  void emptyMetricNameIsRejectedWhenTheFilterAcceptsIt() {
    assertMalformed(
        writeRequest(seriesWithLabels("__name__", "")),
        "label \"__name__\" in series #0 (metric ) has an empty value");
  }

  @Test
  void unsortedLabels() {
    assertMalformed(
        writeRequest(up("job", "j", "instance", "i")),
        "labels not sorted in series #0 (metric up): \"instance\" comes after \"job\"");
    // byte order: upper case sorts before '_'
    assertMalformed(writeRequest(up("A", "x")), "\"A\" comes after \"__name__\"");
    assertThat(decode(writeRequest(seriesWithLabels("A", "x", "__name__", "up"))).series())
        .hasSize(1);
  }

  @Test
  void duplicateLabel() {
    assertMalformed(
        writeRequest(up("job", "a", "job", "b")),
        "duplicate label name \"job\" in series #0 (metric up)");
  }

  @Test
  void aRepeatedLabelNameIsNamedWhereverItRepeats() {
    // apart from each other, the series is also unsorted: the repeat is the problem named
    assertMalformed(
        writeRequest(up(), up("instance", "x", "job", "a", "instance", "y")),
        "duplicate label name \"instance\" in series #1 (metric up)");
    assertMalformed(
        writeRequest(seriesWithLabels("job", "a", "__name__", "up", "job", "a")),
        "duplicate label name \"job\" in series #0 (metric up)");
  }

  @Test
  void aRepeatedLabelNameFailsTheRequestEvenInASeriesNobodyUses() {
    MetricNameFilter onlyUp = (b, off, len) -> len == 2 && b[off] == 'u' && b[off + 1] == 'p';
    byte[] proto = writeRequest(up(), seriesWithLabels("__name__", "unused", "job", "a", "zone",
        "z", "job", "b"));
    assertThatThrownBy(() -> decode(DecodeLimits.defaults(), onlyUp, proto))
        .isInstanceOf(RemoteWriteException.class)
        .hasMessageContaining("duplicate label name \"job\" in series #1 (metric unused)");
    // other flaws of an unused series still do not fail the request
    assertThat(decode(DecodeLimits.defaults(), onlyUp, writeRequest(up(),
        seriesWithLabels("__name__", "unused", "zone", "z", "job", "")))
        .series()).hasSize(1);
  }

  @Test
  void emptyLabelValue() {
    assertMalformed(
        writeRequest(up("job", "")), "label \"job\" in series #0 (metric up) has an empty value");
    // A Label message without a value field is also an empty value.
    Proto ts =
        new Proto()
            .message(1, label("__name__", "up"))
            .message(1, new Proto().stringField(1, "job"));
    assertMalformed(writeRequest(ts), "label \"job\" in series #0 (metric up) has an empty value");
  }

  @Test
  void invalidUtf8Values() {
    byte[][] bad = {
      {(byte) 0xc0, (byte) 0x80}, // overlong NUL
      {(byte) 0xe0, (byte) 0x80, (byte) 0xaf}, // overlong '/'
      {(byte) 0xf0, (byte) 0x82, (byte) 0x82, (byte) 0xac}, // overlong euro
      {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, // surrogate D800
      {(byte) 0xed, (byte) 0xbf, (byte) 0xbf}, // surrogate DFFF
      {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // > U+10FFFF
      {(byte) 0xf5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
      {'a', (byte) 0x80}, // stray continuation
      {'a', (byte) 0xc3}, // truncated
      {(byte) 0xe2, (byte) 0x82}, // truncated 3-byte
      {(byte) 0xe2, 'a', (byte) 0xac}, // bad continuation
      {(byte) 0xff},
    };
    for (byte[] value : bad) {
      Proto ts =
          new Proto()
              .message(1, label("__name__", "up"))
              .message(1, label("job".getBytes(StandardCharsets.US_ASCII), value));
      assertMalformed(
          writeRequest(ts), "value of label \"job\" in series #0 (metric up) is not valid UTF-8");
    }
    byte[][] good = {
      "\u007f".getBytes(StandardCharsets.UTF_8),
      "\u0080".getBytes(StandardCharsets.UTF_8),
      "\u07ff\u0800\ud7ff\ue000\uffff".getBytes(StandardCharsets.UTF_8),
      "\ud800\udc00\udbff\udfff".getBytes(StandardCharsets.UTF_8), // U+10000, U+10FFFF
    };
    for (byte[] value : good) {
      Proto ts =
          new Proto()
              .message(1, label("__name__", "up"))
              .message(1, label("job".getBytes(StandardCharsets.US_ASCII), value));
      assertThat(decode(writeRequest(ts)).series().get(0).labels().get("job"))
          .isEqualTo(new String(value, StandardCharsets.UTF_8));
    }
  }

  // ------------------------------------------------------------------ protobuf framing

  @Test
  void badWireType() {
    byte[] proto = writeRequest(new Proto().message(1, label("__name__", "up")).tag(5, 3));
    assertMalformed(proto, "protobuf: TimeSeries #0: invalid wire type 3 for field 5 at byte");
    assertMalformed(new Proto().tag(9, 7).bytes(), "protobuf: WriteRequest: invalid wire type 7");
    assertMalformed(new Proto().tag(9, 4).bytes(), "invalid wire type 4");
    assertMalformed(new Proto().tag(9, 6).bytes(), "invalid wire type 6");
  }

  @Test
  void knownFieldWithWrongWireType() {
    assertMalformed(
        new Proto().tag(1, 0).varint(5).bytes(),
        "protobuf: WriteRequest: field 1 has wire type 0, expected 2 at byte 0");
    Proto badSample = new Proto().tag(1, 0).varint(1);
    assertMalformed(
        writeRequest(new Proto().message(1, label("__name__", "up")).message(2, badSample)),
        "protobuf: TimeSeries #0 Sample: field 1 has wire type 0, expected 1");
  }

  @Test
  void truncatedVarint() {
    Proto ts = new Proto().message(1, label("__name__", "up")).tag(2, 2).raw((byte) 0x80);
    byte[] proto = writeRequest(up(), ts);
    int seriesStart = writeRequest(up()).length; // offset of TimeSeries #1's tag
    int varintPos = seriesStart + 2 + label("__name__", "up").bytes().length + 2 + 1;
    assertMalformed(proto, "protobuf: TimeSeries #1: truncated varint at byte " + varintPos);
    assertMalformed(new byte[] {(byte) 0x8a}, "protobuf: WriteRequest: truncated varint at byte 0");
  }

  @Test
  void varintOverflowAndFieldZero() {
    byte[] tooLong = new byte[12];
    tooLong[0] = (byte) (9 << 3); // unknown field 9, wire type 0
    java.util.Arrays.fill(tooLong, 1, 12, (byte) 0xff);
    assertMalformed(tooLong, "varint longer than 10 bytes at byte 1");
    byte[] overflow = new byte[11];
    overflow[0] = (byte) (9 << 3);
    java.util.Arrays.fill(overflow, 1, 10, (byte) 0xff);
    overflow[10] = 0x02;
    assertMalformed(overflow, "varint overflows 64 bits at byte 1");
    assertMalformed(new byte[] {0x02, 0x00}, "field number 0 at byte 0");
  }

  @Test
  void lengthDelimitedFieldRunningPastTheEnd() {
    byte[] proto = concat(writeRequest(up()), new Proto().tag(1, 2).varint(50).raw(1, 2).bytes());
    assertMalformed(
        proto,
        "protobuf: WriteRequest: length-delimited field 1 of 50 bytes at byte "
            + (writeRequest(up()).length + 1)
            + " runs past end (2 bytes left)");
    // A Label whose value runs past the end of its Label message (but not of the body).
    Proto badLabel = new Proto().stringField(1, "job").tag(2, 2).varint(10).raw('x');
    Proto ts = new Proto().message(1, label("__name__", "up")).message(1, badLabel).message(2, sample(1, 1));
    assertMalformed(
        writeRequest(ts), "protobuf: TimeSeries #0 Label: length-delimited field 2 of 10 bytes");
    // Huge (negative as int64) lengths.
    assertMalformed(
        new Proto().tag(3, 2).varint(-1L).bytes(),
        "length-delimited field 3 of 18446744073709551615 bytes");
  }

  @Test
  void truncatedMetadataIsMalformed() {
    byte[] proto = new Proto().message(3, new Proto().tag(1, 0).raw((byte) 0x80)).bytes();
    assertMalformed(proto, "protobuf: MetricMetadata #0: truncated varint");
  }

  @Test
  void limitsValidateAndDefaults() {
    DecodeLimits d = DecodeLimits.defaults();
    assertThat(d.maxCompressedBytes()).isEqualTo(8 << 20);
    assertThat(d.maxDecompressedBytes()).isEqualTo(64 << 20);
    assertThat(d.maxSeriesPerRequest()).isEqualTo(100_000);
    assertThat(d.maxLabelsPerSeries()).isEqualTo(64);
    assertThat(d.maxLabelNameLength()).isEqualTo(256);
    assertThat(d.maxLabelValueLength()).isEqualTo(4096);
    assertThatThrownBy(() -> new DecodeLimits(1, 1, 1, 1, 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxLabelValueLength");
    assertThatThrownBy(() -> new DecodeLimits(0, 1, 1, 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxCompressedBytes");
  }
}
