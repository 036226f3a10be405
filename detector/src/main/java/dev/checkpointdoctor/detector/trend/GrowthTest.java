package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.Arrays;
import java.util.List;

/**
 * Whether a checkpoint signal (duration, full size) grows steadily: a Theil–Sen slope of its
 * logarithm, so growth is a share per hour and compounding growth is a straight line, with Sen's
 * rank-based confidence interval ({@link SenSlope}). Three windows, each answering what the
 * others cannot:
 *
 * <ul>
 *   <li>{@link GrowthReading.Window#RECENT}: the raw observations of the last two hours, so
 *       growth of a few percent an hour is named two hours after it starts.
 *   <li>{@link GrowthReading.Window#DAY} and {@link GrowthReading.Window#THREE_DAYS}: the hourly
 *       medians of the last day and three days, where slow growth adds up.
 * </ul>
 *
 * Once the job has more than a day of hourly history, its daily cycle ({@link DailyProfile}) is
 * taken out of the points first, so the rising half of a daily load cycle is not growth; before
 * that, growth that the job's input rate explains (records in rose as much, {@link LoadTrend},
 * over the same two hours or, when steeper, over its last hours) is taken out instead. After it,
 * a recent rise that is growth net of the daily cycle must be growth net of the input rate too:
 * the profile knows the day, not the week's ramps.
 *
 * <p>A window says "growing" when its slope reaches the window's rate, the lower bound of the
 * {@value #CONFIDENCE} interval stays above the window's floor (a noisy signal has wide bounds and
 * does not qualify; the test runs every few minutes for weeks, so the bound is a strict one), one
 * level shift does not explain the points better ({@link StepCheck}), and the signal grew by more
 * than its smallest meaningful change ({@link Signal#absoluteFloor()}). The checkpoint duration,
 * noisier than the size and moved by much besides the state, needs twice the rate and floor.
 */
public final class GrowthTest {
  /**
   * Scope of the anomalies the trend test opens (signal: the growing one), beside the job scope
   * of the same signal's band anomalies.
   */
  public static final String ANOMALY_SCOPE = "trend";
  /** Two-sided level of the slope interval: its lower bound is a 99.5 % one-sided bound. */
  public static final double CONFIDENCE = 0.99;
  public static final long RECENT_MS = 2 * 3_600_000L;
  /** The recent window must span this much: a trend is a sustained change, not a step. */
  public static final long MIN_RECENT_SPAN_MS = 90 * 60_000L;
  public static final int MIN_RECENT_POINTS = 10;
  public static final double RECENT_RATE = 0.015;
  public static final double RECENT_LOWER = 0.005;
  /** Over a day or more, slower growth counts. */
  public static final double LONG_RATE = 0.01;
  public static final double LONG_LOWER = 0.004;
  /** The duration's thresholds are these times the size's. */
  public static final double DURATION_FACTOR = 2;
  private static final long HOUR = HourlyHistory.HOUR_MS;
  private static final long DAY = 24 * HOUR;

  private GrowthTest() {}

  /**
   * Reads the signal's trend at {@code nowMs}: the first growing window of recent, day and three
   * days, else the recent one (or the longest that had enough data), or null when none had.
   *
   * @param recordsIn the job's records-in histories, for jobs too young to know their cycle
   */
  public static GrowthReading evaluate(Signal signal, SeriesHistory raw, HourlyHistory hourly,
      long nowMs, List<SeriesHistory> recordsIn) {
    return evaluate(signal, raw, hourly, nowMs, InputHistories.recentOnly(recordsIn),
        Long.MIN_VALUE);
  }

  /**
   * @param input the job's records-in rates, raw and hourly
   * @param deployedAtMs the job's last deployment, whose level step the daily cycle's fit keeps
   *     apart ({@link DailyProfile#fit(HourlyHistory, long, long)}) and before which the input's
   *     hours are not read, or {@code Long.MIN_VALUE}
   */
  public static GrowthReading evaluate(Signal signal, SeriesHistory raw, HourlyHistory hourly,
      long nowMs, InputHistories input, long deployedAtMs) {
    DailyProfile profile = hourly == null ? null : DailyProfile.fit(hourly, nowMs, deployedAtMs);
    GrowthReading recent = raw == null ? null
        : recent(signal, raw, profile, nowMs, input, deployedAtMs);
    if (recent != null && recent.growing() && profile != null) {
      // the daily profile knows the day, not the week's ramps nor a redeploy's new level: a
      // rise the input rate's own rise explains is no growth, whichever explanation finds it
      GrowthReading byLoad = recent(signal, raw, null, nowMs, input, deployedAtMs);
      if (byLoad != null && !byLoad.growing()
          && byLoad.adjustment() == GrowthReading.Adjustment.INPUT_RATE) {
        recent = byLoad;
      }
    }
    if (recent != null && recent.growing()) {
      return recent;
    }
    GrowthReading best = recent;
    if (hourly != null && profile != null) {
      for (GrowthReading.Window w : new GrowthReading.Window[] {GrowthReading.Window.DAY,
          GrowthReading.Window.THREE_DAYS}) {
        GrowthReading r = longWindow(signal, hourly, profile, nowMs,
            w == GrowthReading.Window.DAY ? DAY : 3 * DAY, w);
        if (r != null && r.growing()) {
          return r;
        }
        if (best == null && r != null) {
          best = r;
        }
      }
    }
    return best;
  }

  /**
   * How many times the signal's level since the deployment is its level before it, as the daily
   * cycle's fit over the last week measures it (level, trend, harmonics and the step): 1 when
   * the fit has no step to give (too little history on either side, or none at all).
   */
  public static double levelStep(HourlyHistory hourly, long nowMs, long deployedAtMs) {
    DailyProfile p = hourly == null || deployedAtMs == Long.MIN_VALUE ? null
        : DailyProfile.fit(hourly, nowMs, deployedAtMs);
    return p == null ? 1 : p.levelStep();
  }

  private static double factor(Signal signal) {
    return signal == Signal.CHECKPOINT_DURATION ? DURATION_FACTOR : 1;
  }

  static GrowthReading recent(Signal signal, SeriesHistory raw, DailyProfile profile,
      long nowMs, InputHistories input, long deployedAtMs) {
    int n = raw.size();
    double[] x = new double[n];
    double[] y = new double[n];
    double[] v = new double[n];
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    int k = 0;
    for (int i = 0; i < n; i++) {
      long t = raw.timeMs(i);
      double value = raw.value(i);
      if (t > nowMs - RECENT_MS && t <= nowMs && value > 0 && Double.isFinite(value)) {
        x[k] = (t - nowMs) / (double) HOUR;
        y[k] = Math.log(value) - (profile == null ? 0 : profile.at(t));
        v[k] = value;
        first = Math.min(first, t);
        last = Math.max(last, t);
        k++;
      }
    }
    if (k < MIN_RECENT_POINTS || last - first < MIN_RECENT_SPAN_MS) {
      return null;
    }
    GrowthReading.Adjustment adjustment = GrowthReading.Adjustment.NONE;
    boolean logsAsObserved = profile == null; // y is log(v) until something is taken out
    if (profile != null) {
      adjustment = GrowthReading.Adjustment.DAILY_CYCLE;
    } else {
      double load = loadExplains(LoadTrend.fit(input.recent(), first, last, nowMs, CONFIDENCE));
      // the input's rise over its last hours, when steeper: the state follows that, not the
      // input's minutes (a point slope: a handful of hours has no useful interval)
      double lasting = LoadTrend.lastingSlope(input.hourly(), nowMs, deployedAtMs);
      if (lasting > load) {
        load = lasting;
      }
      if (load > 0) {
        logsAsObserved = false;
        for (int i = 0; i < k; i++) {
          y[i] -= load * x[i];
        }
        if (load >= Math.log1p(RECENT_LOWER)) {
          adjustment = GrowthReading.Adjustment.INPUT_RATE;
        }
      }
    }
    SenSlope.Fit log = SenSlope.fit(x, y, k, CONFIDENCE);
    SenSlope.Fit fitOfLogs = logsAsObserved ? log : null;
    boolean step;
    if (logsAsObserved || profile != null) {
      step = StepCheck.stepFitsBetter(x, y, k, log);
    } else {
      // a level shift is one of the signal as observed: with the input's rise (a line) taken
      // out, the step test would compare a flatter ramp with a step, which noise then decides
      // (a duration growing 5 %/h called a step once a 1 %/h input rise was taken out)
      double[] observed = new double[k];
      for (int i = 0; i < k; i++) {
        observed[i] = Math.log(v[i]);
      }
      fitOfLogs = SenSlope.line(x, observed, k); // its line is read, not its interval
      step = StepCheck.stepFitsBetter(x, observed, k, fitOfLogs);
    }
    log = log.widened(SlowNoise.inflation(x, y, k, log));
    double f = factor(signal);
    return reading(signal, GrowthReading.Window.RECENT, first, last, x, v, k, log, fitOfLogs,
        adjustment, step, f * RECENT_RATE, f * RECENT_LOWER);
  }

  /**
   * How much of a young job's growth its input rate may explain, in logs per hour. How closely a
   * signal follows the load (its elasticity) cannot be told from a window in which the load only
   * rose: so while the input rate clearly rises (the lower bound of its slope above 0), the
   * signal's growth counts only beyond the fastest rise the rate's interval allows, as if the
   * signal followed the load in full. While the rate is flat or falls, its slope itself is taken
   * out when it is positive: a steady job's state growth must not be lost to the rate's noise.
   */
  static double loadExplains(SenSlope.Fit load) {
    if (load == null) {
      return 0;
    }
    if (load.lower() > 0 && Double.isFinite(load.upper())) {
      return load.upper();
    }
    return Math.max(0, load.slope());
  }

  /**
   * Reads the trend of points a caller chose (in time order, values > 0), without adjustment,
   * against its own thresholds: for the fast growth of a job too young for the recent window.
   */
  public static GrowthReading ofPoints(Signal signal, long[] timesMs, double[] values, int n,
      long nowMs, double rate, double floor) {
    double[] x = new double[n];
    double[] y = new double[n];
    double[] v = new double[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (values[i] > 0 && Double.isFinite(values[i])) {
        x[k] = (timesMs[i] - nowMs) / (double) HOUR;
        y[k] = Math.log(values[i]);
        v[k] = values[i];
        k++;
      }
    }
    if (k < 3) {
      return null;
    }
    SenSlope.Fit log = SenSlope.fit(x, y, k, CONFIDENCE);
    boolean step = StepCheck.stepFitsBetter(x, y, k, log);
    return reading(signal, GrowthReading.Window.CHOSEN, nowMs + Math.round(x[0] * HOUR),
        nowMs + Math.round(x[k - 1] * HOUR), x, v, k, log, log, GrowthReading.Adjustment.NONE,
        step, rate, floor);
  }

  static GrowthReading longWindow(Signal signal, HourlyHistory h, DailyProfile profile,
      long nowMs, long spanMs, GrowthReading.Window window) {
    long from = nowMs - spanMs;
    if (h.hours() == 0 || h.hourStartMs(0) > from + HOUR) {
      return null; // the job is younger than the window
    }
    int n = h.hours();
    double[] x = new double[n];
    double[] y = new double[n];
    double[] v = new double[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      long start = h.hourStartMs(i);
      double m = h.median(i);
      if (start >= from && start + HOUR <= nowMs && h.count(i) > 0 && m > 0) {
        long mid = start + HOUR / 2;
        x[k] = (mid - nowMs) / (double) HOUR;
        y[k] = Math.log(m) - profile.at(mid);
        v[k] = m;
        k++;
      }
    }
    if (k < 0.75 * spanMs / HOUR) {
      return null;
    }
    SenSlope.Fit log = SenSlope.fit(x, y, k, CONFIDENCE);
    long first = nowMs + Math.round(x[0] * HOUR);
    long last = nowMs + Math.round(x[k - 1] * HOUR);
    boolean step = StepCheck.stepFitsBetter(x, y, k, log);
    log = log.widened(SlowNoise.inflation(x, y, k, log));
    double f = factor(signal);
    return reading(signal, window, first, last, x, v, k, log, null,
        GrowthReading.Adjustment.DAILY_CYCLE, step, f * LONG_RATE, f * LONG_LOWER);
  }

  /**
   * @param fitOfLogs the fit of {@code log(v)} as observed when {@code log} was fitted to exactly
   *     those points (its interval may be widened since), else null: the compounding curve is
   *     then fitted anew
   */
  private static GrowthReading reading(Signal signal, GrowthReading.Window window, long first,
      long last, double[] x, double[] v, int n, SenSlope.Fit log, SenSlope.Fit fitOfLogs,
      GrowthReading.Adjustment adjustment, boolean step, double rate, double floor) {
    SenSlope.Fit line = SenSlope.line(x, v, n); // its slope and level only
    int edge = Math.max(1, n / 10);
    double fromValue = median(v, 0, edge);
    double toValue = median(v, n - edge, n);
    double r = Math.expm1(log.slope());
    double lo = Math.expm1(log.lower());
    double hi = Math.expm1(log.upper());
    // and by more than the signal's smallest meaningful change (1 MiB, 250 ms): a young job's
    // RocksDB files drift its size by kilobytes at a fast relative pace
    boolean growing = r >= rate && lo >= floor && !step
        && toValue - fromValue >= signal.absoluteFloor();
    // minutes of points cannot tell compounding from a line; extrapolating them as compounding
    // would reach any limit at once
    boolean compounding = last - first >= HOUR
        && compoundingFitsBetter(x, v, n, line, fitOfLogs);
    return new GrowthReading(signal, window, first, last, n, r, lo, hi, fromValue, toValue,
        line.slope(), compounding, adjustment, step, growing);
  }

  /**
   * Whether a compounding curve fits the points at least as well as a straight line, by their
   * median absolute deviations. Over a few hours the two are indistinguishable and compounding
   * wins the tie: it is the shape of keyed state that keeps gaining keys, and it forecasts the
   * earlier timeout. Under an hour of points is always read as a line. Both are fitted to the
   * values as observed (before any adjustment); {@code fitOfLogs}, when not null, is that fit of
   * the logs already made (only its line is read, not its interval).
   */
  private static boolean compoundingFitsBetter(double[] x, double[] v, int n, SenSlope.Fit line,
      SenSlope.Fit fitOfLogs) {
    SenSlope.Fit log = fitOfLogs;
    if (log == null) {
      double[] logs = new double[n];
      for (int i = 0; i < n; i++) {
        logs[i] = Math.log(v[i]);
      }
      log = SenSlope.line(x, logs, n);
    }
    double[] a = new double[n];
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = Math.abs(v[i] - Math.exp(log.at(x[i])));
      b[i] = Math.abs(v[i] - line.at(x[i]));
    }
    return median(a, 0, n) <= median(b, 0, n) * 1.02;
  }

  private static double median(double[] v, int from, int to) {
    double[] c = Arrays.copyOfRange(v, from, to);
    Arrays.sort(c);
    int n = c.length;
    return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
  }
}
