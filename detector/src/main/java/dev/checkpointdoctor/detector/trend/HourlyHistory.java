package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * Fourteen days of one signal in hourly summaries (UTC hours of event time): observations, their
 * median, minimum, maximum and the last one. It lets a trend be judged over days while the raw
 * window keeps only the last two hours. An hour is summarised when the first observation of a
 * later hour arrives; its median is taken from the raw recent history, which still holds that
 * hour then, so the summaries cost nothing per observation beyond four running fields.
 *
 * <p>{@value #BYTES_PER_HOUR} bytes an hour (an int and four floats: floats keep 7 significant
 * digits, plenty for a trend of durations and sizes), so a full history is {@value #HOURS} hours
 * = 6,720 bytes; the arrays grow with the history, so a young job costs less.
 */
public final class HourlyHistory {
  public static final int HOURS = 14 * 24;
  public static final long HOUR_MS = 3_600_000L;
  public static final int BYTES_PER_HOUR = 4 + 4 * 4;
  private static final int INITIAL = 24;

  /** Hours kept: {@link #HOURS}, or fewer for a signal only its last hours are read of. */
  private final int capacity;

  // Closed hours, a ring: slot (head + i) % capacity is hour firstHour + i; hours without
  // observations are kept with count 0, so the index says the hour.
  private int[] count = new int[0];
  private float[] median = new float[0];
  private float[] min = new float[0];
  private float[] max = new float[0];
  private float[] last = new float[0];
  private int head;
  private int size;
  private long firstHour;
  // The open (current) hour.
  private long openHour = Long.MIN_VALUE;
  private int openCount;
  private double openMin;
  private double openMax;
  private double openLast;

  public HourlyHistory() {
    this(HOURS);
  }

  /** @param capacity the closed hours kept (1 to {@link #HOURS}); older ones are dropped */
  public HourlyHistory(int capacity) {
    if (capacity < 1 || capacity > HOURS) {
      throw new IllegalArgumentException("hourly history of " + capacity + " hours");
    }
    this.capacity = capacity;
  }

  /**
   * Books one observation. Call it before the observation goes into {@code raw}, so an hour that
   * closes now still finds its points there.
   *
   * @param raw the same signal's recent raw history (medians of closed hours come from it)
   */
  public void observe(long timeMs, double value, SeriesHistory raw) {
    if (!Double.isFinite(value)) {
      return;
    }
    long hour = Math.floorDiv(timeMs, HOUR_MS);
    if (openHour == Long.MIN_VALUE) {
      openHour = hour;
    } else if (hour > openHour) {
      close(raw);
      for (long h = openHour + 1; h < hour && h - openHour <= capacity; h++) {
        push(h, 0, Float.NaN, Float.NaN, Float.NaN, Float.NaN);
      }
      openHour = hour;
      openCount = 0;
    }
    if (openCount == 0) {
      openMin = value;
      openMax = value;
    } else {
      openMin = Math.min(openMin, value);
      openMax = Math.max(openMax, value);
    }
    openLast = value;
    openCount++;
  }

  private void close(SeriesHistory raw) {
    long from = openHour * HOUR_MS;
    double m = raw == null ? Double.NaN : medianOf(raw, from, from + HOUR_MS);
    push(openHour, openCount, (float) m, (float) openMin, (float) openMax, (float) openLast);
  }

  private static double medianOf(SeriesHistory raw, long fromMs, long toMs) {
    double[] v = new double[raw.size()];
    int n = 0;
    for (int i = 0; i < raw.size(); i++) {
      long t = raw.timeMs(i);
      if (t >= fromMs && t < toMs && Double.isFinite(raw.value(i))) {
        v[n++] = raw.value(i);
      }
    }
    if (n == 0) {
      return Double.NaN;
    }
    Arrays.sort(v, 0, n);
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  private void push(long hour, int n, float med, float lo, float hi, float lst) {
    if (size > 0 && hour != firstHour + size) {
      // out of step (a clock jump back): start over rather than mislabel hours
      size = 0;
    }
    if (size == 0) {
      firstHour = hour;
      head = 0;
    }
    if (size == count.length) {
      if (count.length < capacity) {
        grow(Math.min(capacity, Math.max(INITIAL, count.length * 2)));
      } else {
        head = (head + 1) % count.length; // drop the oldest hour
        size--;
        firstHour++;
      }
    }
    int slot = (head + size) % count.length;
    count[slot] = n;
    median[slot] = med;
    min[slot] = lo;
    max[slot] = hi;
    last[slot] = lst;
    size++;
  }

  private void grow(int capacity) {
    int[] c = new int[capacity];
    float[] md = new float[capacity];
    float[] lo = new float[capacity];
    float[] hi = new float[capacity];
    float[] ls = new float[capacity];
    for (int i = 0; i < size; i++) {
      int s = (head + i) % count.length;
      c[i] = count[s];
      md[i] = median[s];
      lo[i] = min[s];
      hi[i] = max[s];
      ls[i] = last[s];
    }
    count = c;
    median = md;
    min = lo;
    max = hi;
    last = ls;
    head = 0;
  }

  /** Closed hours held, oldest first (hours without observations included). */
  public int hours() {
    return size;
  }

  public long hourStartMs(int i) {
    return (firstHour + i) * HOUR_MS;
  }

  public int count(int i) {
    return count[slot(i)];
  }

  /** Median of the hour's observations (NaN when it had none, or none were left to read). */
  public double median(int i) {
    return median[slot(i)];
  }

  public double min(int i) {
    return min[slot(i)];
  }

  public double max(int i) {
    return max[slot(i)];
  }

  public double last(int i) {
    return last[slot(i)];
  }

  /** Start of the hour still collecting, or {@code Long.MIN_VALUE} before any observation. */
  public long openHourStartMs() {
    return openHour == Long.MIN_VALUE ? Long.MIN_VALUE : openHour * HOUR_MS;
  }

  public int openCount() {
    return openCount;
  }

  /**
   * The largest observation held, closed hours and the open one together (NaN when none): over
   * fourteen days, the slowest checkpoint a job completed.
   */
  public double largest() {
    double m = openCount > 0 ? openMax : Double.NaN;
    for (int i = 0; i < size; i++) {
      if (count[slot(i)] > 0 && !(max[slot(i)] <= m)) {
        m = max[slot(i)];
      }
    }
    return m;
  }

  /** Start of the oldest hour held (closed or open), or {@code Long.MIN_VALUE} when empty. */
  public long firstHourStartMs() {
    return size > 0 ? hourStartMs(0) : openHourStartMs();
  }

  private int slot(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    return (head + i) % count.length;
  }

  /** Bytes this history keeps in its arrays now (the hourly cost times the hours allocated). */
  public int retainedBytes() {
    return count.length * BYTES_PER_HOUR;
  }

  public void writeTo(DataOutput out) throws IOException {
    out.writeLong(openHour);
    out.writeInt(openCount);
    out.writeDouble(openMin);
    out.writeDouble(openMax);
    out.writeDouble(openLast);
    out.writeLong(firstHour);
    out.writeInt(size);
    for (int i = 0; i < size; i++) {
      int s = slot(i);
      out.writeInt(count[s]);
      out.writeFloat(median[s]);
      out.writeFloat(min[s]);
      out.writeFloat(max[s]);
      out.writeFloat(last[s]);
    }
  }

  public static HourlyHistory readFrom(DataInput in) throws IOException {
    return readFrom(in, HOURS);
  }

  /** @param capacity the hours the history keeps, as it was created with */
  public static HourlyHistory readFrom(DataInput in, int capacity) throws IOException {
    HourlyHistory h = new HourlyHistory(capacity);
    h.openHour = in.readLong();
    h.openCount = in.readInt();
    h.openMin = in.readDouble();
    h.openMax = in.readDouble();
    h.openLast = in.readDouble();
    h.firstHour = in.readLong();
    int n = in.readInt();
    if (n < 0 || n > capacity || h.openCount < 0) {
      throw new IOException("hourly history of " + n + " hours (keeps " + capacity + ")");
    }
    h.grow(Math.max(Math.min(INITIAL, capacity), n));
    for (int i = 0; i < n; i++) {
      h.count[i] = in.readInt();
      h.median[i] = in.readFloat();
      h.min[i] = in.readFloat();
      h.max[i] = in.readFloat();
      h.last[i] = in.readFloat();
    }
    h.size = n;
    return h;
  }
}
