package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import org.junit.jupiter.api.Test;

class DailyEnvelopeTest {
  static final long HOUR = 3_600_000L;
  static final long DAY = 24 * HOUR;
  static final long T0 = 1_796_000_000_000L - Math.floorMod(1_796_000_000_000L, DAY); // midnight

  @Test
  void yesterdaysSameHourWithinAnHourExplainsAValue() {
    DailyEnvelope e = new DailyEnvelope();
    e.record(T0 + 20 * HOUR + 5 * 60_000, 900); // yesterday 20:05
    e.record(T0 + 21 * HOUR, 1000); // yesterday 21:00
    long today2130 = T0 + DAY + 21 * HOUR + 30 * 60_000;
    // Yesterday's hours 20..22 reached 1000; slack 50.
    assertThat(e.explains(today2130, 1040, +1, 50)).isTrue();
    assertThat(e.explains(today2130, 1060, +1, 50)).isFalse();
    // Below: yesterday's minimum in those hours was 900.
    assertThat(e.explains(today2130, 860, -1, 50)).isTrue();
    assertThat(e.explains(today2130, 840, -1, 50)).isFalse();
    // Nothing recorded yesterday around 03:00: nothing is explained.
    assertThat(e.explains(T0 + DAY + 3 * HOUR, 1, +1, 50)).isFalse();
  }

  @Test
  void aSlotFromTwoDaysAgoIsNotYesterday() {
    DailyEnvelope e = new DailyEnvelope();
    e.record(T0 + 10 * HOUR, 5000);
    // Two days later the slot (hour mod 48) is the same, but its stamp is two days old.
    assertThat(e.explains(T0 + 2 * DAY + 10 * HOUR, 100, +1, 0)).isFalse();
    assertThat(e.explains(T0 + DAY + 10 * HOUR, 100, +1, 0)).isTrue();
  }

  @Test
  void eveningPeaksOfADailyCycleStopOpeningAnomaliesOnceADayIsKnownButAFaultStillOpens()
      throws Exception {
    DetectorSettings s = DetectorSettings.defaults();
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, s);
    // One checkpoint every 10 min: 1000 ms, except 1800 ms between 20:00 and 22:00 each day.
    int opened = 0;
    int openedOnDay2 = 0;
    for (long ts = T0; ts < T0 + 2 * DAY; ts += 10 * 60_000) {
      long hour = Math.floorMod(ts, DAY) / HOUR;
      double v = hour >= 20 && hour < 22 ? 1800 : 1000 + (ts / 600_000 % 3) * 10;
      SignalTracker.Step step = t.observe(ts, v);
      if (step.transition() == SignalTracker.Transition.OPENED) {
        opened++;
        openedOnDay2 += ts >= T0 + DAY ? 1 : 0;
      }
    }
    // Day 1's evening is news (the baseline had only seen 1000 ms); day 2's is the cycle.
    assertThat(opened).isEqualTo(1);
    assertThat(openedOnDay2).isZero();

    // Snapshot round trip keeps the envelope: day 3's evening is still explained ...
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    t.writeTo(new DataOutputStream(bytes));
    SignalTracker restored = SignalTracker.readFrom(
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
        Signal.CHECKPOINT_DURATION, s);
    long evening3 = T0 + 2 * DAY + 20 * HOUR;
    for (int i = 0; i < 6; i++) {
      assertThat(restored.observe(evening3 + i * 600_000L, 1800).transition())
          .isEqualTo(SignalTracker.Transition.NONE);
    }
    // ... but 3x yesterday's peak is not the cycle.
    SignalTracker.Transition last = SignalTracker.Transition.NONE;
    for (int i = 6; i < 9; i++) {
      last = restored.observe(evening3 + i * 600_000L, 5400).transition();
    }
    assertThat(last).isEqualTo(SignalTracker.Transition.OPENED);
  }
}
