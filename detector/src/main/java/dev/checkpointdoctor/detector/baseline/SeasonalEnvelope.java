package dev.checkpointdoctor.detector.baseline;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The range a signal covered in each UTC hour of the last eight days. Jobs follow their load:
 * checkpoints grow every evening and shrink every weekend. A value that the same hour of one of
 * the last seven days (give or take an hour) already reached is that cycle, not a fault, even
 * when the rolling baseline has drifted lower since. Seven days rather than yesterday alone, so
 * Monday morning is explained by Friday's, and the weekend by last weekend's.
 *
 * <p>Hour {@code h} (hours since the epoch) is remembered when {@code newestHour - 192 < h <=
 * newestHour}; an hour that fell out of that range is empty. Floats (a float's 24-bit precision
 * is plenty for "did it go this far"). Every tracked series has an envelope, and a full one held
 * 192 hours of two floats (1.5 KB), so only the newest hour, which every observation widens, is
 * kept as two floats; the completed hours are packed ({@link HourRanges}: a repeated range takes
 * a few bits, a noisy one about ten bits a value, each min rounded down and each max up to 13
 * significant bits). The rounding widens a completed hour by at most 1/4096 of its value: it
 * may explain a value that exceeded the hour by less than that beyond the slack, and not
 * accuse one by as little; the slack is at least a twentieth of the value.
 *
 * <p>The questions ({@link #explains}, {@link #accuses}) look at the same hours of earlier days,
 * which are all completed hours; they are asked for every observation, and their answer depends
 * only on the current hour, so the ranges those hours span are kept for the last hour asked
 * ({@code asked}): the packed hours are unpacked once per hour of event time, and a question
 * is one comparison. The kept maxima and minima are of floats, and a float's max plus the slack
 * compares as the largest of the floats plus the slack would: the answers are the ones a scan of
 * the hours gives, bit for bit.
 */
final class SeasonalEnvelope {
  static final long HOUR_MS = 3_600_000L;
  static final int SLOTS = 8 * 24;
  /** How many days back an hour may be explained from. */
  static final int DAYS = 7;
  private static final int NOT_ASKED = Integer.MIN_VALUE;
  /** Bits of {@code asked} that count the days: at most 7. */
  private static final int DAY_BITS = 3;
  /** Hours whose answers are kept: any hour within 30,000 years of 1970. */
  private static final int ASKED_LIMIT = 1 << (31 - DAY_BITS);

  private int newestHour = Integer.MIN_VALUE;
  private int levelSinceHour = Integer.MIN_VALUE; // hours before it do not accuse
  // the newest hour's range; NaN while it is empty
  private float newestLo = Float.NaN;
  private float newestHi = Float.NaN;
  // the remembered hours before the newest, packed (HourRanges)
  private byte[] completed = HourRanges.EMPTY;
  // for the hour asked: the ranges of the same hours of the last seven days, all of them
  // (explains) and those since the level change (accuses); how many days of the latter had an
  // hour is in asked's low bits: one int, not an int and a byte, keeps the object at 56 bytes
  private int asked = NOT_ASKED; // hour x 8 + days, or NOT_ASKED
  private float explainLo;
  private float explainHi;
  private float accuseLo;
  private float accuseHi;
  private float formerHi; // the highest of the hours before the level change

  SeasonalEnvelope() {}

  /** Remembers a value seen while it was normal; values older than the ring holds are ignored. */
  void record(long tsMs, double value) {
    int h = (int) Math.floorDiv(tsMs, HOUR_MS);
    float v = (float) value;
    if (newestHour == Integer.MIN_VALUE) {
      newestHour = h;
    } else if (h > newestHour) {
      advanceTo(h);
    } else if (h <= newestHour - SLOTS) {
      return;
    } else if (h < newestHour) {
      widenCompleted(h, v, v);
      return;
    }
    if (Float.isNaN(newestLo)) {
      newestLo = v;
      newestHi = v;
    } else {
      newestLo = Math.min(newestLo, v);
      newestHi = Math.max(newestHi, v);
    }
    forgetAnswersAbout(h);
  }

  /**
   * Makes {@code h}, newer than the newest hour, the newest: the newest hour's range joins the
   * completed ones, and hours out of range are dropped.
   */
  private void advanceTo(int h) {
    HourRanges.Unpacked u = HourRanges.unpack(completed, newestHour);
    if (!Float.isNaN(newestLo)) {
      u.add(newestHour, newestLo, newestHi);
    }
    u.dropUpTo(h - SLOTS);
    completed = HourRanges.pack(u, h);
    newestHour = h;
    newestLo = Float.NaN;
    newestHi = Float.NaN;
    asked = NOT_ASKED;
  }

  /** Widens hour {@code h}, a completed hour within range, to {@code lo} and {@code hi}. */
  private void widenCompleted(int h, float lo, float hi) {
    HourRanges.Unpacked u = HourRanges.unpack(completed, newestHour);
    if (u.widen(h, lo, hi)) {
      completed = HourRanges.pack(u, newestHour);
      forgetAnswersAbout(h);
    }
  }

  /** Forgets the kept answers when hour {@code h} is one they looked at. */
  private void forgetAnswersAbout(int h) {
    int askedHour = asked >> DAY_BITS;
    if (asked != NOT_ASKED && (long) h >= (long) askedHour - 24 * DAYS - 1
        && (long) h <= (long) askedHour - 23) {
      asked = NOT_ASKED;
    }
  }

  /**
   * Keeps the answers' ranges for hour {@code now}: hours within one of 24 x day, day 1..7.
   *
   * @return how many of those days since the level change had an hour
   */
  private int ask(int now) {
    if (asked != NOT_ASKED && asked >> DAY_BITS == now) {
      return asked & ((1 << DAY_BITS) - 1);
    }
    float eLo = Float.POSITIVE_INFINITY;
    float eHi = Float.NEGATIVE_INFINITY;
    float aLo = Float.POSITIVE_INFINITY;
    float aHi = Float.NEGATIVE_INFINITY;
    float fHi = Float.NEGATIVE_INFINITY;
    int days = 0; // a bit per day
    HourRanges.Unpacked u = HourRanges.unpack(completed, newestHour);
    for (int i = 0; i <= u.size; i++) {
      int h;
      float lo;
      float hi;
      if (i < u.size) {
        h = u.hours[i];
        lo = u.lows[i];
        hi = u.highs[i];
      } else if (!Float.isNaN(newestLo)) {
        h = newestHour;
        lo = newestLo;
        hi = newestHi;
      } else {
        break;
      }
      long back = (long) now - h;
      long day = (back + 1) / 24; // the day whose hours (24 x day +- 1) back may hold it
      if (back < 23 || day < 1 || day > DAYS || Math.abs(back - 24 * day) > 1) {
        continue;
      }
      eLo = Math.min(eLo, lo);
      eHi = Math.max(eHi, hi);
      if (h >= levelSinceHour) {
        aLo = Math.min(aLo, lo);
        aHi = Math.max(aHi, hi);
        days |= 1 << day;
      } else {
        fHi = Math.max(fHi, hi);
      }
    }
    explainLo = eLo;
    explainHi = eHi;
    accuseLo = aLo;
    accuseHi = aHi;
    formerHi = fHi;
    int counted = Integer.bitCount(days);
    // an hour beyond what the int holds with the days is answered afresh each time it is asked
    asked = now > -ASKED_LIMIT && now < ASKED_LIMIT ? now << DAY_BITS | counted : NOT_ASKED;
    return counted;
  }

  /**
   * Whether on one of the last seven days, within an hour of this time of day, the signal already
   * went at least as far as {@code value} on {@code side} (+1 above the band, -1 below), allowing
   * {@code slack}.
   */
  boolean explains(long tsMs, double value, int side, double slack) {
    if (newestHour == Integer.MIN_VALUE) {
      return false;
    }
    ask((int) Math.floorDiv(tsMs, HOUR_MS));
    // with no hour, -Inf + slack and +Inf - slack explain nothing (NaN for an infinite slack)
    return side > 0 ? value <= explainHi + slack : value >= explainLo - slack;
  }

  /**
   * Whether on one of the last seven days, within an hour of this time of day, the signal already
   * went as high as {@code value}, allowing {@code slack}, with the hours before the last level
   * change ({@link #levelChangedAt}) raised by {@code formerScale}: after a redeploy that
   * settled the level higher, the old days still tell how far this hour of the week rises,
   * at the old level. With a scale of 1 this is {@link #explains} above the band.
   */
  boolean reachedAbove(long tsMs, double value, double formerScale, double slack) {
    if (newestHour == Integer.MIN_VALUE) {
      return false;
    }
    ask((int) Math.floorDiv(tsMs, HOUR_MS));
    return value <= accuseHi + slack || value <= formerHi * formerScale + slack;
  }

  /**
   * Whether the value lies beyond everything the last seven days did within an hour of this time
   * of day, by more than {@code slack}: +1 above, -1 below, 0 otherwise. Only days after the last
   * level change count ({@link #levelChangedAt}), and at least {@code minDays} of them must have
   * been seen at this time of day: until then the week does not know what is usual here.
   */
  int accuses(long tsMs, double value, double slack, int minDays) {
    if (newestHour == Integer.MIN_VALUE) {
      return 0;
    }
    if (ask((int) Math.floorDiv(tsMs, HOUR_MS)) < minDays) {
      return 0;
    }
    double hi = accuseHi;
    double lo = accuseLo;
    return value > hi + slack ? 1 : value < lo - slack ? -1 : 0;
  }

  /**
   * The signal moved to a new level at {@code tsMs}: the hours before it still explain values
   * (a return to the old level is no surprise), but no longer accuse them.
   */
  void levelChangedAt(long tsMs) {
    levelSinceHour = (int) Math.floorDiv(tsMs, HOUR_MS);
    asked = NOT_ASKED;
  }

  /** Bytes the completed hours take packed (without the array's header). For tests. */
  int packedBytes() {
    return completed.length;
  }

  // ---------------------------------------------------------------- snapshot

  /** Writes {@code e}; null (nothing recorded yet) is written as an empty envelope. */
  static void writeTo(SeasonalEnvelope e, DataOutput out) throws IOException {
    HourRanges.Unpacked u = e == null ? null : e.allHours();
    int used = u == null ? 0 : u.size;
    out.writeShort(used);
    if (used == 0) {
      return;
    }
    out.writeInt(e.newestHour);
    out.writeInt(e.levelSinceHour);
    // oldest hour first, as the ring of 192 slots wrote them: by slot, which is hour mod 192
    Integer[] bySlot = new Integer[used];
    for (int i = 0; i < used; i++) {
      bySlot[i] = i;
    }
    int[] hours = u.hours;
    Arrays.sort(bySlot, java.util.Comparator.comparingInt(i -> Math.floorMod(hours[i], SLOTS)));
    for (int i : bySlot) {
      out.writeInt(u.hours[i]);
      out.writeFloat(u.lows[i]);
      out.writeFloat(u.highs[i]);
    }
  }

  /** Every remembered hour, the newest included, oldest first (in the per-thread scratch). */
  private HourRanges.Unpacked allHours() {
    HourRanges.Unpacked u = HourRanges.unpack(completed, newestHour);
    if (!Float.isNaN(newestLo)) {
      u.add(newestHour, newestLo, newestHi);
    }
    return u;
  }

  /**
   * Sets the remembered hours to {@code hours} (within range of the newest hour, any order, an
   * hour more than once widening it), packed once.
   */
  private void setHours(int[] hours, float[] lows, float[] highs, int n) {
    Integer[] byHour = new Integer[n];
    for (int i = 0; i < n; i++) {
      byHour[i] = i;
    }
    Arrays.sort(byHour, java.util.Comparator.comparingInt(i -> hours[i]));
    HourRanges.Unpacked u = HourRanges.unpack(HourRanges.EMPTY, newestHour);
    for (int i : byHour) {
      if (hours[i] == newestHour) {
        newestLo = Float.isNaN(newestLo) ? lows[i] : Math.min(newestLo, lows[i]);
        newestHi = Float.isNaN(newestHi) ? highs[i] : Math.max(newestHi, highs[i]);
      } else if (u.size > 0 && u.hours[u.size - 1] == hours[i]) {
        u.widen(hours[i], lows[i], highs[i]);
      } else {
        u.add(hours[i], lows[i], highs[i]);
      }
    }
    completed = HourRanges.pack(u, newestHour);
    asked = NOT_ASKED;
  }

  /** Reads an envelope written by {@link #writeTo}; null when it is empty. */
  static SeasonalEnvelope readFrom(DataInput in) throws IOException {
    int used = in.readUnsignedShort();
    if (used > SLOTS) {
      throw new IOException("seasonal envelope snapshot has " + used + " slots, at most " + SLOTS);
    }
    if (used == 0) {
      return null;
    }
    SeasonalEnvelope e = new SeasonalEnvelope();
    e.newestHour = in.readInt();
    e.levelSinceHour = in.readInt();
    int[] hours = new int[used];
    float[] lows = new float[used];
    float[] highs = new float[used];
    for (int i = 0; i < used; i++) {
      hours[i] = in.readInt();
      lows[i] = in.readFloat();
      highs[i] = in.readFloat();
      checkRange(lows[i], highs[i]);
      if (hours[i] > e.newestHour || hours[i] <= e.newestHour - SLOTS) {
        throw new IOException("seasonal envelope snapshot hour " + hours[i]
            + " is outside its ring");
      }
    }
    e.setHours(hours, lows, highs, used);
    return e;
  }

  /**
   * Reads the daily envelope of tracker snapshots before version 3 (48 slots, each with its
   * hour): its two days become the newest two of the ring.
   */
  static SeasonalEnvelope readDaily(DataInput in) throws IOException {
    int used = in.readUnsignedByte();
    if (used > 48) {
      throw new IOException("daily envelope snapshot has " + used + " slots, at most 48");
    }
    if (used == 0) {
      return null;
    }
    int[] hours = new int[used];
    float[] lows = new float[used];
    float[] highs = new float[used];
    for (int i = 0; i < used; i++) {
      hours[i] = in.readInt();
      lows[i] = in.readFloat();
      highs[i] = in.readFloat();
      checkRange(lows[i], highs[i]);
    }
    SeasonalEnvelope e = new SeasonalEnvelope();
    int newest = Arrays.stream(hours).max().getAsInt();
    e.newestHour = newest;
    int kept = 0;
    for (int i = 0; i < used; i++) {
      if (hours[i] > newest - SLOTS) {
        hours[kept] = hours[i];
        lows[kept] = lows[i];
        highs[kept++] = highs[i];
      }
    }
    e.setHours(hours, lows, highs, kept);
    return e;
  }

  private static void checkRange(float lo, float hi) throws IOException {
    if (!(lo <= hi) || !Float.isFinite(lo) || !Float.isFinite(hi)) {
      throw new IOException("seasonal envelope snapshot has an invalid range [" + lo + ", " + hi
          + "]");
    }
  }
}
