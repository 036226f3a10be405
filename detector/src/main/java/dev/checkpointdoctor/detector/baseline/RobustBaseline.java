package dev.checkpointdoctor.detector.baseline;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;

/**
 * Online, event-time robust baseline of one (job, signal, scope).
 *
 * <p>Keeps the last {@code windowSize} learned observations {@code (t_i, x_i)} in a ring buffer of
 * primitive arrays. Every observation carries the weight {@code w_i = 2^(-(t_now - t_i) /
 * halfLife)}, where {@code t_now} is the largest event timestamp ever learned (never the wall
 * clock); an observation with {@code t_i > t_now} cannot exist, so all weights are in (0, 1] and
 * the newest observation weighs exactly 1.
 *
 * <p><b>Weighted median.</b> Sort the window by value (ties in any order), let {@code W = sum
 * w_i}. The weighted median is the smallest value {@code x_(k)} in that order whose cumulative
 * weight {@code w_(1) + ... + w_(k)} is {@code >= W / 2}. With equal weights and an even count
 * this is the lower of the two middle values.
 *
 * <p><b>Weighted MAD.</b> The weighted median (same definition, same weights) of the absolute
 * deviations {@code |x_i - median|}. {@code spread = 1.4826 x MAD}.
 *
 * <p><b>Band.</b> {@code h = max(bandWidth x spread, relativeFloor x |expected|,
 * signal.absoluteFloor())}, {@code lower = expected - h}, {@code upper = expected + h}.
 *
 * <p>The band is cached and recomputed lazily after a learn. The window is kept ordered by value
 * as it changes (one binary search and one array move per learn). A recompute weighs the window
 * afresh from {@code t_now} and sums the weights in value order into a per-thread scratch array
 * (the weight sums are not kept: every tracked series has a baseline, and they would cost a double
 * per observation); then it is a binary search of the sums for the median, and a search for the
 * MAD over runs of positions around the median (the observations within {@code d} of the median
 * are one run of the ordered window, weighed by two sums), starting from the previous MAD. The
 * cumulative weights are thus differences of sums rather than one running sum; they differ from
 * the running sum only in the last bits, which matters only for a cumulative weight within
 * rounding of {@code W / 2}. Times are kept as delta-of-delta varints ({@link PackedTimes}),
 * values as floats (see {@link #narrow}). Arrays start small and grow to
 * {@code windowSize}, because most baselines of a big fleet are young or sparse. Not thread-safe.
 */
public final class RobustBaseline extends PackedTimes {

  /** Consistency constant turning a MAD into a standard deviation for normal data. */
  public static final double MAD_TO_SIGMA = 1.4826;

  /** Returned by {@link #firstTimestamp()} / {@link #lastTimestamp()} before any observation. */
  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  /**
   * Version 3 writes the window's values as floats, as they are kept; versions 2 (doubles, which
   * are narrowed when read) and 1 (doubles, and no clipped marks: none were) are still read.
   */
  static final byte SNAPSHOT_VERSION = 3;
  private static final int MAX_WINDOW = 4096;
  private static final int INITIAL_CAPACITY = 4;

  // Baselines are only used by one thread at a time (the detector holds its lock), so one memo
  // per thread serves them all.
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private final double absoluteFloor;
  private final DetectorSettings settings;
  private final double halfLifeMs;
  // shorts: a window holds at most MAX_WINDOW (DetectorSettings: 4096) values, and four ints
  // made the object 8 bytes bigger
  private final short windowSize;

  // ring buffer in arrival order; grows until it holds windowSize slots
  // the slots' event times, oldest first (the oldest is in slot head once the ring is full), are
  // the PackedTimes this extends
  // Values as floats, half the bytes of doubles: see narrow() for what that rounds.
  private float[] values;
  // ring slots ordered by value (ascending): unsigned bytes while the window holds at most 256
  // slots (the default holds 120), else shorts, which are enough for MAX_WINDOW
  private byte[] order;
  private short[] wideOrder; // null while order is used
  // a bit per ring slot: the value was clipped to the band's edge when learned (its level is the
  // band's, not the noise's); null while no value in the window was
  private long[] clipped;
  private double lastMad; // where the next MAD search starts; any value gives the same MAD
  private short head; // slot of the next write
  private short count; // filled slots
  // window values that are -0.0: a window of zeros is one value only when none or all are
  private short negativeZeros;
  private int observations; // ever learned, saturating
  private long firstTs = NO_TIMESTAMP;
  private long lastTs = NO_TIMESTAMP;

  private Band cached = Band.EMPTY; // null means stale

  public RobustBaseline(Signal signal, DetectorSettings settings) {
    this(signal.absoluteFloor(), settings);
  }

  /** For series outside the signal catalog, whose unit floor the caller knows. */
  RobustBaseline(double absoluteFloor, DetectorSettings settings) {
    this.absoluteFloor = absoluteFloor;
    this.settings = settings;
    // seconds + nanos: toNanos()/toMillis() would overflow or truncate for extreme half-lives
    this.halfLifeMs =
        settings.halfLife().getSeconds() * 1000.0 + settings.halfLife().getNano() / 1e6;
    this.windowSize = (short) settings.windowSize();
    int initial = Math.min(INITIAL_CAPACITY, windowSize);
    this.values = new float[initial];
    if (windowSize <= 256) {
      this.order = new byte[initial];
    } else {
      this.wideOrder = new short[initial];
    }
  }

  /**
   * Learns one observation. NaN and infinite values are rejected silently.
   *
   * @return false when the value was rejected
   */
  public boolean learn(long tsMs, double value) {
    return learn(tsMs, value, false);
  }

  /**
   * Learns one observation, which the caller may have clipped to the band's edge: it weighs in
   * the median and spread as any other, but says nothing of how the noise moves from one
   * observation to the next ({@link #serialCorrelation}).
   *
   * @param wasClipped whether {@code value} is a band edge standing for a value beyond it
   * @return false when the value was rejected
   */
  boolean learn(long tsMs, double value, boolean wasClipped) {
    if (!Double.isFinite(value)) {
      return false;
    }
    markClipped(head, wasClipped);
    if (observations == 0) {
      firstTs = tsMs;
      lastTs = tsMs;
    } else {
      firstTs = Math.min(firstTs, tsMs);
      lastTs = Math.max(lastTs, tsMs);
    }
    store(tsMs, value);
    if (observations < Integer.MAX_VALUE) {
      observations++;
    }
    cached = null;
    return true;
  }

  private void markClipped(int slot, boolean wasClipped) {
    if (clipped == null) {
      if (!wasClipped) {
        return;
      }
      clipped = new long[(windowSize + 63) / 64];
    }
    if (wasClipped) {
      clipped[slot >>> 6] |= 1L << slot;
    } else {
      clipped[slot >>> 6] &= ~(1L << slot);
    }
  }

  private boolean isClipped(int slot) {
    return clipped != null && (clipped[slot >>> 6] & (1L << slot)) != 0;
  }

  /** Writes the observation into the ring (evicting the oldest when full) and the value order. */
  private void store(long tsMs, double learned) {
    float narrow = narrow(learned);
    // compared and counted as kept, so the order agrees with the values read back
    double value = narrow;
    int slot = head;
    int n = count;
    if (n == windowSize) {
      // the slot about to be overwritten holds the oldest observation: drop it from the order
      double oldest = valueAt(slot);
      if (isNegativeZero(oldest)) {
        negativeZeros--;
      }
      int at = oldestPosition(oldest, slot, n);
      moveOrder(at + 1, at, n - 1 - at);
      removeFirstTime();
      n--;
    } else if (n == orderCapacity()) {
      int grown = Math.min(windowSize, n * 2);
      values = Arrays.copyOf(values, grown);
      if (order != null) {
        order = Arrays.copyOf(order, grown);
      } else {
        wideOrder = Arrays.copyOf(wideOrder, grown);
      }
    }
    addTime(tsMs);
    values[slot] = narrow;
    if (isNegativeZero(value)) {
      negativeZeros++;
    }
    // after every equal value, so equal values keep their arrival order
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (valueAt(slotAt(mid)) <= value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    moveOrder(lo, lo + 1, n - lo);
    if (order != null) {
      order[lo] = (byte) slot;
    } else {
      wideOrder[lo] = (short) slot;
    }
    head = (short) (head + 1 == windowSize ? 0 : head + 1);
    if (count < windowSize) {
      count++;
    }
  }

  /**
   * Where the window's oldest observation, {@code value} in {@code slot}, sits in the value
   * order. Equal values keep their arrival order, so the oldest is the first of its equals: a
   * binary search finds it instead of a scan of the order.
   */
  private int oldestPosition(double value, int slot, int n) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (valueAt(slotAt(mid)) < value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < n && slotAt(lo) == slot) {
      return lo;
    }
    int at = 0; // not reached while the order keeps equal values in arrival order
    while (slotAt(at) != slot) {
      at++;
    }
    return at;
  }

  /** The ring slot at position {@code k} of the value order. */
  private int slotAt(int k) {
    return order != null ? order[k] & 0xff : wideOrder[k];
  }

  private int orderCapacity() {
    return order != null ? order.length : wideOrder.length;
  }

  private void moveOrder(int from, int to, int length) {
    if (order != null) {
      System.arraycopy(order, from, order, to, length);
    } else {
      System.arraycopy(wideOrder, from, wideOrder, to, length);
    }
  }

  private double valueAt(int slot) {
    return values[slot];
  }

  /**
   * The float a learned value is kept as: the nearest one (a relative error of at most 2^-24,
   * 6e-8, far inside any band: the default relative floor alone is a tenth of the level), so
   * counts, bytes and milliseconds below 2^24 and small integers stay exact. Rates, averages
   * and start delays in milliseconds from nanoseconds would otherwise need doubles, which cost
   * the window 4 bytes a value more. A finite value beyond a float's range (none of the catalog's
   * units reaches 3.4e38) is kept as the largest float of its sign, not as an infinity.
   */
  static float narrow(double value) {
    float f = (float) value;
    if (Float.isInfinite(f)) {
      return Math.copySign(Float.MAX_VALUE, f);
    }
    return f;
  }

  DetectorSettings settings() {
    return settings;
  }

  /** Bytes the window's times take. For tests. */
  int timeBytes() {
    return timeBytesUsed();
  }

  /**
   * The window's weights relative to {@code t_now}, {@code 2^(-(t_now - t_i) / halfLife)}, summed
   * in value order: {@code sums[k]} weighs {@code order[0..k]}. In the scratch, valid until the
   * next call on this thread.
   */
  private double[] weightSums(Scratch scratch) {
    int n = count;
    double now = (double) lastTs;
    // Series scraped from one target share their times: the baseline weighed just before on
    // this thread often had the very same window of times, and so the very same weights.
    double[] byArrival = scratch.weights(n);
    if (now != scratch.weighedNow || halfLifeMs != scratch.weighedHalfLifeMs
        || !timesMatch(scratch.weighed)) {
      long[] arrival = scratch.times(n);
      copyTimesTo(arrival);
      for (int k = 0; k < n; k++) {
        byArrival[k] = scratch.weight(now - (double) arrival[k], halfLifeMs);
      }
      saveTimesTo(scratch.weighed);
      scratch.weighedNow = now;
      scratch.weighedHalfLifeMs = halfLifeMs;
    }
    int oldest = n < windowSize ? 0 : head;
    double[] sums = scratch.sums(n);
    double sum = 0;
    for (int k = 0; k < n; k++) {
      int arrivalIndex = slotAt(k) - oldest;
      sum += byArrival[arrivalIndex < 0 ? arrivalIndex + windowSize : arrivalIndex];
      sums[k] = sum;
    }
    return sums;
  }

  /** The window's times oldest first. */
  private long[] arrivalTimes() {
    long[] t = new long[count];
    copyTimesTo(t);
    return t;
  }

  /** The current band; {@link Band#EMPTY all NaN} before the first observation. */
  public Band band() {
    Band b = cached;
    if (b == null) {
      b = compute();
      cached = b;
    }
    return b;
  }

  /** True once at least {@code minObservations} observations were learned. */
  public boolean ready() {
    return observations >= settings.minObservations();
  }

  /** Observations ever learned (saturates at {@link Integer#MAX_VALUE}), not only the window. */
  public int observations() {
    return observations;
  }

  /**
   * The lag-1 correlation of the window's values in the order they were learned ({@link
   * SerialDependence#assuredRho}): how much this scope's noise wanders. Costs a pass over the
   * window; asked only when a run of out-of-band values is about to open an anomaly.
   *
   * <p>Values learned clipped to the band's edge are left out, the pending run's own among them:
   * a stretch of them is one value repeated, which reads as noise that stays put whatever the
   * noise did (a rise a signal that flags only drops does not judge, held for a few minutes,
   * would make any later drop look like wandering).
   */
  double serialCorrelation() {
    int oldest = count < windowSize ? 0 : head;
    double[] arrival = new double[count];
    int n = 0;
    for (int k = 0; k < count; k++) {
      int slot = (oldest + k) % windowSize;
      if (!isClipped(slot)) {
        arrival[n++] = valueAt(slot);
      }
    }
    return SerialDependence.assuredRho(arrival, n);
  }

  /** Observations currently in the window, {@code min(observations, windowSize)}. */
  public int windowCount() {
    return count;
  }

  /** Smallest event timestamp ever learned, or {@link #NO_TIMESTAMP}. */
  public long firstTimestamp() {
    return firstTs;
  }

  /** Largest event timestamp ever learned ({@code t_now}), or {@link #NO_TIMESTAMP}. */
  public long lastTimestamp() {
    return lastTs;
  }

  /** Weight of an observation at {@code tsMs} relative to {@link #lastTimestamp()}. */
  double weightAt(long tsMs) {
    double age = Math.max(0.0, (double) lastTs - (double) tsMs);
    return Math.pow(2.0, -age / halfLifeMs);
  }

  private Band compute() {
    int n = count;
    if (n == 0) {
      return Band.EMPTY;
    }
    double only = valueAt(slotAt(0));
    if (only == valueAt(slotAt(n - 1))
        && (only != 0 || negativeZeros == 0 || negativeZeros == n)) {
      // One value fills the window (a gauge at 0, a counter that does not move): it is the
      // weighted median whatever the weights, and every deviation is 0.
      return band(only, 0.0);
    }
    return weightedBand();
  }

  /** -0.0 and 0.0 compare equal but differ, so a window of both is not one value. */
  private static boolean isNegativeZero(double value) {
    return Double.doubleToRawLongBits(value) == Long.MIN_VALUE;
  }

  /** The band through the weights, without the shortcut for a window of one value. */
  Band weightedBand() {
    int n = count;
    if (n == 0) {
      return Band.EMPTY;
    }
    double[] p = weightSums(SCRATCH.get());
    double half = p[n - 1] / 2;
    // weighted median: smallest value whose cumulative weight reaches half
    int lo = 0;
    int hi = n - 1; // n - 1 also when rounding keeps every sum below half
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (p[mid] >= half) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    double median = valueAt(slotAt(lo));
    int below = lastAtMost(median, lo, n);
    double mad = weightedMad(p, median, below, half);
    lastMad = mad;
    return band(median, mad);
  }

  /**
   * Last position in [from, n) whose value is at most {@code median} (the value at {@code from}
   * is). Values are in order, so those at most the median are a prefix: a binary search finds
   * the same position a scan would, without walking a long run of ties (a gauge that mostly
   * repeats one value) on every band.
   */
  private int lastAtMost(double median, int from, int n) {
    int lo = from;
    int hi = n - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (valueAt(slotAt(mid)) <= median) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * The weighted MAD: the smallest deviation d such that the observations within d of the median
   * weigh at least half. Positions {@code [0, below]} hold the values at or below the median, so
   * their deviations grow towards 0; those above grow towards n - 1. The observations within d
   * are therefore one run of positions, weighed by two prefix sums. The search starts from the
   * previous MAD, which a new observation moves little, and widens or narrows the run one
   * deviation at a time (ties together).
   */
  private double weightedMad(double[] p, double median, int below, double half) {
    int n = count;
    double d = lastMad;
    // first position at or below the median within d, last one above it within d
    int from = firstWithin(median, below, d);
    int to = lastWithin(median, below, n, d);
    if (runWeight(p, from, to) >= half) {
      while (true) {
        double widest = Math.max(from <= below ? deviation(from, median) : 0.0,
            to > below ? deviation(to, median) : 0.0);
        while (from <= below && deviation(from, median) == widest) {
          from++;
        }
        while (to > below && deviation(to, median) == widest) {
          to--;
        }
        // an empty run ends it too: with every weight underflowed to 0, half is 0 and no run
        // weighs less than that
        if (from > below && to <= below || runWeight(p, from, to) < half) {
          return widest;
        }
      }
    }
    while (from > 0 || to < n - 1) {
      double next = Math.min(from > 0 ? deviation(from - 1, median) : Double.POSITIVE_INFINITY,
          to < n - 1 ? deviation(to + 1, median) : Double.POSITIVE_INFINITY);
      while (from > 0 && deviation(from - 1, median) == next) {
        from--;
      }
      while (to < n - 1 && deviation(to + 1, median) == next) {
        to++;
      }
      if (runWeight(p, from, to) >= half) {
        return next;
      }
    }
    // only through rounding of the sums: the largest deviation
    return Math.max(deviation(0, median), deviation(n - 1, median));
  }

  private double deviation(int position, double median) {
    return Math.abs(valueAt(slotAt(position)) - median);
  }

  /** Weight of positions [from, to]; 0 for an empty run. */
  private static double runWeight(double[] p, int from, int to) {
    if (from > to) {
      return 0.0;
    }
    return p[to] - (from > 0 ? p[from - 1] : 0.0);
  }

  /** Smallest position in [0, below] whose deviation is at most d, or below + 1 for none. */
  private int firstWithin(double median, int below, double d) {
    int lo = 0;
    int hi = below + 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (deviation(mid, median) <= d) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** Largest position in (below, n) whose deviation is at most d, or below for none. */
  private int lastWithin(double median, int below, int n, double d) {
    int lo = below;
    int hi = n - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (deviation(mid, median) <= d) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private Band band(double median, double mad) {
    double spread = MAD_TO_SIGMA * mad;
    double h = halfWidth(median, spread);
    return new Band(median, median - h, median + h, spread);
  }

  /** The band half-width this baseline gives a window with this median and robust spread. */
  double halfWidth(double median, double spread) {
    return Math.max(settings.bandWidth() * spread,
        Math.max(settings.relativeFloor() * Math.abs(median), absoluteFloor));
  }

  /**
   * Forgets everything learned: the baseline is learning again, from the next observation on
   * (arrays keep their capacity).
   */
  void forget() {
    head = 0;
    count = 0;
    negativeZeros = 0;
    observations = 0;
    firstTs = NO_TIMESTAMP;
    lastTs = NO_TIMESTAMP;
    clearTimes();
    lastMad = 0;
    if (clipped != null) {
      Arrays.fill(clipped, 0);
    }
    cached = Band.EMPTY;
  }

  /**
   * Forgets what was learned before {@code tsMs} in event time and keeps the rest, relearned in
   * the order it was learned: what a start at {@code tsMs} leaves does not depend on whether
   * observations after it were delivered before the start was known.
   */
  void forgetBefore(long tsMs) {
    int n = count;
    int oldest = n < windowSize ? 0 : head;
    long[] arrival = arrivalTimes();
    long[] keptTimes = new long[n];
    double[] keptValues = new double[n];
    boolean[] keptClipped = new boolean[n];
    int kept = 0;
    for (int k = 0; k < n; k++) {
      int slot = (oldest + k) % windowSize;
      long t = arrival[k];
      if (t >= tsMs) {
        keptTimes[kept] = t;
        keptClipped[kept] = isClipped(slot);
        keptValues[kept++] = valueAt(slot);
      }
    }
    forget();
    for (int i = 0; i < kept; i++) {
      learn(keptTimes[i], keptValues[i], keptClipped[i]);
    }
  }

  /**
   * Forgets the window and learns the regime's points instead: the level that held becomes the
   * baseline. The baseline counts as having learned every observation of the regime, so it is
   * ready at once (the regime held for at least {@code minObservations} observations).
   */
  void relearn(RegimeWindow regime) {
    long last = lastTs;
    forget();
    for (int i = 0; i < regime.size(); i++) {
      learn(regime.timeAt(i), regime.valueAt(i));
    }
    observations = (int) Math.min(Integer.MAX_VALUE, Math.max(observations, regime.seen()));
    // the newest time ever learned stays: weights are relative to it
    lastTs = Math.max(lastTs, last);
    cached = null;
  }

  /**
   * Per-thread memo of {@code 2^(-age / halfLife)}. Series scraped from one target share their
   * timestamps, so their baselines see the same ages over and over; the memo returns the very
   * double {@code Math.pow} gave for that age.
   */
  private static final class Scratch {
    private static final int MEMO_SLOTS = 1 << 12;

    private final double[] ages = new double[MEMO_SLOTS];
    private final double[] powers = new double[MEMO_SLOTS];
    private double memoHalfLifeMs = Double.NaN;
    private long[] times = new long[0];
    private double[] weights = new double[0]; // of the times in weighed, oldest first
    private double[] sums = new double[0];
    private final PackedTimes.Copy weighed = new PackedTimes.Copy();
    private double weighedNow = Double.NaN;
    private double weighedHalfLifeMs = Double.NaN;

    Scratch() {
      Arrays.fill(ages, Double.NaN); // NaN equals no age
    }

    long[] times(int n) {
      if (times.length < n) {
        times = new long[Math.max(n, 2 * times.length)];
      }
      return times;
    }

    double[] weights(int n) {
      if (weights.length < n) {
        double[] grown = new double[Math.max(n, 2 * weights.length)];
        System.arraycopy(weights, 0, grown, 0, weights.length);
        weights = grown;
      }
      return weights;
    }

    double[] sums(int n) {
      if (sums.length < n) {
        sums = new double[Math.max(n, 2 * sums.length)];
      }
      return sums;
    }

    double weight(double age, double halfLifeMs) {
      if (halfLifeMs != memoHalfLifeMs) {
        Arrays.fill(ages, Double.NaN);
        memoHalfLifeMs = halfLifeMs;
      }
      long bits = Double.doubleToRawLongBits(age);
      int slot = (int) ((bits * 0x9E3779B97F4A7C15L) >>> 52);
      if (ages[slot] == age) {
        return powers[slot];
      }
      double w = Math.pow(2.0, -age / halfLifeMs);
      ages[slot] = age;
      powers[slot] = w;
      return w;
    }
  }

  // ---------------------------------------------------------------- snapshot

  /**
   * Writes the state: version byte, window size of the writer, observations, first and last
   * timestamp, window count, then the window oldest first as {@code (long ts, float value)},
   * then whether any of them was learned clipped and, if so, a bit for each oldest first.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(SNAPSHOT_VERSION);
    out.writeInt(windowSize);
    out.writeInt(observations);
    out.writeLong(firstTs);
    out.writeLong(lastTs);
    out.writeInt(count);
    int start = count < windowSize ? 0 : head;
    long[] arrival = arrivalTimes();
    for (int i = 0; i < count; i++) {
      int slot = (start + i) % windowSize;
      out.writeLong(arrival[i]);
      out.writeFloat(values[slot]);
    }
    out.writeBoolean(clipped != null);
    if (clipped != null) {
      for (int i = 0; i < count; i += 8) {
        int bits = 0;
        for (int j = 0; j < 8 && i + j < count; j++) {
          bits |= isClipped((start + i + j) % windowSize) ? 1 << j : 0;
        }
        out.writeByte(bits);
      }
    }
  }

  /**
   * Restores a baseline written by {@link #writeTo}. When the snapshot's window is larger than the
   * current {@code windowSize}, only its newest {@code windowSize} observations are kept.
   *
   * @throws IOException on a truncated stream, an unknown version or inconsistent contents
   */
  public static RobustBaseline readFrom(DataInput in, Signal signal, DetectorSettings settings)
      throws IOException {
    try {
      return read(in, signal, settings);
    } catch (EOFException e) {
      throw new IOException("truncated baseline snapshot", e);
    }
  }

  private static RobustBaseline read(DataInput in, Signal signal, DetectorSettings settings)
      throws IOException {
    int version = in.readUnsignedByte();
    if (version < 1 || version > SNAPSHOT_VERSION) {
      throw new IOException("unsupported baseline snapshot version " + version);
    }
    int storedWindow = in.readInt();
    int observations = in.readInt();
    long first = in.readLong();
    long last = in.readLong();
    int count = in.readInt();
    if (storedWindow < 1 || storedWindow > MAX_WINDOW) {
      throw new IOException("baseline snapshot window size out of range: " + storedWindow);
    }
    if (observations < 0) {
      throw new IOException("baseline snapshot has negative observation count " + observations);
    }
    if (count < 0 || count > storedWindow) {
      throw new IOException(
          "baseline snapshot window count " + count + " outside [0, " + storedWindow + "]");
    }
    if (count != Math.min(observations, storedWindow)) {
      throw new IOException(
          "baseline snapshot window count " + count + " does not match " + observations
              + " observations in a window of " + storedWindow);
    }
    if (observations > 0 && first > last) {
      throw new IOException("baseline snapshot first timestamp after last timestamp");
    }
    RobustBaseline b = new RobustBaseline(signal, settings);
    int skip = Math.max(0, count - b.windowSize);
    long[] ts = new long[count];
    double[] vs = new double[count];
    for (int i = 0; i < count; i++) {
      ts[i] = in.readLong();
      vs[i] = version >= 3 ? in.readFloat() : in.readDouble();
      if (!Double.isFinite(vs[i])) {
        throw new IOException("baseline snapshot value " + i + " is not finite");
      }
      if (ts[i] < first || ts[i] > last) {
        throw new IOException("baseline snapshot timestamp " + i + " outside [first, last]");
      }
    }
    // before version 2 no value was known to be clipped
    boolean[] wasClipped = new boolean[count];
    if (version >= 2 && in.readBoolean()) {
      for (int i = 0; i < count; i += 8) {
        int bits = in.readUnsignedByte();
        for (int j = 0; j < 8 && i + j < count; j++) {
          wasClipped[i + j] = (bits & (1 << j)) != 0;
        }
      }
    }
    for (int i = skip; i < count; i++) {
      b.markClipped(b.head, wasClipped[i]);
      b.store(ts[i], vs[i]);
    }
    b.observations = observations;
    b.firstTs = observations == 0 ? NO_TIMESTAMP : first;
    b.lastTs = observations == 0 ? NO_TIMESTAMP : last;
    b.cached = null;
    return b;
  }
}
