package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.SignalExtractor.NONE;

import java.util.ArrayList;

/**
 * Gathers values that several series of one thing report at the same timestamp (a disk's four
 * latency counters, a container's two CFS counters, a TaskManager's GC collectors or heap used
 * and max), however their samples interleave, and hands each complete timestamp on in time
 * order. A timestamp is given up once a member it still needs has moved past it (so that
 * member's value will never come) or ended, or when the newest member is more than the delivery
 * lag past it.
 *
 * <p>Members are numbered 0..31. With a fixed set, a timestamp needs all of them; otherwise it
 * needs every member seen and not ended.
 */
final class PartsAtTime {
  /** One timestamp being gathered. */
  static final class Slot {
    long ts;
    /** The previous sample's timestamp every part was a difference over; must agree. */
    long prevTs;
    int mask;
    /** A part could not be used (first sample, counter reset, misaligned intervals). */
    boolean bad;
    final double[] values;

    Slot(int members) {
      values = new double[members];
    }
  }

  interface Done {
    void complete(Slot slot);
  }

  private static final int MAX_SLOTS = 64;

  private final int members;
  private final int fixed;
  private final long maxLagMs;
  private final long[] lastTs;
  private final ArrayList<Slot> slots = new ArrayList<>(2);
  private int seen;
  private int live;
  private long newest = NONE;

  /** {@code fixedMask} 0: needs whichever members are live. */
  PartsAtTime(int members, int fixedMask, long maxLagMs) {
    this.members = members;
    this.fixed = fixedMask;
    this.maxLagMs = maxLagMs;
    this.lastTs = new long[members];
    java.util.Arrays.fill(lastTs, NONE);
  }

  /** Adds member {@code m}'s part at {@code ts}, then hands on what is complete. */
  void add(int m, long ts, long prevTs, double value, boolean ok, Done done) {
    int bit = 1 << m;
    seen |= bit;
    live |= bit;
    lastTs[m] = ts;
    newest = Math.max(newest, ts);
    Slot s = slotAt(ts);
    if (s.mask == 0) {
      s.prevTs = prevTs;
    } else if (s.prevTs != prevTs) {
      s.bad = true;
    }
    s.mask |= bit;
    s.values[m] = value;
    s.bad |= !ok;
    drain(done);
  }

  /** Member {@code m} ended: no timestamp waits for it any more. */
  void end(int m, Done done) {
    live &= ~(1 << m);
    drain(done);
  }

  int pending() {
    return slots.size();
  }

  private Slot slotAt(long ts) {
    int i = slots.size();
    while (i > 0 && slots.get(i - 1).ts > ts) {
      i--;
    }
    if (i > 0 && slots.get(i - 1).ts == ts) {
      return slots.get(i - 1);
    }
    Slot s = new Slot(members);
    s.ts = ts;
    slots.add(i, s);
    return s;
  }

  private void drain(Done done) {
    while (!slots.isEmpty()) {
      Slot head = slots.get(0);
      int need = fixed != 0 ? fixed : live;
      if (need != 0 && (head.mask & need) == need) {
        slots.remove(0);
        if (!head.bad) {
          done.complete(head);
        }
      } else if (givenUp(head, need)) {
        slots.remove(0);
      } else {
        return;
      }
    }
  }

  private boolean givenUp(Slot head, int need) {
    if (slots.size() > MAX_SLOTS || head.ts < newest - maxLagMs || need == 0) {
      return true;
    }
    int missing = need & ~head.mask;
    int ended = seen & ~live;
    for (int m = 0; m < members; m++) {
      if ((missing & (1 << m)) != 0 && ((ended & (1 << m)) != 0 || lastTs[m] > head.ts)) {
        return true; // it moved past this timestamp or ended without reporting it
      }
    }
    return false; // a member not heard from yet may still come, within the delivery lag
  }
}
