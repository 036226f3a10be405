package dev.checkpointdoctor.detector.trend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HourlyHistoryTest {
  static final long H = HourlyHistory.HOUR_MS;
  static final long T0 = 1_796_000_000_000L / H * H; // a whole hour

  /** A raw history that keeps everything (the real one keeps two hours). */
  static final class Raw implements SeriesHistory {
    final List<long[]> times = new ArrayList<>();
    final List<Double> values = new ArrayList<>();

    void add(long t, double v) {
      times.add(new long[] {t});
      values.add(v);
    }

    @Override
    public Signal signal() {
      return Signal.CHECKPOINT_DURATION;
    }

    @Override
    public String scope() {
      return "job";
    }

    @Override
    public int size() {
      return values.size();
    }

    @Override
    public long timeMs(int i) {
      return times.get(i)[0];
    }

    @Override
    public double value(int i) {
      return values.get(i);
    }
  }

  static void feed(HourlyHistory h, Raw raw, long t, double v) {
    h.observe(t, v, raw);
    raw.add(t, v);
  }

  @Test
  void summarisesEachHourWhenTheNextBegins() {
    HourlyHistory h = new HourlyHistory();
    Raw raw = new Raw();
    // hour 0: 1..5 (median 3), hour 1: nothing, hour 2: 10, 30, 20
    for (int i = 1; i <= 5; i++) {
      feed(h, raw, T0 + i * 60_000L, i);
    }
    feed(h, raw, T0 + 2 * H + 1, 10);
    assertThat(h.hours()).isEqualTo(2);
    feed(h, raw, T0 + 2 * H + 2, 30);
    feed(h, raw, T0 + 2 * H + 3, 20);
    assertThat(h.openHourStartMs()).isEqualTo(T0 + 2 * H);
    assertThat(h.openCount()).isEqualTo(3);
    feed(h, raw, T0 + 3 * H, 7);
    assertThat(h.hours()).isEqualTo(3);
    assertThat(h.hourStartMs(0)).isEqualTo(T0);
    assertThat(h.count(0)).isEqualTo(5);
    assertThat(h.median(0)).isEqualTo(3);
    assertThat(h.min(0)).isEqualTo(1);
    assertThat(h.max(0)).isEqualTo(5);
    assertThat(h.last(0)).isEqualTo(5);
    assertThat(h.count(1)).isZero();
    assertThat(h.median(1)).isNaN();
    assertThat(h.median(2)).isEqualTo(20);
    assertThat(h.last(2)).isEqualTo(20);
    assertThat(h.max(2)).isEqualTo(30);
    assertThat(h.firstHourStartMs()).isEqualTo(T0);
  }

  @Test
  void keepsFourteenDaysInBoundedMemory() {
    HourlyHistory h = new HourlyHistory();
    Raw raw = new Raw();
    assertThat(h.retainedBytes()).isZero();
    for (long t = T0; t < T0 + 20 * 24 * H; t += 10 * 60_000L) {
      h.observe(t, t / (double) H, null); // no raw: medians unknown, counts exact
    }
    assertThat(h.hours()).isEqualTo(HourlyHistory.HOURS);
    assertThat(h.hourStartMs(HourlyHistory.HOURS - 1)).isEqualTo(T0 + (20 * 24 - 2) * H);
    assertThat(h.count(0)).isEqualTo(6);
    assertThat(h.retainedBytes()).isEqualTo(6_720);
    assertThat(raw.size()).isZero();
  }

  @Test
  void roundTripsThroughItsSerialisedForm() throws Exception {
    HourlyHistory h = new HourlyHistory();
    Raw raw = new Raw();
    for (long t = T0; t < T0 + 30 * H + 20 * 60_000L; t += 7 * 60_000L) {
      feed(h, raw, t, 1000 + (t - T0) / 60_000.0);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    h.writeTo(new DataOutputStream(bytes));
    assertThat(bytes.size()).isEqualTo(48 + 30 * HourlyHistory.BYTES_PER_HOUR);
    HourlyHistory back = HourlyHistory.readFrom(
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertThat(back.hours()).isEqualTo(h.hours());
    for (int i = 0; i < h.hours(); i++) {
      assertThat(back.hourStartMs(i)).isEqualTo(h.hourStartMs(i));
      assertThat(back.median(i)).isEqualTo(h.median(i));
      assertThat(back.count(i)).isEqualTo(h.count(i));
    }
    // both go on identically
    long t = T0 + 31 * H;
    feed(h, raw, t, 5);
    back.observe(t, 5, raw);
    assertThat(back.hours()).isEqualTo(h.hours());
    assertThat(back.median(back.hours() - 1)).isEqualTo(h.median(h.hours() - 1));
    assertThat(back.count(back.hours() - 1)).isEqualTo(h.count(h.hours() - 1));
  }
}
