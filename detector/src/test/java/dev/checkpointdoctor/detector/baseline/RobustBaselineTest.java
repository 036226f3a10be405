package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RobustBaselineTest {

  static final long T0 = 1_700_000_000_000L;
  static final long MINUTE = 60_000L;
  static final long HOUR = 3_600_000L;
  static final double EPS = 1e-9;

  static DetectorSettings settings(int min, int window, Duration halfLife) {
    return new DetectorSettings(min, window, halfLife, 4.0, 0.1, 3, 3, Duration.ofHours(6),
        Duration.ofMinutes(30), Duration.ofMinutes(10), Map.of());
  }

  @Test
  void weightedMedianAndMadOnTinyWindowWithEqualWeights() {
    // DISK_LATENCY: absoluteFloor 2 ms. All timestamps equal -> every weight is 2^0 = 1.
    RobustBaseline b = new RobustBaseline(Signal.DISK_LATENCY, settings(3, 5, Duration.ofHours(1)));
    for (double v : new double[] {10, 12, 11, 50, 13}) {
      assertThat(b.learn(T0, v)).isTrue();
    }
    Band band = b.band();
    // sorted 10,11,12,13,50; W = 5, W/2 = 2.5; cumulative 1,2,3 -> median = 12
    assertThat(band.expected()).isEqualTo(12.0);
    // |x - 12| = 2,0,1,38,1 -> sorted 0,1,1,2,38; cumulative 1,2,3 -> MAD = 1
    // spread = 1.4826 * 1 = 1.4826
    assertThat(band.spread()).isCloseTo(1.4826, within(EPS));
    // h = max(4 * 1.4826 = 5.9304, 0.1 * 12 = 1.2, 2) = 5.9304
    assertThat(band.halfWidth()).isCloseTo(5.9304, within(EPS));
    assertThat(band.lower()).isCloseTo(12 - 5.9304, within(EPS)); // 6.0696
    assertThat(band.upper()).isCloseTo(12 + 5.9304, within(EPS)); // 17.9304
  }

  @Test
  void evenCountTakesTheLowerMiddleValue() {
    RobustBaseline b = new RobustBaseline(Signal.DISK_LATENCY, settings(3, 8, Duration.ofHours(1)));
    for (double v : new double[] {4, 1, 3, 2}) {
      b.learn(T0, v);
    }
    // sorted 1,2,3,4; W/2 = 2; cumulative 1,2 -> 2 (the smallest value reaching half)
    assertThat(b.band().expected()).isEqualTo(2.0);
    // |x - 2| = 2,1,1,0 -> sorted 0,1,1,2; cumulative 1,2 -> MAD = 1
    assertThat(b.band().spread()).isCloseTo(1.4826, within(EPS));
  }

  @Test
  void timeDecayMakesOldValuesCountLess() {
    DetectorSettings s = settings(3, 5, Duration.ofHours(1));
    // Same five values, once all at one timestamp, once with the 10s two half-lives old.
    RobustBaseline flat = new RobustBaseline(Signal.DISK_LATENCY, s);
    RobustBaseline decayed = new RobustBaseline(Signal.DISK_LATENCY, s);
    for (double v : new double[] {10, 10, 10}) {
      flat.learn(T0 + 2 * HOUR, v);
      decayed.learn(T0, v);
    }
    flat.learn(T0 + 2 * HOUR, 20);
    flat.learn(T0 + 2 * HOUR, 21);
    decayed.learn(T0 + 2 * HOUR, 20);
    decayed.learn(T0 + 2 * HOUR, 21);

    // flat: weights all 1; sorted 10,10,10,20,21 -> median 10; deviations 0,0,0,10,11 -> MAD 0
    // h = max(0, 0.1 * 10 = 1, 2) = 2 -> [8, 12]
    assertThat(flat.band()).isEqualTo(new Band(10, 8, 12, 0));

    // decayed: t_now = T0 + 2h; the 10s are 2h old -> w = 2^-2 = 0.25 each; 20 and 21 -> 1.
    // W = 0.75 + 2 = 2.75, W/2 = 1.375. Cumulative: 0.25, 0.5, 0.75 (10s), 1.75 (20) -> median 20
    // deviations: 10,10,10 (w 0.25), 0 (w 1), 1 (w 1); sorted 0 (cum 1), 1 (cum 2 >= 1.375)
    // -> MAD 1, spread 1.4826; h = max(5.9304, 2.0, 2) = 5.9304
    Band d = decayed.band();
    assertThat(d.expected()).isEqualTo(20.0);
    assertThat(d.spread()).isCloseTo(1.4826, within(EPS));
    assertThat(d.lower()).isCloseTo(14.0696, within(EPS));
    assertThat(d.upper()).isCloseTo(25.9304, within(EPS));
  }

  @Test
  void sameValuesAtDifferentSpacingsGetDifferentWeights() {
    DetectorSettings s = settings(3, 5, Duration.ofHours(1));
    double[] values = {10, 10, 10, 20, 21};
    RobustBaseline hourly = new RobustBaseline(Signal.DISK_LATENCY, s);
    RobustBaseline minutely = new RobustBaseline(Signal.DISK_LATENCY, s);
    for (int i = 0; i < values.length; i++) {
      hourly.learn(T0 + i * HOUR, values[i]);
      minutely.learn(T0 + i * MINUTE, values[i]);
    }
    // hourly, half-life 1h: ages 4h..0h -> weights 1/16, 1/8, 1/4, 1/2, 1
    assertThat(hourly.weightAt(T0)).isEqualTo(1.0 / 16);
    assertThat(hourly.weightAt(T0 + 3 * HOUR)).isEqualTo(0.5);
    // W = 1.9375, W/2 = 0.96875; cumulative 0.0625, 0.1875, 0.4375, 0.9375 (20), 1.9375 (21)
    // -> median 21; deviations 11,11,11 (w .4375 total), 1 (w .5), 0 (w 1): 0 reaches half -> MAD 0
    // h = max(0, 2.1, 2) = 2.1
    assertThat(hourly.band().expected()).isEqualTo(21.0);
    assertThat(hourly.band().spread()).isEqualTo(0.0);
    assertThat(hourly.band().lower()).isCloseTo(18.9, within(EPS));
    assertThat(hourly.band().upper()).isCloseTo(23.1, within(EPS));

    // minutely: weights 2^(-4/60)=0.95484, 2^(-3/60)=0.96594, 2^(-2/60)=0.97716, 0.98851, 1
    assertThat(minutely.weightAt(T0)).isCloseTo(0.95484, within(1e-5));
    // W = 4.88645, W/2 = 2.44322; the three 10s reach 2.89794 -> median 10; MAD 0 -> [8, 12]
    assertThat(minutely.band()).isEqualTo(new Band(10, 8, 12, 0));
  }

  @Test
  void constantSeriesUsesTheLargerOfRelativeAndAbsoluteFloor() {
    DetectorSettings s = settings(20, 120, Duration.ofDays(3));
    // CHECKPOINT_DURATION absolute floor 250 ms, relativeFloor 0.1
    RobustBaseline small = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
    RobustBaseline large = new RobustBaseline(Signal.CHECKPOINT_DURATION, s);
    for (int i = 0; i < 25; i++) {
      small.learn(T0 + i * MINUTE, 1000);
      large.learn(T0 + i * MINUTE, 5000);
    }
    // MAD 0 -> h = max(0, 0.1 * 1000 = 100, 250) = 250 (absolute floor wins)
    assertThat(small.band()).isEqualTo(new Band(1000, 750, 1250, 0));
    // MAD 0 -> h = max(0, 0.1 * 5000 = 500, 250) = 500 (relative floor wins)
    assertThat(large.band()).isEqualTo(new Band(5000, 4500, 5500, 0));
  }

  @Test
  void negativeExpectedUsesAbsoluteValueForTheRelativeFloor() {
    RobustBaseline b =
        new RobustBaseline(Signal.DISK_LATENCY, settings(3, 5, Duration.ofHours(1)));
    for (int i = 0; i < 3; i++) {
      b.learn(T0, -100);
    }
    // h = max(0, 0.1 * |-100| = 10, 2) = 10
    assertThat(b.band()).isEqualTo(new Band(-100, -110, -90, 0));
  }

  @Test
  void ringBufferKeepsOnlyTheLastWindowSizeObservations() {
    RobustBaseline b = new RobustBaseline(Signal.DISK_LATENCY, settings(3, 5, Duration.ofDays(3)));
    double[] values = {1, 2, 3, 4, 5, 100, 101, 102}; // windowSize 5 + k = 3
    for (int i = 0; i < values.length; i++) {
      b.learn(T0 + i, values[i]);
    }
    assertThat(b.observations()).isEqualTo(8);
    assertThat(b.windowCount()).isEqualTo(5);
    assertThat(b.firstTimestamp()).isEqualTo(T0);
    assertThat(b.lastTimestamp()).isEqualTo(T0 + 7);
    // window = 4,5,100,101,102 (weights ~1, ages <= 4 ms of a 3-day half-life) -> median 100
    // (all eight would give the lower median 4). Deviations 96,95,0,1,2 -> MAD 2
    // spread 2.9652, h = max(11.8608, 10, 2) = 11.8608
    assertThat(b.band().expected()).isEqualTo(100.0);
    assertThat(b.band().spread()).isCloseTo(2.9652, within(EPS));
    assertThat(b.band().upper()).isCloseTo(111.8608, within(EPS));
  }

  @Test
  void readinessAndRejectionOfNonFiniteValues() {
    RobustBaseline b = new RobustBaseline(Signal.DISK_LATENCY, settings(3, 5, Duration.ofHours(1)));
    assertThat(b.band().defined()).isFalse();
    assertThat(b.firstTimestamp()).isEqualTo(RobustBaseline.NO_TIMESTAMP);
    assertThat(b.learn(T0, Double.NaN)).isFalse();
    assertThat(b.learn(T0, Double.POSITIVE_INFINITY)).isFalse();
    assertThat(b.learn(T0, Double.NEGATIVE_INFINITY)).isFalse();
    assertThat(b.observations()).isZero();
    b.learn(T0, 1);
    b.learn(T0, 2);
    assertThat(b.ready()).isFalse();
    b.learn(T0, 3);
    assertThat(b.ready()).isTrue();
    assertThat(b.observations()).isEqualTo(3);
  }

  @Test
  void snapshotRoundTripRestoresBandsAndContinuesIdentically() throws IOException {
    DetectorSettings s = settings(3, 7, Duration.ofHours(1));
    RobustBaseline original = new RobustBaseline(Signal.DISK_LATENCY, s);
    for (int i = 0; i < 11; i++) { // wraps the ring buffer
      original.learn(T0 + i * 10 * MINUTE, 10 + (i * 5) % 7);
    }
    RobustBaseline copy = roundTrip(original, s);
    assertThat(copy.band()).isEqualTo(original.band());
    assertThat(copy.observations()).isEqualTo(11);
    assertThat(copy.windowCount()).isEqualTo(7);
    assertThat(copy.firstTimestamp()).isEqualTo(original.firstTimestamp());
    assertThat(copy.lastTimestamp()).isEqualTo(original.lastTimestamp());
    for (int i = 11; i < 20; i++) {
      original.learn(T0 + i * 10 * MINUTE, 3 * i);
      copy.learn(T0 + i * 10 * MINUTE, 3 * i);
      assertThat(copy.band()).isEqualTo(original.band());
    }
  }

  @Test
  void snapshotIntoASmallerWindowKeepsTheNewest() throws IOException {
    DetectorSettings big = settings(3, 6, Duration.ofDays(3));
    DetectorSettings small = settings(3, 3, Duration.ofDays(3));
    RobustBaseline original = new RobustBaseline(Signal.DISK_LATENCY, big);
    RobustBaseline reference = new RobustBaseline(Signal.DISK_LATENCY, small);
    double[] values = {1, 2, 3, 50, 60, 70};
    for (int i = 0; i < values.length; i++) {
      original.learn(T0 + i, values[i]);
      reference.learn(T0 + i, values[i]);
    }
    RobustBaseline copy = roundTrip(original, big, small);
    // newest three: 50, 60, 70 -> median 60
    assertThat(copy.band()).isEqualTo(reference.band());
    assertThat(copy.band().expected()).isEqualTo(60.0);
    assertThat(copy.observations()).isEqualTo(6);
  }

  /** Version 1 had no clipped marks after the window: it reads, with none clipped. */
  @Test
  void aVersionOneSnapshotStillReads() throws IOException {
    DetectorSettings s = settings(3, 5, Duration.ofHours(1));
    RobustBaseline reference = new RobustBaseline(Signal.DISK_LATENCY, s);
    byte[] v1 = bytes(out -> {
      header(out, 5, 3, T0, T0 + 2, 3);
      for (int i = 0; i < 3; i++) {
        out.writeLong(T0 + i);
        out.writeDouble(10 + i);
        reference.learn(T0 + i, 10 + i);
      }
    });
    RobustBaseline copy = RobustBaseline.readFrom(
        new DataInputStream(new ByteArrayInputStream(v1)), Signal.DISK_LATENCY, s);
    assertThat(copy.band()).isEqualTo(reference.band());
    assertThat(copy.observations()).isEqualTo(3);
    assertThat(bytes(copy::writeTo)).isEqualTo(bytes(reference::writeTo));
  }

  /**
   * Version 2 wrote the window's values as doubles: they read as the floats nearest them, the
   * values learning them now keeps, and are written back as floats.
   */
  @Test
  void aVersionTwoSnapshotOfDoublesReadsAsTheNearestFloats() throws IOException {
    DetectorSettings s = settings(3, 5, Duration.ofHours(1));
    RobustBaseline reference = new RobustBaseline(Signal.DISK_LATENCY, s);
    double[] values = {10.1, 12.345678901, 11.7};
    byte[] v2 = bytes(out -> {
      out.writeByte(2);
      out.writeInt(5);
      out.writeInt(3);
      out.writeLong(T0);
      out.writeLong(T0 + 2);
      out.writeInt(3);
      for (int i = 0; i < 3; i++) {
        out.writeLong(T0 + i);
        out.writeDouble(values[i]);
        reference.learn(T0 + i, (float) values[i]);
      }
      out.writeBoolean(false);
    });
    RobustBaseline copy = RobustBaseline.readFrom(
        new DataInputStream(new ByteArrayInputStream(v2)), Signal.DISK_LATENCY, s);
    assertThat(copy.band()).isEqualTo(reference.band());
    assertThat(copy.band().expected()).isEqualTo((double) (float) 11.7);
    byte[] written = bytes(copy::writeTo);
    assertThat(written).isEqualTo(bytes(reference::writeTo));
    assertThat(written[0]).isEqualTo((byte) 3);
    assertThat(written).hasSize(v2.length - 3 * 4); // a float instead of a double per value
  }

  @Test
  void corruptSnapshotsFailWithIoException() {
    DetectorSettings s = settings(3, 5, Duration.ofHours(1));
    assertCorrupt(s, "version", out -> out.writeByte(9));
    assertCorrupt(s, "window size", out -> header(out, 0, 0, 0, 0, 0));
    assertCorrupt(s, "negative observation", out -> header(out, 5, -1, 0, 0, 0));
    assertCorrupt(s, "window count", out -> header(out, 5, 10, T0, T0, -2));
    assertCorrupt(s, "window count", out -> header(out, 5, 10, T0, T0, 6)); // count > window
    assertCorrupt(s, "does not match", out -> header(out, 5, 10, T0, T0, 3));
    assertCorrupt(s, "first timestamp", out -> header(out, 5, 1, T0 + 1, T0, 1));
    assertCorrupt(s, "not finite", out -> {
      header(out, 5, 1, T0, T0, 1);
      out.writeLong(T0);
      out.writeDouble(Double.NaN);
    });
    assertCorrupt(s, "outside [first, last]", out -> {
      header(out, 5, 1, T0, T0, 1);
      out.writeLong(T0 + 1);
      out.writeDouble(1);
    });
    // truncated: header promises one observation, stream ends
    assertCorrupt(s, "truncated", out -> header(out, 5, 1, T0, T0, 1));
  }

  interface Writer {
    void write(DataOutputStream out) throws IOException;
  }

  static void header(DataOutputStream out, int window, int obs, long first, long last, int count)
      throws IOException {
    out.writeByte(1);
    out.writeInt(window);
    out.writeInt(obs);
    out.writeLong(first);
    out.writeLong(last);
    out.writeInt(count);
  }

  static void assertCorrupt(DetectorSettings s, String message, Writer w) {
    byte[] bytes = bytes(w);
    assertThatThrownBy(() -> RobustBaseline.readFrom(
            new DataInputStream(new ByteArrayInputStream(bytes)), Signal.DISK_LATENCY, s))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(message);
  }

  static byte[] bytes(Writer w) {
    try {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(buf);
      w.write(out);
      out.flush();
      return buf.toByteArray();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static RobustBaseline roundTrip(RobustBaseline b, DetectorSettings s) throws IOException {
    return roundTrip(b, s, s);
  }

  static RobustBaseline roundTrip(RobustBaseline b, DetectorSettings written, DetectorSettings read)
      throws IOException {
    byte[] bytes = bytes(b::writeTo);
    return RobustBaseline.readFrom(
        new DataInputStream(new ByteArrayInputStream(bytes)), Signal.DISK_LATENCY, read);
  }
}
