package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SeasonalEnvelopeTest {
  static final long HOUR = 3_600_000L;
  static final long DAY = 24 * HOUR;
  static final long T0 = 1_796_000_000_000L - Math.floorMod(1_796_000_000_000L, DAY); // midnight

  @Test
  void theRingGrownOnDemandAnswersAsEightDaysOfHoursDo() throws Exception {
    answersAsEightDaysOfHoursDo(T0);
  }

  @Test
  void answersTheSameWhereTheAnswersOfAnHourAreNotKept() throws Exception {
    // the kept answers share an int with their hour, which holds hours within 2^28 of 1970;
    // beyond, and before 1970, every question is answered afresh and must answer the same
    long far = (1L << 28) * HOUR;
    answersAsEightDaysOfHoursDo(far - 100 * DAY);
    answersAsEightDaysOfHoursDo(-far - 10 * DAY);
    answersAsEightDaysOfHoursDo(-T0);
  }

  private static void answersAsEightDaysOfHoursDo(long base) throws Exception {
    // a model of the definition (every hour within 192 of the newest is remembered) against the
    // ring that holds only the hours it needs: jumps forward and back, gaps past eight days
    Random r = new Random(19);
    for (int run = 0; run < 40; run++) {
      SeasonalEnvelope e = new SeasonalEnvelope();
      TreeMap<Integer, float[]> model = new TreeMap<>();
      int newest = Integer.MIN_VALUE;
      int levelSince = Integer.MIN_VALUE;
      long t = base + r.nextInt(1000) * HOUR;
      for (int i = 0; i < 600; i++) {
        int kind = r.nextInt(30);
        t += kind == 0 ? (r.nextInt(300) - 100) * HOUR : kind < 4 ? -r.nextInt(50) * HOUR
            : r.nextInt(20) * 60_000L;
        float v = r.nextInt(100);
        e.record(t, v);
        int h = (int) Math.floorDiv(t, HOUR);
        if (newest == Integer.MIN_VALUE || h > newest) {
          newest = h;
          model.headMap(newest - SeasonalEnvelope.SLOTS, true).clear();
        }
        if (h > newest - SeasonalEnvelope.SLOTS) {
          model.merge(h, new float[] {v, v},
              (a, b) -> new float[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
        }
        if (i % 5 == 0) {
          if (r.nextInt(10) == 0) {
            long at = t - r.nextInt(100) * HOUR;
            e.levelChangedAt(at);
            levelSince = (int) Math.floorDiv(at, HOUR);
          }
          // the same hour asked again and again (its answers are kept), and other hours
          long q = r.nextInt(3) > 0 ? t : t + (r.nextInt(60) - 20) * HOUR;
          for (int ask = 0; ask < 3; ask++) {
            double value = r.nextInt(140) - 20;
            int side = r.nextBoolean() ? 1 : -1;
            assertThat(e.explains(q, value, side, 3)).as("run %d step %d", run, i)
                .isEqualTo(modelExplains(model, newest, q, value, side, 3));
            int minDays = 1 + r.nextInt(3);
            assertThat(e.accuses(q, value, 3, minDays)).as("run %d step %d", run, i)
                .isEqualTo(modelAccuses(model, newest, levelSince, q, value, 3, minDays));
          }
        }
        if (i % 97 == 0) {
          ByteArrayOutputStream bytes = new ByteArrayOutputStream();
          SeasonalEnvelope.writeTo(e, new DataOutputStream(bytes));
          SeasonalEnvelope back = SeasonalEnvelope.readFrom(
              new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
          ByteArrayOutputStream again = new ByteArrayOutputStream();
          SeasonalEnvelope.writeTo(back, new DataOutputStream(again));
          assertThat(again.toByteArray()).isEqualTo(bytes.toByteArray());
          // written as the 192-slot ring wrote it: the hours in the order of their slots
          java.io.DataInputStream in =
              new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
          int used = in.readUnsignedShort();
          assertThat(used).isEqualTo(model.size());
          if (used > 0) {
            in.readInt();
            in.readInt();
            int previousSlot = -1;
            for (int k = 0; k < used; k++) {
              int hour = in.readInt();
              float[] range = model.get(hour);
              assertThat(range).isNotNull();
              assertThat(new float[] {in.readFloat(), in.readFloat()}).isEqualTo(range);
              int slot = Math.floorMod(hour, SeasonalEnvelope.SLOTS);
              assertThat(slot).isGreaterThan(previousSlot);
              previousSlot = slot;
            }
          }
        }
      }
    }
  }

  private static boolean modelExplains(TreeMap<Integer, float[]> model, int newest, long q,
      double value, int side, double slack) {
    int now = (int) Math.floorDiv(q, HOUR);
    for (int day = 1; day <= SeasonalEnvelope.DAYS; day++) {
      for (int h = now - 24 * day - 1; h <= now - 24 * day + 1; h++) {
        float[] range = h > newest ? null : model.get(h);
        if (range != null && (side > 0 ? value <= range[1] + slack : value >= range[0] - slack)) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@link SeasonalEnvelope#accuses} by its definition, a scan of the model's hours. */
  private static int modelAccuses(TreeMap<Integer, float[]> model, int newest, int levelSince,
      long q, double value, double slack, int minDays) {
    int now = (int) Math.floorDiv(q, HOUR);
    int days = 0;
    double hi = Double.NEGATIVE_INFINITY;
    double lo = Double.POSITIVE_INFINITY;
    for (int day = 1; day <= SeasonalEnvelope.DAYS; day++) {
      boolean seen = false;
      for (int h = now - 24 * day - 1; h <= now - 24 * day + 1; h++) {
        float[] range = h > newest || h < levelSince ? null : model.get(h);
        if (range != null) {
          seen = true;
          hi = Math.max(hi, range[1]);
          lo = Math.min(lo, range[0]);
        }
      }
      days += seen ? 1 : 0;
    }
    if (days < minDays) {
      return 0;
    }
    return value > hi + slack ? 1 : value < lo - slack ? -1 : 0;
  }

  @Test
  void eightDaysOfARepeatingRangeTakeAFewBitsAnHourNotTwoFloats() {
    // every series has an envelope: a full one took 192 x 2 floats (1.5 KB) wherever its values
    // went; hours that repeat the range before take a few bits each
    SeasonalEnvelope e = new SeasonalEnvelope();
    for (long t = T0; t < T0 + 8 * DAY; t += 15 * 60_000L) {
      e.record(t, 100 + (t / (15 * 60_000L)) % 3 * 10);
    }
    assertThat(e.packedBytes()).isLessThan(100);
    assertThat(e.explains(T0 + 8 * DAY + 5 * HOUR, 120, +1, 0)).isTrue();
    assertThat(e.explains(T0 + 8 * DAY + 5 * HOUR, 121, +1, 0)).isFalse();
    assertThat(e.accuses(T0 + 8 * DAY + 5 * HOUR, 99, 0, 7)).isEqualTo(-1);
  }

  @Test
  void yesterdaysSameHourWithinAnHourExplainsAValue() {
    SeasonalEnvelope e = new SeasonalEnvelope();
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
  void anyOfTheLastSevenDaysExplainsButAnHourEightDaysAgoIsForgotten() {
    SeasonalEnvelope e = new SeasonalEnvelope();
    e.record(T0 + 10 * HOUR, 5000); // day 0, 10:00
    e.record(T0 + 6 * DAY + 12 * HOUR, 1); // the ring's newest hour: day 6
    for (int day = 1; day <= 7; day++) {
      assertThat(e.explains(T0 + day * DAY + 10 * HOUR, 4000, +1, 0)).as("day %d", day).isTrue();
    }
    // the same hour of the same day does not explain itself, eight days later nothing does
    assertThat(e.explains(T0 + 10 * HOUR, 4000, +1, 0)).isFalse();
    assertThat(e.explains(T0 + 8 * DAY + 10 * HOUR, 4000, +1, 0)).isFalse();
    // once the ring moved 8 days past it, the slot is empty even for a day-1 question
    e.record(T0 + 8 * DAY + 11 * HOUR, 1);
    assertThat(e.explains(T0 + DAY + 10 * HOUR, 4000, +1, 0)).isFalse();
  }

  @Test
  void mondayMorningIsExplainedByFridayAfterAQuietWeekend() {
    SeasonalEnvelope e = new SeasonalEnvelope();
    long friday = T0 + 4 * DAY;
    e.record(friday + 9 * HOUR, 1000); // weekday load
    e.record(friday + DAY + 9 * HOUR, 300); // Saturday
    e.record(friday + 2 * DAY + 9 * HOUR, 300); // Sunday
    assertThat(e.explains(friday + 3 * DAY + 9 * HOUR, 1000, +1, 0)).isTrue();
    assertThat(e.explains(friday + 3 * DAY + 9 * HOUR, 1500, +1, 0)).isFalse();
  }

  @Test
  void aValueBeyondEverySameHourOfTheWeekIsAccusedOnceThreeDaysAreKnown() {
    SeasonalEnvelope e = new SeasonalEnvelope();
    // 03:00 is quiet (100..120), 20:00 busy (900) on days 0 and 1
    for (int day = 0; day < 2; day++) {
      e.record(T0 + day * DAY + 3 * HOUR, 100);
      e.record(T0 + day * DAY + 3 * HOUR + 60_000, 120);
      e.record(T0 + day * DAY + 20 * HOUR, 900);
    }
    long day2 = T0 + 2 * DAY + 3 * HOUR;
    assertThat(e.accuses(day2, 500, 50, 2)).isEqualTo(1);
    assertThat(e.accuses(day2, 500, 50, 3)).isZero(); // two days are not enough
    assertThat(e.accuses(day2, 160, 50, 2)).isZero(); // within the slack of 120
    assertThat(e.accuses(day2, 20, 50, 2)).isEqualTo(-1);
    // a level change: the days before it explain but no longer accuse
    e.levelChangedAt(T0 + 2 * DAY);
    assertThat(e.accuses(day2, 500, 50, 1)).isZero();
    assertThat(e.explains(day2, 110, +1, 0)).isTrue();
  }

  @Test
  void daysBeforeALevelChangeReachAValueAtTheNewLevelWhenRaisedByIt() {
    SeasonalEnvelope e = new SeasonalEnvelope();
    // Mondays peak at 1,000 by 10:00 at the old level; the redeploy on day 6 settles 40 % higher
    for (int day = 0; day < 6; day++) {
      e.record(T0 + day * DAY + 10 * HOUR, day == 0 ? 1_000 : 800);
    }
    e.levelChangedAt(T0 + 6 * DAY);
    e.record(T0 + 6 * DAY + 10 * HOUR, 1_120); // the new level's first day, a quiet one
    long monday = T0 + 7 * DAY + 10 * HOUR;
    assertThat(e.reachedAbove(monday, 1_380, 1, 0)).isFalse(); // as explains: beyond 1,120
    assertThat(e.explains(monday, 1_380, +1, 0)).isFalse();
    assertThat(e.reachedAbove(monday, 1_380, 1.4, 0)).isTrue(); // the old Monday at 1.4 x: 1,400
    assertThat(e.reachedAbove(monday, 1_450, 1.4, 0)).isFalse();
    assertThat(e.reachedAbove(monday, 1_100, 1, 0)).isTrue(); // the new level's own day
  }

  @Test
  void snapshotKeepsTheRingAndTheLevelChange() throws Exception {
    SeasonalEnvelope e = new SeasonalEnvelope();
    for (int day = 0; day < 3; day++) {
      e.record(T0 + day * DAY + 5 * HOUR, 10 + day);
    }
    e.levelChangedAt(T0 + DAY);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SeasonalEnvelope.writeTo(e, new DataOutputStream(bytes));
    SeasonalEnvelope back = SeasonalEnvelope.readFrom(
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    long day3 = T0 + 3 * DAY + 5 * HOUR;
    assertThat(back.explains(day3, 10, -1, 0)).isTrue();
    assertThat(back.accuses(day3, 30, 1, 2)).isEqualTo(1);
    assertThat(back.accuses(day3, 30, 1, 3)).isZero(); // day 0 is before the level change
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
