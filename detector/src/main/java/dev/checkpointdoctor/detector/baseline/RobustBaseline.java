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
 * as it changes (one binary search and one array move per learn), together with prefix sums of
 * the weights in that order. Weights are kept relative to an epoch, {@code 2^((t_i - epoch) /
 * halfLife)}: a common factor, which changes neither the median nor the MAD, and which lets a
 * learn update the sums in place (subtract the evicted weight from the sums after it, add the new
 * one after its position) instead of re-weighting the whole window when {@code t_now} moves. The
 * sums are taken afresh from the newest timestamp every {@code windowSize} learns, and sooner when
 * the relative weights would grow large, so their rounding stays at a few ulps of {@code W}. A
 * recompute is then a binary search of the sums for the median, and a search for the MAD over runs
 * of positions around the median (the observations within {@code d} of the median are one run of
 * the ordered window, weighed by two sums), starting from the previous MAD. The cumulative weights
 * are thus differences of sums rather than one running sum; they differ from the running sum only
 * in the last bits, which matters only for a cumulative weight within rounding of {@code W / 2}.
 * Arrays start small and grow to {@code windowSize}, because most baselines of a big fleet are
 * young or sparse. Not thread-safe.
 */
public final class RobustBaseline {

  /** Consistency constant turning a MAD into a standard deviation for normal data. */
  public static final double MAD_TO_SIGMA = 1.4826;

  /** Returned by {@link #firstTimestamp()} / {@link #lastTimestamp()} before any observation. */
  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  static final byte SNAPSHOT_VERSION = 1;
  private static final int MAX_WINDOW = 4096;
  private static final int INITIAL_CAPACITY = 4;
  /** The epoch moves before relative weights grow past 2^this; far from overflow. */
  private static final double REBASE_HALF_LIVES = 64;

  // Baselines are only used by one thread at a time (the detector holds its lock), so one memo
  // per thread serves them all.
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private final double absoluteFloor;
  private final DetectorSettings settings;
  private final double halfLifeMs;
  private final int windowSize;

  // ring buffer in arrival order; grows until it holds windowSize slots
  // Event times as int milliseconds from timeBase: a window rarely spans more than the +-24 days
  // an int holds, and it halves what the times cost; a baseline whose window does switches to
  // longs (wideTimes) for good.
  private long timeBase = NO_TIMESTAMP;
  private int[] times;
  private long[] wideTimes; // null while every time fits in times
  // Values as floats while every one is exactly a float (counts, bytes and milliseconds below
  // 2^24, and most small integers, are): half the bytes, and the very same doubles read back.
  // The first value a float cannot hold exactly makes them doubles for good (wideValues).
  private float[] values;
  private double[] wideValues; // null while every value fits in values
  // ring slots ordered by value (ascending); short is enough for MAX_WINDOW
  private short[] order;
  // prefix[k]: summed relative weights of order[0..k]; see the class comment
  private double[] prefix;
  private long epoch = NO_TIMESTAMP; // relative weights are 2^((t - epoch) / halfLife)
  private int sinceRebuild; // incremental prefix updates since the last exact sum
  private double lastMad; // where the next MAD search starts; any value gives the same MAD
  private int head; // slot of the next write
  private int count; // filled slots
  // window values that are -0.0: a window of zeros is one value only when none or all are
  private int negativeZeros;
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
    this.windowSize = settings.windowSize();
    int initial = Math.min(INITIAL_CAPACITY, windowSize);
    this.times = new int[initial];
    this.values = new float[initial];
    this.order = new short[initial];
    this.prefix = new double[initial];
  }

  /**
   * Learns one observation. NaN and infinite values are rejected silently.
   *
   * @return false when the value was rejected
   */
  public boolean learn(long tsMs, double value) {
    if (!Double.isFinite(value)) {
      return false;
    }
    if (observations == 0) {
      firstTs = tsMs;
      lastTs = tsMs;
    } else {
      firstTs = Math.min(firstTs, tsMs);
      lastTs = Math.max(lastTs, tsMs);
    }
    if (epoch == NO_TIMESTAMP || sinceRebuild >= windowSize
        || ((double) lastTs - (double) epoch) / halfLifeMs > REBASE_HALF_LIVES) {
      store(tsMs, value, false);
      rebuildPrefix();
    } else {
      store(tsMs, value, true);
      sinceRebuild++;
    }
    if (observations < Integer.MAX_VALUE) {
      observations++;
    }
    cached = null;
    return true;
  }

  /**
   * Writes the observation into the ring (evicting the oldest when full) and the value order, and,
   * when {@code updatePrefix}, moves the prefix sums with them: a removed weight is subtracted
   * from every later sum and an inserted one added, which vectorises, unlike a sum's chain.
   */
  private void store(long tsMs, double value, boolean updatePrefix) {
    int slot = head;
    int n = count;
    if (n == windowSize) {
      // the slot about to be overwritten holds the oldest observation: drop it from the order
      double oldest = valueAt(slot);
      if (isNegativeZero(oldest)) {
        negativeZeros--;
      }
      int at = oldestPosition(oldest, slot, n);
      System.arraycopy(order, at + 1, order, at, n - 1 - at);
      if (updatePrefix) {
        double gone = relativeWeight(timeAt(slot));
        double[] p = prefix;
        for (int k = at; k < n - 1; k++) {
          p[k] = p[k + 1] - gone;
        }
      }
      n--;
    } else if (n == order.length) {
      int grown = Math.min(windowSize, n * 2);
      if (wideTimes == null) {
        times = Arrays.copyOf(times, grown);
      } else {
        wideTimes = Arrays.copyOf(wideTimes, grown);
      }
      if (wideValues == null) {
        values = Arrays.copyOf(values, grown);
      } else {
        wideValues = Arrays.copyOf(wideValues, grown);
      }
      order = Arrays.copyOf(order, grown);
      prefix = Arrays.copyOf(prefix, grown);
    }
    setTime(slot, tsMs, n);
    setValue(slot, value);
    if (isNegativeZero(value)) {
      negativeZeros++;
    }
    // after every equal value, so equal values keep their arrival order
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (valueAt(order[mid]) <= value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    System.arraycopy(order, lo, order, lo + 1, n - lo);
    order[lo] = (short) slot;
    if (updatePrefix) {
      double w = relativeWeight(tsMs);
      double[] p = prefix;
      for (int k = n; k > lo; k--) {
        p[k] = p[k - 1] + w;
      }
      p[lo] = (lo > 0 ? p[lo - 1] : 0.0) + w;
    }
    head = head + 1 == windowSize ? 0 : head + 1;
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
      if (valueAt(order[mid]) < value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < n && order[lo] == slot) {
      return lo;
    }
    int at = 0; // not reached while the order keeps equal values in arrival order
    while (order[at] != slot) {
      at++;
    }
    return at;
  }

  private double valueAt(int slot) {
    return wideValues != null ? wideValues[slot] : values[slot];
  }

  private void setValue(int slot, double value) {
    if (wideValues == null) {
      float narrow = (float) value;
      if (Double.doubleToRawLongBits(narrow) == Double.doubleToRawLongBits(value)) {
        values[slot] = narrow;
        return;
      }
      double[] wide = new double[values.length];
      for (int i = 0; i < wide.length; i++) {
        wide[i] = values[i];
      }
      wideValues = wide;
      values = null;
    }
    wideValues[slot] = value;
  }

  /** Whether this baseline's values took more than floats. For tests. */
  boolean keepsDoubleValues() {
    return wideValues != null;
  }

  /** Whether this baseline's window spanned too much for int times. For tests. */
  boolean keepsLongTimes() {
    return wideTimes != null;
  }

  private long timeAt(int slot) {
    return wideTimes != null ? wideTimes[slot] : timeBase + times[slot];
  }

  /**
   * Stores the time of {@code slot}; the other live slots are {@code order[0, n)}. A time that
   * does not fit the base moves the base to it, or, when the window then spans too much, makes
   * the times long.
   */
  private void setTime(int slot, long tsMs, int n) {
    if (wideTimes == null) {
      if (timeBase == NO_TIMESTAMP) {
        timeBase = tsMs;
      }
      if (fitsInt(tsMs, timeBase)) {
        times[slot] = (int) (tsMs - timeBase);
        return;
      }
      boolean allFit = true;
      for (int k = 0; k < n && allFit; k++) {
        allFit = fitsInt(timeAt(order[k]), tsMs);
      }
      if (allFit) {
        for (int k = 0; k < n; k++) {
          times[order[k]] = (int) (timeAt(order[k]) - tsMs);
        }
        timeBase = tsMs;
        times[slot] = 0;
        return;
      }
      long[] wide = new long[times.length];
      for (int k = 0; k < n; k++) {
        wide[order[k]] = timeAt(order[k]);
      }
      wideTimes = wide;
      times = null;
    }
    wideTimes[slot] = tsMs;
  }

  private static boolean fitsInt(long t, long base) {
    long offset = t - base;
    boolean overflow = ((t ^ base) & (t ^ offset)) < 0;
    return !overflow && offset == (int) offset;
  }

  /**
   * Sums the relative weights afresh in value order, from an epoch moved to the newest timestamp:
   * bounds the rounding the incremental updates accumulate, and keeps the weights' exponents small.
   */
  private void rebuildPrefix() {
    epoch = lastTs;
    sinceRebuild = 0;
    double sum = 0;
    for (int k = 0; k < count; k++) {
      sum += relativeWeight(timeAt(order[k]));
      prefix[k] = sum;
    }
  }

  /**
   * Largest difference between a prefix sum and the same sum taken afresh, relative to the total
   * weight: what the in-place updates have accumulated since the last rebuild. For tests.
   */
  double prefixError() {
    double sum = 0;
    double worst = 0;
    for (int k = 0; k < count; k++) {
      sum += relativeWeight(timeAt(order[k]));
      worst = Math.max(worst, Math.abs(prefix[k] - sum));
    }
    return count == 0 ? 0 : worst / sum;
  }

  /** {@code 2^((t - epoch) / halfLife)}: the weight up to a factor all observations share. */
  private double relativeWeight(long tsMs) {
    return SCRATCH.get().weight((double) epoch - (double) tsMs, halfLifeMs);
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
    double only = valueAt(order[0]);
    if (only == valueAt(order[n - 1])
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
    double[] p = prefix;
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
    double median = valueAt(order[lo]);
    int below = lo;
    while (below + 1 < n && valueAt(order[below + 1]) <= median) {
      below++;
    }
    double mad = weightedMad(median, below, half);
    lastMad = mad;
    return band(median, mad);
  }

  /**
   * The weighted MAD: the smallest deviation d such that the observations within d of the median
   * weigh at least half. Positions {@code [0, below]} hold the values at or below the median, so
   * their deviations grow towards 0; those above grow towards n - 1. The observations within d
   * are therefore one run of positions, weighed by two prefix sums. The search starts from the
   * previous MAD, which a new observation moves little, and widens or narrows the run one
   * deviation at a time (ties together).
   */
  private double weightedMad(double median, int below, double half) {
    int n = count;
    double d = lastMad;
    // first position at or below the median within d, last one above it within d
    int from = firstWithin(median, below, d);
    int to = lastWithin(median, below, n, d);
    if (runWeight(from, to) >= half) {
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
        if (from > below && to <= below || runWeight(from, to) < half) {
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
      if (runWeight(from, to) >= half) {
        return next;
      }
    }
    // only through rounding of the sums: the largest deviation
    return Math.max(deviation(0, median), deviation(n - 1, median));
  }

  private double deviation(int position, double median) {
    return Math.abs(valueAt(order[position]) - median);
  }

  /** Weight of positions [from, to]; 0 for an empty run. */
  private double runWeight(int from, int to) {
    if (from > to) {
      return 0.0;
    }
    return prefix[to] - (from > 0 ? prefix[from - 1] : 0.0);
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
    epoch = NO_TIMESTAMP;
    timeBase = NO_TIMESTAMP;
    if (wideTimes != null) {
      wideTimes = null;
      times = new int[wideValues != null ? wideValues.length : values.length];
    }
    sinceRebuild = 0;
    lastMad = 0;
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
    long[] keptTimes = new long[n];
    double[] keptValues = new double[n];
    int kept = 0;
    for (int k = 0; k < n; k++) {
      int slot = (oldest + k) % windowSize;
      long t = timeAt(slot);
      if (t >= tsMs) {
        keptTimes[kept] = t;
        keptValues[kept++] = valueAt(slot);
      }
    }
    forget();
    for (int i = 0; i < kept; i++) {
      learn(keptTimes[i], keptValues[i]);
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

    Scratch() {
      Arrays.fill(ages, Double.NaN); // NaN equals no age
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
   * timestamp, window count, then the window oldest first as {@code (long ts, double value)}.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(SNAPSHOT_VERSION);
    out.writeInt(windowSize);
    out.writeInt(observations);
    out.writeLong(firstTs);
    out.writeLong(lastTs);
    out.writeInt(count);
    int start = count < windowSize ? 0 : head;
    for (int i = 0; i < count; i++) {
      int slot = (start + i) % windowSize;
      out.writeLong(timeAt(slot));
      out.writeDouble(valueAt(slot));
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
    if (version != SNAPSHOT_VERSION) {
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
    for (int i = 0; i < count; i++) {
      long ts = in.readLong();
      double v = in.readDouble();
      if (!Double.isFinite(v)) {
        throw new IOException("baseline snapshot value " + i + " is not finite");
      }
      if (ts < first || ts > last) {
        throw new IOException("baseline snapshot timestamp " + i + " outside [first, last]");
      }
      if (i >= skip) {
        b.store(ts, v, false);
      }
    }
    b.observations = observations;
    b.firstTs = observations == 0 ? NO_TIMESTAMP : first;
    b.lastTs = observations == 0 ? NO_TIMESTAMP : last;
    if (b.count > 0) {
      b.rebuildPrefix();
    }
    b.cached = null;
    return b;
  }
}
