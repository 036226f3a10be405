package dev.checkpointdoctor.api.bench;

import dev.checkpointdoctor.api.bench.FlinkFleet.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds remote-write bodies as Prometheus 2.42 sends them (one sample per TimeSeries entry, up to
 * {@code samplesPerBody} entries, snappy block compressed) from a fleet's series for one scrape
 * round. Each round has its own timestamp, so bodies built for rounds 0, 1, 2... carry strictly
 * increasing timestamps per series. Not thread-safe (reuses its buffers).
 */
public final class BodyFactory {
  public static final long SCRAPE_INTERVAL_MS = 15_000;

  /** A compressed body and the samples in it. */
  public record Body(byte[] bytes, int samples) {}

  private final ProtoWriter proto = new ProtoWriter();
  private final SnappyCompressor snappy = new SnappyCompressor();

  /** The bodies of one round for these series, in order, timestamp {@code t0 + round * 15 s}. */
  public List<Body> round(List<Series> series, int round, long t0, int samplesPerBody) {
    List<Body> out = new ArrayList<>();
    long ts = t0 + round * SCRAPE_INTERVAL_MS;
    for (int from = 0; from < series.size(); from += samplesPerBody) {
      int to = Math.min(series.size(), from + samplesPerBody);
      encode(series, from, to, round, ts);
      out.add(new Body(snappy.compress(proto.array(), proto.length()), to - from));
    }
    return out;
  }

  /** The uncompressed WriteRequest of series [from, to) at one timestamp, for decode benches. */
  public byte[] uncompressed(List<Series> series, int from, int to, int round, long ts) {
    encode(series, from, to, round, ts);
    return proto.toByteArray();
  }

  /** Compresses a protobuf body with this factory's snappy compressor. */
  public byte[] compress(byte[] raw) {
    return snappy.compress(raw, raw.length);
  }

  private void encode(List<Series> series, int from, int to, int round, long ts) {
    proto.reset();
    int sampleLen = 1 + 8 + 1 + ProtoWriter.varintSize(ts);
    for (int i = from; i < to; i++) {
      Series s = series.get(i);
      int seriesLen = s.labelFields().length + 1 + ProtoWriter.varintSize(sampleLen) + sampleLen;
      proto.varint(1 << 3 | 2).varint(seriesLen).raw(s.labelFields());
      proto.varint(2 << 3 | 2).varint(sampleLen);
      proto.varint(1 << 3 | 1).fixed64(Double.doubleToRawLongBits(value(s, i, round)));
      proto.varint(2 << 3).varint(ts);
    }
  }

  /** A deterministic, plausible value: gauges wobble, counters grow, one checkpoint per round. */
  static double value(Series s, int index, int round) {
    double noise = noise(index * 31L + round);
    return switch (s.shape()) {
      case GAUGE -> s.base() * (1 + 0.05 * noise);
      case COUNTER -> s.base() * (1 + index % 7) + round * s.base() * 0.01 * (1.5 + noise);
      case CHECKPOINT_ID -> 100 + round;
      case CHECKPOINT_DURATION -> s.base() * (1 + 0.1 * noise);
    };
  }

  /** A value in [-1, 1) from a seed (splitmix64). */
  private static double noise(long seed) {
    long z = seed * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return (z >>> 11) * 0x1.0p-52 - 1;
  }
}
