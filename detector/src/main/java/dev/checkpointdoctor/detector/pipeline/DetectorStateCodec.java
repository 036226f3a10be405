package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Binary form of {@link DetectorState}: magic, version, body, CRC-32 of the body. A torn or
 * tampered file fails the checksum instead of restoring half a state.
 *
 * <p>The body ends with tagged sections ({@code int tag, int length, bytes}) until its end: a
 * snapshot written before a section existed simply has none and still reads, and a reader skips
 * tags it does not know. {@link #HISTORIES} holds the raw recent points, hourly summaries and
 * trend state per (job, signal, scope).
 */
public final class DetectorStateCodec {
  private static final int MAGIC = 0x43504453; // "CPDS"
  /** 2: anomalies carry their resolution; version 1 is still read (resolved = returned). */
  private static final int VERSION = 2;
  private static final int MAX_STRING = 1 << 16;
  static final int HISTORIES = 1;

  private DetectorStateCodec() {}

  public static byte[] encode(DetectorState state) {
    try {
      ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
      DataOutputStream out = new DataOutputStream(body);
      out.writeLong(state.eventTimeMs());
      out.writeLong(state.nextAnomalyId());
      out.writeInt(state.trackers().size());
      for (DetectorState.TrackerState t : state.trackers()) {
        out.writeUTF(t.job());
        out.writeUTF(t.signal().id());
        out.writeUTF(t.scope());
        writeNullable(out, t.join());
        out.writeInt(t.tracker().length);
        out.write(t.tracker());
        out.writeBoolean(t.openAnomaly() != null);
        if (t.openAnomaly() != null) {
          writeAnomaly(out, t.openAnomaly());
        }
      }
      out.writeInt(state.resolved().size());
      for (Anomaly a : state.resolved()) {
        writeAnomaly(out, a);
      }
      out.writeInt(state.lastSeenMs().size());
      for (Map.Entry<String, Long> e : state.lastSeenMs().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeLong(e.getValue());
      }
      out.writeInt(state.diagnoses().size());
      for (Diagnosis d : state.diagnoses().values()) {
        writeDiagnosis(out, d);
      }
      if (!state.histories().isEmpty()) {
        ByteArrayOutputStream section = new ByteArrayOutputStream(4096);
        writeHistories(new DataOutputStream(section), state.histories());
        out.writeInt(HISTORIES);
        out.writeInt(section.size());
        section.writeTo(out);
      }
      out.flush();
      byte[] bodyBytes = body.toByteArray();
      CRC32 crc = new CRC32();
      crc.update(bodyBytes);
      ByteArrayOutputStream file = new ByteArrayOutputStream(bodyBytes.length + 20);
      DataOutputStream f = new DataOutputStream(file);
      f.writeInt(MAGIC);
      f.writeInt(VERSION);
      f.writeInt(bodyBytes.length);
      f.write(bodyBytes);
      f.writeLong(crc.getValue());
      f.flush();
      return file.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("in-memory write failed", e);
    }
  }

  /** Decodes a snapshot, or explains in the exception why it cannot be trusted. */
  public static DetectorState decode(byte[] bytes) throws IOException {
    try {
      DataInputStream f = new DataInputStream(new ByteArrayInputStream(bytes));
      if (f.readInt() != MAGIC) {
        throw new IOException("not a Checkpoint Doctor snapshot (bad magic)");
      }
      int version = f.readInt();
      if (version < 1 || version > VERSION) {
        throw new IOException("unsupported snapshot version " + version);
      }
      int length = f.readInt();
      if (length < 0 || length > bytes.length - 20) {
        throw new IOException("snapshot body length " + length + " does not fit the file");
      }
      byte[] body = new byte[length];
      f.readFully(body);
      CRC32 crc = new CRC32();
      crc.update(body);
      if (f.readLong() != crc.getValue()) {
        throw new IOException("snapshot checksum mismatch");
      }
      return decodeBody(new DataInputStream(new ByteArrayInputStream(body)), version);
    } catch (EOFException e) {
      throw new IOException("snapshot is truncated", e);
    }
  }

  private static DetectorState decodeBody(DataInputStream in, int version) throws IOException {
    long eventTime = in.readLong();
    long nextId = in.readLong();
    int n = count(in.readInt(), "trackers");
    List<DetectorState.TrackerState> trackers = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String job = in.readUTF();
      Signal signal = signal(in.readUTF());
      String scope = in.readUTF();
      String join = readNullable(in);
      int len = in.readInt();
      if (len < 0 || len > 1 << 24) {
        throw new IOException("tracker blob length " + len);
      }
      byte[] blob = new byte[len];
      in.readFully(blob);
      Anomaly open = in.readBoolean() ? readAnomaly(in, version) : null;
      trackers.add(new DetectorState.TrackerState(job, signal, scope, join, blob, open));
    }
    int r = count(in.readInt(), "resolved anomalies");
    List<Anomaly> resolved = new ArrayList<>(r);
    for (int i = 0; i < r; i++) {
      resolved.add(readAnomaly(in, version));
    }
    int j = count(in.readInt(), "jobs");
    Map<String, Long> lastSeen = new HashMap<>();
    for (int i = 0; i < j; i++) {
      lastSeen.put(in.readUTF(), in.readLong());
    }
    int dn = count(in.readInt(), "diagnoses");
    Map<String, Diagnosis> diagnoses = new HashMap<>();
    for (int i = 0; i < dn; i++) {
      Diagnosis d = readDiagnosis(in);
      diagnoses.put(d.job(), d);
    }
    List<DetectorState.HistoryState> histories = List.of();
    while (in.available() > 0) {
      int tag = in.readInt();
      int length = in.readInt();
      if (length < 0 || length > in.available()) {
        throw new IOException("section " + tag + " of " + length + " bytes does not fit");
      }
      byte[] section = new byte[length];
      in.readFully(section);
      if (tag == HISTORIES) {
        DataInputStream h = new DataInputStream(new ByteArrayInputStream(section));
        histories = readHistories(h, version);
        if (h.available() > 0) {
          throw new IOException("histories section has " + h.available() + " stray bytes");
        }
      }
    }
    return new DetectorState(eventTime, nextId, trackers, resolved, lastSeen, diagnoses,
        histories);
  }

  /**
   * Times as zig-zag varint deltas (a few bytes each: points are seconds to minutes apart),
   * values as the doubles they are, so a restored rule reads exactly what it read before.
   */
  private static void writeHistories(DataOutputStream out,
      List<DetectorState.HistoryState> histories) throws IOException {
    out.writeInt(histories.size());
    for (DetectorState.HistoryState h : histories) {
      out.writeUTF(h.job());
      out.writeUTF(h.signal().id());
      out.writeUTF(h.scope());
      out.writeInt(h.timesMs().length);
      long previous = 0;
      for (int i = 0; i < h.timesMs().length; i++) {
        long delta = h.timesMs()[i] - previous;
        writeVarLong(out, (delta << 1) ^ (delta >> 63));
        previous = h.timesMs()[i];
        out.writeDouble(h.values()[i]);
      }
      writeBlob(out, h.hourly());
      writeBlob(out, h.trend());
      out.writeBoolean(h.trendAnomaly() != null);
      if (h.trendAnomaly() != null) {
        writeAnomaly(out, h.trendAnomaly());
      }
    }
  }

  private static List<DetectorState.HistoryState> readHistories(DataInputStream in,
      int version) throws IOException {
    int n = count(in.readInt(), "histories");
    List<DetectorState.HistoryState> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      String job = in.readUTF();
      Signal signal = signal(in.readUTF());
      String scope = in.readUTF();
      int points = in.readInt();
      if (points < 0 || points > 1 << 20) {
        throw new IOException("history of " + points + " points");
      }
      long[] times = new long[points];
      double[] values = new double[points];
      long previous = 0;
      for (int i = 0; i < points; i++) {
        long zigzag = readVarLong(in);
        previous += (zigzag >>> 1) ^ -(zigzag & 1);
        times[i] = previous;
        values[i] = in.readDouble();
      }
      byte[] hourly = readBlob(in);
      byte[] trend = readBlob(in);
      Anomaly trendAnomaly = in.readBoolean() ? readAnomaly(in, version) : null;
      out.add(new DetectorState.HistoryState(job, signal, scope, times, values, hourly, trend,
          trendAnomaly));
    }
    return out;
  }

  private static void writeBlob(DataOutputStream out, byte[] blob) throws IOException {
    out.writeInt(blob == null ? -1 : blob.length);
    if (blob != null) {
      out.write(blob);
    }
  }

  private static byte[] readBlob(DataInputStream in) throws IOException {
    int len = in.readInt();
    if (len == -1) {
      return null;
    }
    if (len < 0 || len > 1 << 24) {
      throw new IOException("blob length " + len);
    }
    byte[] b = new byte[len];
    in.readFully(b);
    return b;
  }

  private static void writeVarLong(DataOutputStream out, long v) throws IOException {
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  private static long readVarLong(DataInputStream in) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = in.readUnsignedByte();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("malformed varint");
  }

  private static void writeAnomaly(DataOutputStream out, Anomaly a) throws IOException {
    out.writeLong(a.id());
    out.writeUTF(a.job());
    out.writeUTF(a.signal().id());
    out.writeUTF(a.scope());
    out.writeBoolean(a.open());
    out.writeLong(a.startedAtMs());
    out.writeLong(a.endedAtMs());
    out.writeDouble(a.observed());
    out.writeDouble(a.expected());
    out.writeDouble(a.lower());
    out.writeDouble(a.upper());
    out.writeDouble(a.score());
    writeCauses(out, a.causes());
    out.writeByte(a.resolution() == null ? 0 : 1 + a.resolution().ordinal());
    out.writeLong(a.newNormalSinceMs());
  }

  private static void writeCauses(DataOutputStream out, List<CauseHypothesis> causes)
      throws IOException {
    out.writeInt(causes.size());
    for (CauseHypothesis c : causes) {
      out.writeUTF(c.cause());
      out.writeDouble(c.confidence());
      out.writeUTF(c.remedy() == null ? "" : c.remedy());
      out.writeUTF(c.docsUrl() == null ? "" : c.docsUrl());
      out.writeInt(c.evidence().size());
      for (CauseHypothesis.Evidence e : c.evidence()) {
        out.writeUTF(e.signal());
        out.writeUTF(e.scope());
        out.writeDouble(e.observed());
        out.writeDouble(e.expected());
        out.writeUTF(e.sentence());
      }
    }
  }

  private static List<CauseHypothesis> readCauses(DataInputStream in) throws IOException {
    int n = count(in.readInt(), "causes");
    List<CauseHypothesis> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String cause = in.readUTF();
      double confidence = in.readDouble();
      String remedy = in.readUTF();
      String docs = in.readUTF();
      int m = count(in.readInt(), "evidence");
      List<CauseHypothesis.Evidence> evidence = new ArrayList<>(m);
      for (int k = 0; k < m; k++) {
        evidence.add(new CauseHypothesis.Evidence(in.readUTF(), in.readUTF(), in.readDouble(),
            in.readDouble(), in.readUTF()));
      }
      try {
        out.add(new CauseHypothesis(cause, confidence, evidence, remedy, docs));
      } catch (IllegalArgumentException e) {
        throw new IOException("invalid cause " + cause + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static void writeDiagnosis(DataOutputStream out, Diagnosis d) throws IOException {
    out.writeUTF(d.job());
    out.writeUTF(d.cause());
    out.writeDouble(d.confidence());
    out.writeLong(d.sinceMs());
    out.writeUTF(d.signal());
    out.writeBoolean(d.checkpointsFailing());
    out.writeBoolean(d.hoursToTimeout() != null);
    if (d.hoursToTimeout() != null) {
      out.writeDouble(d.hoursToTimeout());
    }
    writeCauses(out, d.ranked());
  }

  private static Diagnosis readDiagnosis(DataInputStream in) throws IOException {
    String job = in.readUTF();
    String cause = in.readUTF();
    double confidence = in.readDouble();
    long since = in.readLong();
    String signal = in.readUTF();
    boolean failing = in.readBoolean();
    Double hours = in.readBoolean() ? in.readDouble() : null;
    List<CauseHypothesis> ranked = readCauses(in);
    try {
      return new Diagnosis(job, cause, confidence, since, signal, failing, hours, ranked);
    } catch (IllegalArgumentException e) {
      throw new IOException("invalid diagnosis of " + job + ": " + e.getMessage(), e);
    }
  }

  private static Anomaly readAnomaly(DataInputStream in, int version) throws IOException {
    long id = in.readLong();
    String job = in.readUTF();
    Signal signal = signal(in.readUTF());
    String scope = in.readUTF();
    boolean open = in.readBoolean();
    long started = in.readLong();
    long ended = in.readLong();
    try {
      double observed = in.readDouble();
      double expected = in.readDouble();
      double lower = in.readDouble();
      double upper = in.readDouble();
      double score = in.readDouble();
      List<CauseHypothesis> causes = readCauses(in);
      if (version < 2) {
        return new Anomaly(id, job, signal, scope, open, started, ended, observed, expected,
            lower, upper, score, causes);
      }
      int resolution = in.readUnsignedByte();
      long since = in.readLong();
      if (resolution > Anomaly.Resolution.values().length) {
        throw new IOException("anomaly " + id + " has an unknown resolution " + resolution);
      }
      return new Anomaly(id, job, signal, scope, open, started, ended, observed, expected, lower,
          upper, score, causes,
          resolution == 0 ? null : Anomaly.Resolution.values()[resolution - 1], since);
    } catch (IllegalArgumentException e) {
      throw new IOException("invalid anomaly " + id + ": " + e.getMessage(), e);
    }
  }

  private static Signal signal(String id) throws IOException {
    return Signal.byId(id).orElseThrow(() -> new IOException("unknown signal " + id));
  }

  private static int count(int n, String what) throws IOException {
    if (n < 0 || n > 10_000_000) {
      throw new IOException("implausible number of " + what + ": " + n);
    }
    return n;
  }

  private static void writeNullable(DataOutputStream out, String s) throws IOException {
    out.writeBoolean(s != null);
    if (s != null) {
      out.writeUTF(s.length() > MAX_STRING / 4 ? s.substring(0, MAX_STRING / 4) : s);
    }
  }

  private static String readNullable(DataInputStream in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }
}
