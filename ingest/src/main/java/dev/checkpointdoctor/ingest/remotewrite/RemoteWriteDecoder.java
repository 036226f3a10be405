package dev.checkpointdoctor.ingest.remotewrite;

import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteException.malformed;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Decodes a Prometheus remote-write 1.0 request body (snappy block format around a protobuf
 * {@code prometheus.WriteRequest}) by hand, without protobuf or snappy libraries.
 *
 * <p>Order of work: compressed size limit (413), declared decompressed size limit (413, before
 * any allocation), decompression into a buffer owned by this decoder, then one parse over the
 * protobuf. The whole request is validated before anything is returned; any malformation throws
 * {@link RemoteWriteException} so a caller can reject the request as a whole.
 *
 * <p>Each TimeSeries is first scanned (framing only) to find its {@code __name__} value, which is
 * offered as raw UTF-8 bytes to the {@link MetricNameFilter} before any String or {@link Labels}
 * is built. Series without {@code __name__} or rejected by the filter are counted as unused and
 * skipped; their framing is checked but their label names and values are <em>not</em> validated
 * (so an invalid label in a series we do not want never fails a request), except that no label
 * name may repeat: that is not a label set at all, in any series.
 *
 * <p>Accepted series must have valid label names ({@code [a-zA-Z_][a-zA-Z0-9_]*}), a valid
 * metric name ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}), names in strictly increasing byte order (sorted,
 * no duplicates), non-empty strictly valid UTF-8 values, and must respect the {@link
 * DecodeLimits}. Series indexes in messages are 0-based positions among all TimeSeries of the
 * request; byte positions in protobuf messages are offsets in the decompressed body.
 *
 * <p>The filter is handed a slice of the decoder's internal buffer: it must neither modify nor
 * retain the bytes.
 *
 * <p>Samples of all accepted series are decoded into the columns of one pooled batch (see {@link
 * DecodedWrite#release()}), so a request whose series are all cached allocates nothing per series
 * or sample. Value bits are kept as sent (the stale marker NaN
 * {@code 0x7ff0000000000002} is not canonicalised); absent proto3 fields decode as {@code 0.0} and
 * timestamp {@code 0}.
 *
 * <p><b>Not thread-safe</b>: the decoder reuses its decompression buffer, scratch arrays and two
 * bounded caches (strings, and validated {@link Labels} keyed by the raw label bytes of a series,
 * so a series seen before costs one hash and one comparison). Use one decoder per thread (e.g.
 * per event loop). The buffer grows to the largest request seen, bounded by {@link
 * DecodeLimits#maxDecompressedBytes()}, and is kept for reuse. {@link Labels} instances may be
 * shared between results of one decoder; they are immutable.
 */
public final class RemoteWriteDecoder {
  private static final byte[] NAME_LABEL = Labels.METRIC_NAME.getBytes(StandardCharsets.US_ASCII);
  private static final long NAME_LABEL_LE = ByteAccess.getLongLE(NAME_LABEL, 0);

  // Where the parser is, for error messages only (no strings built on the hot path).
  private static final int CTX_REQUEST = 0;
  private static final int CTX_SERIES = 1;
  private static final int CTX_LABEL = 2;
  private static final int CTX_SAMPLE = 3;
  private static final int CTX_EXEMPLAR = 4;
  private static final int CTX_HISTOGRAM = 5;
  private static final int CTX_METADATA = 6;

  private final DecodeLimits limits;
  private final MetricNameFilter filter;
  private final StringCache strings = new StringCache();
  private final LabelsCache labelsCache = new LabelsCache();
  // Batches come back from the consumer thread via DecodedWrite.release(); a few in flight per
  // decoder is the steady state (the detector queue holds the rest).
  private final BatchPool batches = new BatchPool(64);
  private SampleBatch batch;

  private byte[] buf = new byte[0];
  private int pos;
  private int ctx;
  private int ctxIndex;

  // Results of scanning one TimeSeries.
  private int scanNameOff;
  private int scanNameLen;
  private int scanLabels;
  private int scanSamples;
  private int scanSamplesStart;
  private int scanSamplesEnd;
  // [scanLabelsStart, scanLabelsEnd) runs from the first Label field to the end of the last one;
  // the series' labels are a function of these bytes (whatever else is interleaved there).
  private int scanLabelsStart;
  private int scanLabelsEnd;
  private int scanExemplars;
  private int scanHistograms;

  // Results of parsing one Label.
  private int labelNameOff;
  private int labelNameLen;
  private int labelValueOff;
  private int labelValueLen;

  // Label offsets of the accepted series being built.
  private int[] nameOffs;
  private int[] nameLens;
  private int[] valueOffs;
  private int[] valueLens;

  public RemoteWriteDecoder(DecodeLimits limits, MetricNameFilter filter) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.filter = Objects.requireNonNull(filter, "filter");
    int n = Math.min(limits.maxLabelsPerSeries(), 16);
    nameOffs = new int[n];
    nameLens = new int[n];
    valueOffs = new int[n];
    valueLens = new int[n];
  }

  /**
   * Decodes one snappy-compressed WriteRequest.
   *
   * @throws RemoteWriteException TOO_LARGE (413) for a body or declared size over the limits,
   *     MALFORMED (400) for anything invalid
   */
  public DecodedWrite decode(byte[] body, int off, int len) {
    Objects.checkFromIndexSize(off, len, body.length);
    if (len > limits.maxCompressedBytes()) {
      throw RemoteWriteException.tooLarge(
          "compressed body of " + len + " bytes exceeds limit " + limits.maxCompressedBytes()
              + " (raise --max-compressed-bytes)");
    }
    int declared = SnappyBlockDecoder.uncompressedLength(body, off, len);
    if (declared > limits.maxDecompressedBytes()) {
      throw RemoteWriteException.tooLarge(
          "declared decompressed size " + declared + " exceeds limit "
              + limits.maxDecompressedBytes() + " (raise --max-decompressed-bytes)");
    }
    if (buf.length < declared) {
      buf = new byte[declared];
    }
    int n = SnappyBlockDecoder.decompress(body, off, len, buf);
    return parseWriteRequest(buf, n);
  }

  /** Current size of the reusable decompression buffer; for tests. */
  int bufferCapacity() {
    return buf.length;
  }

  /** Parses an uncompressed WriteRequest; package-private for tests. */
  DecodedWrite decodeUncompressed(byte[] proto, int len) {
    Objects.checkFromIndexSize(0, len, proto.length);
    return parseWriteRequest(proto, len);
  }

  private DecodedWrite parseWriteRequest(byte[] b, int end) {
    byte[] saved = buf;
    buf = b;
    try {
      return parseWriteRequest(end);
    } finally {
      buf = saved;
    }
  }

  private DecodedWrite parseWriteRequest(final int end) {
    batch = batches.take();
    try {
      return parseInto(end);
    } catch (RuntimeException e) {
      batches.give(batch);
      throw e;
    } finally {
      batch = null;
    }
  }

  private DecodedWrite parseInto(final int end) {
    int seriesCount = 0;
    int samples = 0;
    int acceptedSamples = 0;
    int unusedSeries = 0;
    int unusedSamples = 0;
    int metadata = 0;
    int exemplars = 0;
    int histograms = 0;
    pos = 0;
    while (pos < end) {
      ctx = CTX_REQUEST;
      ctxIndex = 0;
      int tagPos = pos;
      long tag = readTag(end);
      int field = (int) (tag >>> 3);
      int wireType = (int) (tag & 7);
      if (field == 1) {
        expectWireType(field, wireType, 2, tagPos);
        int len = readLength(end, field);
        int seriesIndex = seriesCount++;
        if (seriesCount > limits.maxSeriesPerRequest()) {
          throw malformed(
              "request has more than " + limits.maxSeriesPerRequest()
                  + " TimeSeries (limit --max-series-per-request)");
        }
        int seriesEnd = pos + len;
        ctx = CTX_SERIES;
        ctxIndex = seriesIndex;
        scanTimeSeries(seriesEnd);
        samples += scanSamples;
        exemplars += scanExemplars;
        histograms += scanHistograms;
        if (scanNameOff < 0 || !filter.accepts(buf, scanNameOff, scanNameLen)) {
          // not validated further, but a label named twice is no series at all
          rejectRepeatedName(seriesIndex, Math.min(scanLabels, limits.maxLabelsPerSeries()));
          unusedSeries++;
          unusedSamples += scanSamples;
        } else {
          buildSeries(seriesIndex);
          acceptedSamples += scanSamples;
        }
        pos = seriesEnd;
      } else if (field == 3) {
        expectWireType(field, wireType, 2, tagPos);
        int len = readLength(end, field);
        ctx = CTX_METADATA;
        ctxIndex = metadata++;
        walkMessage(pos + len);
      } else {
        skipField(field, wireType, end, tagPos);
      }
    }
    return new DecodedWrite(
        batch,
        batches,
        seriesCount,
        samples,
        acceptedSamples,
        unusedSeries,
        unusedSamples,
        metadata,
        exemplars,
        histograms);
  }

  /** Checks the framing of one TimeSeries and records its name, label and sample counts. */
  private void scanTimeSeries(final int end) {
    final int seriesIndex = ctxIndex;
    scanNameOff = -1;
    scanNameLen = 0;
    scanLabels = 0;
    scanSamples = 0;
    scanSamplesStart = -1;
    scanSamplesEnd = -1;
    scanLabelsStart = -1;
    scanLabelsEnd = -1;
    scanExemplars = 0;
    scanHistograms = 0;
    while (pos < end) {
      ctx = CTX_SERIES;
      ctxIndex = seriesIndex;
      int tagPos = pos;
      long tag = readTag(end);
      int field = (int) (tag >>> 3);
      int wireType = (int) (tag & 7);
      switch (field) {
        case 1 -> {
          expectWireType(field, wireType, 2, tagPos);
          int len = readLength(end, field);
          ctx = CTX_LABEL;
          if (scanLabelsStart < 0) {
            scanLabelsStart = tagPos;
          }
          parseLabel(pos + len);
          scanLabelsEnd = pos;
          if (scanNameOff < 0 && isNameLabel()) {
            scanNameOff = labelValueOff;
            scanNameLen = labelValueLen;
          }
          recordLabel(scanLabels++);
        }
        case 2 -> {
          expectWireType(field, wireType, 2, tagPos);
          int len = readLength(end, field);
          ctx = CTX_SAMPLE;
          if (scanSamplesStart < 0) {
            scanSamplesStart = tagPos;
          }
          walkMessage(pos + len);
          scanSamplesEnd = pos;
          scanSamples++;
        }
        case 3 -> {
          expectWireType(field, wireType, 2, tagPos);
          int len = readLength(end, field);
          ctx = CTX_EXEMPLAR;
          walkMessage(pos + len);
          scanExemplars++;
        }
        case 4 -> {
          expectWireType(field, wireType, 2, tagPos);
          int len = readLength(end, field);
          ctx = CTX_HISTOGRAM;
          walkMessage(pos + len);
          scanHistograms++;
        }
        default -> skipField(field, wireType, end, tagPos);
      }
    }
    ctx = CTX_SERIES;
    ctxIndex = seriesIndex;
  }

  private boolean isNameLabel() {
    return isNameLabel(labelNameOff, labelNameLen);
  }

  /** Parses one Label message ending at {@code end}; missing fields are empty (proto3). */
  private void parseLabel(final int end) {
    // Prometheus writes every Label as tag 0x0a, length, name, tag 0x12, length, value, with
    // one-byte lengths for the short names and values of real series: check that exact shape in
    // one go (the same checks the loop below makes) and leave anything else to the loop.
    final int p = pos;
    if (end - p >= 4 && buf[p] == 0x0a) {
      final int nameLen = buf[p + 1];
      final int v = p + 2 + nameLen;
      if (nameLen >= 0 && v + 2 <= end && buf[v] == 0x12) {
        final int valueLen = buf[v + 1];
        if (valueLen >= 0 && v + 2 + valueLen == end) {
          labelNameOff = p + 2;
          labelNameLen = nameLen;
          labelValueOff = v + 2;
          labelValueLen = valueLen;
          pos = end;
          return;
        }
      }
    }
    labelNameOff = pos;
    labelNameLen = 0;
    labelValueOff = pos;
    labelValueLen = 0;
    while (pos < end) {
      int tagPos = pos;
      long tag = readTag(end);
      int field = (int) (tag >>> 3);
      int wireType = (int) (tag & 7);
      if (field == 1) {
        expectWireType(field, wireType, 2, tagPos);
        labelNameLen = readLength(end, field);
        labelNameOff = pos;
        pos += labelNameLen;
      } else if (field == 2) {
        expectWireType(field, wireType, 2, tagPos);
        labelValueLen = readLength(end, field);
        labelValueOff = pos;
        pos += labelValueLen;
      } else {
        skipField(field, wireType, end, tagPos);
      }
    }
  }

  /**
   * Remembers the offsets of label {@code i} of the series being scanned, up to the label limit
   * (a series with more labels is rejected if accepted, and needs no offsets if dropped).
   */
  private void recordLabel(int i) {
    if (i >= limits.maxLabelsPerSeries()) {
      return;
    }
    if (i >= nameOffs.length) {
      int n = (int) Math.min((long) nameOffs.length * 2, limits.maxLabelsPerSeries());
      nameOffs = Arrays.copyOf(nameOffs, n);
      nameLens = Arrays.copyOf(nameLens, n);
      valueOffs = Arrays.copyOf(valueOffs, n);
      valueLens = Arrays.copyOf(valueLens, n);
    }
    nameOffs[i] = labelNameOff;
    nameLens[i] = labelNameLen;
    valueOffs[i] = labelValueOff;
    valueLens[i] = labelValueLen;
  }

  /**
   * Appends an accepted, already framing-checked TimeSeries to the batch from the label offsets
   * recorded by the scan, decoding samples from the region between its first and last Sample
   * field. A series whose labels are cached allocates nothing.
   */
  private void buildSeries(int seriesIndex) {
    final int labelCount = scanLabels;
    final int sampleCount = scanSamples;
    if (labelCount > limits.maxLabelsPerSeries()) {
      throw malformed(
          seriesWhere(seriesIndex) + " has " + labelCount + " labels, exceeding limit "
              + limits.maxLabelsPerSeries() + " (raise --max-labels-per-series)");
    }
    Labels labels = null;
    int labelsHash = 0;
    final boolean cacheable = scanLabelsStart >= 0;
    if (cacheable) {
      labelsHash = LabelsCache.hash(buf, scanLabelsStart, scanLabelsEnd - scanLabelsStart);
      labels = labelsCache.get(buf, scanLabelsStart, scanLabelsEnd - scanLabelsStart, labelsHash);
    }
    if (labels == null) {
      validateLabels(seriesIndex, labelCount);
    }
    batch.ensureSamples(sampleCount);
    final long[] timestamps = batch.timestamps;
    final double[] values = batch.values;
    if (sampleCount > 0) {
      int samples = batch.samples;
      final int end = scanSamplesEnd;
      pos = scanSamplesStart;
      ctxIndex = seriesIndex;
      while (pos < end) {
        int tagPos = pos;
        long tag = readTag(end);
        int field = (int) (tag >>> 3);
        int wireType = (int) (tag & 7);
        if (field == 2) {
          int len = readLength(end, field);
          ctx = CTX_SAMPLE;
          parseSample(pos + len, timestamps, values, samples++);
          ctx = CTX_SERIES;
        } else {
          skipField(field, wireType, end, tagPos);
        }
      }
    }
    if (labels == null) {
      String[] names = new String[labelCount];
      String[] vals = new String[labelCount];
      for (int i = 0; i < labelCount; i++) {
        names[i] = strings.get(buf, nameOffs[i], nameLens[i]);
        vals[i] = strings.get(buf, valueOffs[i], valueLens[i]);
      }
      labels = Labels.of(names, vals);
      if (cacheable) {
        labelsCache.put(
            buf, scanLabelsStart, scanLabelsEnd - scanLabelsStart, labelsHash, labels);
      }
    }
    batch.samples += sampleCount;
    batch.endSeries(labels);
  }

  private void parseSample(final int end, long[] timestamps, double[] values, int i) {
    long bits = 0;
    long timestamp = 0;
    while (pos < end) {
      int tagPos = pos;
      long tag = readTag(end);
      int field = (int) (tag >>> 3);
      int wireType = (int) (tag & 7);
      if (field == 1) {
        expectWireType(field, wireType, 1, tagPos);
        bits = readFixed64(end);
      } else if (field == 2) {
        expectWireType(field, wireType, 0, tagPos);
        timestamp = readVarint(end);
      } else {
        skipField(field, wireType, end, tagPos);
      }
    }
    timestamps[i] = timestamp;
    values[i] = Double.longBitsToDouble(bits);
  }

  private void validateLabels(int seriesIndex, int count) {
    for (int i = 0; i < count; i++) {
      int no = nameOffs[i];
      int nl = nameLens[i];
      int vo = valueOffs[i];
      int vl = valueLens[i];
      if (nl > limits.maxLabelNameLength()) {
        throw malformed(
            "label name of " + nl + " bytes in " + seriesWhere(seriesIndex)
                + " exceeds limit " + limits.maxLabelNameLength()
                + " (raise --max-label-name-length)");
      }
      if (!LabelSyntax.isValidLabelName(buf, no, nl)) {
        throw malformed(
            "label name \"" + printable(no, nl) + "\" in " + seriesWhere(seriesIndex)
                + " is not valid [a-zA-Z_][a-zA-Z0-9_]*");
      }
      if (i > 0) {
        int cmp =
            Arrays.compareUnsigned(
                buf, nameOffs[i - 1], nameOffs[i - 1] + nameLens[i - 1], buf, no, no + nl);
        if (cmp == 0) {
          throw malformed(
              "duplicate label name \"" + printable(no, nl) + "\" in "
                  + seriesWhere(seriesIndex));
        }
        if (cmp > 0) {
          rejectRepeatedName(seriesIndex, count); // name the real problem when there is one
          throw malformed(
              "labels not sorted in " + seriesWhere(seriesIndex) + ": \""
                  + printable(no, nl) + "\" comes after \""
                  + printable(nameOffs[i - 1], nameLens[i - 1]) + "\"");
        }
      }
      if (vl == 0) {
        throw malformed(
            "label \"" + printable(no, nl) + "\" in " + seriesWhere(seriesIndex)
                + " has an empty value");
      }
      if (vl > limits.maxLabelValueLength()) {
        throw malformed(
            "value of label \"" + printable(no, nl) + "\" in " + seriesWhere(seriesIndex)
                + " is " + vl + " bytes, exceeding limit " + limits.maxLabelValueLength()
                + " (raise --max-label-value-length)");
      }
      if (isNameLabel(no, nl)) {
        if (!LabelSyntax.isValidMetricName(buf, vo, vl)) {
          throw malformed(
              "metric name \"" + printable(vo, vl) + "\" in series #" + seriesIndex
                  + " is not valid [a-zA-Z_:][a-zA-Z0-9_:]*");
        }
      } else if (!LabelSyntax.isValidUtf8(buf, vo, vl)) {
        throw malformed(
            "value of label \"" + printable(no, nl) + "\" in " + seriesWhere(seriesIndex)
                + " is not valid UTF-8");
      }
    }
  }

  private void rejectRepeatedName(int seriesIndex, int count) {
    int i = LabelSyntax.repeatedName(buf, nameOffs, nameLens, count);
    if (i >= 0) {
      throw malformed("duplicate label name \"" + printable(nameOffs[i], nameLens[i]) + "\" in "
          + seriesWhere(seriesIndex));
    }
  }

  private boolean isNameLabel(int off, int len) {
    // "__name__" is exactly 8 bytes: one long compare instead of Arrays.equals, whose set-up
    // cost more than the compare itself once per series of every request.
    return len == NAME_LABEL.length && ByteAccess.getLongLE(buf, off) == NAME_LABEL_LE;
  }

  private String seriesWhere(int seriesIndex) {
    return "series #" + seriesIndex + " (metric " + printable(scanNameOff, scanNameLen) + ")";
  }

  /** A bounded, lossy rendering of bytes for error messages. */
  private String printable(int off, int len) {
    if (off < 0) {
      return "<none>";
    }
    int n = Math.min(len, 120);
    StringBuilder sb = new StringBuilder(n + 8);
    String s = new String(buf, off, n, StandardCharsets.UTF_8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        sb.append(String.format("\\x%02x", (int) c));
      } else if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else {
        sb.append(c);
      }
    }
    if (n < len) {
      sb.append("...(").append(len).append(" bytes)");
    }
    return sb.toString();
  }

  // ---------------------------------------------------------------- protobuf primitives

  /** Walks the fields of a message we only count, checking wire types and framing. */
  private void walkMessage(final int end) {
    while (pos < end) {
      int tagPos = pos;
      long tag = readTag(end);
      skipField((int) (tag >>> 3), (int) (tag & 7), end, tagPos);
    }
  }

  private long readTag(int end) {
    int start = pos;
    long tag = readVarint(end);
    if (tag > 0xffff_ffffL || tag < 0) {
      throw malformed(where() + ": field tag " + Long.toUnsignedString(tag)
          + " out of range at byte " + start);
    }
    if ((tag >>> 3) == 0) {
      throw malformed(where() + ": field number 0 at byte " + start);
    }
    return tag;
  }

  private long readVarint(int end) {
    if (pos < end && buf[pos] >= 0) {
      return buf[pos++];
    }
    final int start = pos;
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) {
        throw malformed(where() + ": truncated varint at byte " + start);
      }
      byte b = buf[pos++];
      result |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        if (shift == 63 && b > 1) {
          throw malformed(where() + ": varint overflows 64 bits at byte " + start);
        }
        return result;
      }
    }
    throw malformed(where() + ": varint longer than 10 bytes at byte " + start);
  }

  private long readFixed64(int end) {
    if (end - pos < 8) {
      throw malformed(where() + ": truncated fixed64 at byte " + pos);
    }
    int p = pos;
    pos += 8;
    return (buf[p] & 0xffL)
        | (buf[p + 1] & 0xffL) << 8
        | (buf[p + 2] & 0xffL) << 16
        | (buf[p + 3] & 0xffL) << 24
        | (buf[p + 4] & 0xffL) << 32
        | (buf[p + 5] & 0xffL) << 40
        | (buf[p + 6] & 0xffL) << 48
        | (buf[p + 7] & 0xffL) << 56;
  }

  /** Reads the length of a length-delimited field and checks it fits before {@code end}. */
  private int readLength(int end, int field) {
    int start = pos;
    long len = readVarint(end);
    if (len < 0 || len > end - pos) {
      throw malformed(
          where() + ": length-delimited field " + field + " of " + Long.toUnsignedString(len)
              + " bytes at byte " + start + " runs past end (" + (end - pos)
              + " bytes left)");
    }
    return (int) len;
  }

  private void skipField(int field, int wireType, int end, int tagPos) {
    switch (wireType) {
      case 0 -> readVarint(end);
      case 1 -> skipFixed(8, end, field);
      case 2 -> {
        int len = readLength(end, field); // read before `pos +=` evaluates pos
        pos += len;
      }
      case 5 -> skipFixed(4, end, field);
      default -> throw malformed(
          where() + ": invalid wire type " + wireType + " for field " + field + " at byte "
              + tagPos);
    }
  }

  private void skipFixed(int n, int end, int field) {
    if (end - pos < n) {
      throw malformed(
          where() + ": truncated fixed" + (n * 8) + " field " + field + " at byte " + pos);
    }
    pos += n;
  }

  private void expectWireType(int field, int wireType, int expected, int tagPos) {
    if (wireType != expected) {
      throw malformed(
          where() + ": field " + field + " has wire type " + wireType + ", expected " + expected
              + " at byte " + tagPos);
    }
  }

  private String where() {
    return "protobuf: "
        + switch (ctx) {
          case CTX_SERIES -> "TimeSeries #" + ctxIndex;
          case CTX_LABEL -> "TimeSeries #" + ctxIndex + " Label";
          case CTX_SAMPLE -> "TimeSeries #" + ctxIndex + " Sample";
          case CTX_EXEMPLAR -> "TimeSeries #" + ctxIndex + " Exemplar";
          case CTX_HISTOGRAM -> "TimeSeries #" + ctxIndex + " Histogram";
          case CTX_METADATA -> "MetricMetadata #" + ctxIndex;
          default -> "WriteRequest";
        };
  }
}
