package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;

/**
 * How closely one checkpoint signal follows the job's input rate, learned from the job's own
 * past: once an hour, the signal's log slope over the last two hours is paired with the input
 * rate's log slope over the same window ({@link LoadTrend}), and a line through those pairs gives
 * the elasticity (1 = the signal grows as fast as the load, 0 = not at all) with a confidence
 * interval. A full snapshot of a state that barely follows the load has an elasticity near 0; an
 * incremental checkpoint's size, near 1.
 *
 * <p>Why it is needed: a job too young to know its daily cycle takes the input rate's rise out of
 * a signal's growth before the trend test. Without knowing how much of the rise the signal
 * follows, only "all of it" is safe, and that hid a state growing 3 %/h for hours on every morning
 * of the cycle. The line has an intercept, so a steady growth during the pairs shifts the line
 * rather than the elasticity. Pairs are taken within one deployment (a redeploy starts again).
 * Windows one hour apart overlap by half; the interval is kept at {@value #Z} standard errors.
 */
public final class LoadElasticity {
  static final long SPACING_MS = HourlyHistory.HOUR_MS;
  /** Pairs needed before the elasticity is used: six hours of the job's running. */
  static final int MIN_PAIRS = 6;
  /** Standard errors on either side of the estimate (about 99 % two-sided). */
  static final double Z = 2.576;
  /** The input rate must have moved this much (logs/hour, RMS over the pairs) to tell anything. */
  static final double MIN_LOAD_SPREAD = 0.01;

  private long deploymentMs = Long.MIN_VALUE;
  private long lastMs = Long.MIN_VALUE;
  private int n;
  private double sumL;
  private double sumS;
  private double sumLL;
  private double sumLS;
  private double sumSS;

  /**
   * The elasticity learned: its estimate and standard error.
   *
   * @param beta the estimate (not clamped: a noisy small elasticity may come out below 0)
   * @param se its standard error
   * @param pairs the pairs it comes from
   */
  public record Estimate(double beta, double se, int pairs) {
    /** Lower end of the {@value #Z}-standard-error interval, clamped to [0, 2]. */
    public double lower() {
      return clamp(beta - Z * se);
    }

    /** Upper end of the interval, clamped to [0, 2]. */
    public double upper() {
      return clamp(beta + Z * se);
    }

    /**
     * The bound of {@code beta * load} at {@value #Z} standard errors on the side away from 0
     * ({@code towardsZero} false) or towards it, by the delta method: both the elasticity and
     * the load's slope are uncertain.
     *
     * @param loadSe the load slope's standard error
     */
    public double bound(double load, double loadSe, boolean towardsZero) {
      double b = Math.max(0, beta);
      double mean = b * load;
      double sd = Math.sqrt(load * load * se * se + b * b * loadSe * loadSe);
      double away = Math.signum(load) * Z * sd;
      return towardsZero ? (Math.abs(mean) <= Z * sd ? 0 : mean - away) : mean + away;
    }
  }

  /**
   * Adds a pair when an hour passed since the last one.
   *
   * @param deployedAtMs the job's last deployment: pairs from before it are forgotten
   */
  public void observe(long nowMs, long deployedAtMs, SeriesHistory raw,
      List<SeriesHistory> recordsIn) {
    if (deployedAtMs != deploymentMs) {
      deploymentMs = deployedAtMs;
      lastMs = Long.MIN_VALUE;
      n = 0;
      sumL = sumS = sumLL = sumLS = sumSS = 0;
    }
    if (raw == null || (lastMs != Long.MIN_VALUE && nowMs - lastMs < SPACING_MS)) {
      return;
    }
    long from = Math.max(nowMs - GrowthTest.RECENT_MS, deployedAtMs);
    Double s = signalSlope(raw, from, nowMs);
    if (s == null) {
      return;
    }
    SenSlope.Fit load = LoadTrend.fit(recordsIn, from, nowMs, nowMs, GrowthTest.CONFIDENCE);
    if (load == null) {
      return;
    }
    lastMs = nowMs;
    add(load.slope(), s);
  }

  void add(double l, double s) {
    n++;
    sumL += l;
    sumS += s;
    sumLL += l * l;
    sumLS += l * s;
    sumSS += s * s;
  }

  private static Double signalSlope(SeriesHistory raw, long fromMs, long nowMs) {
    double[] x = new double[raw.size()];
    double[] y = new double[raw.size()];
    int k = 0;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (int i = 0; i < raw.size(); i++) {
      long t = raw.timeMs(i);
      double v = raw.value(i);
      if (t >= fromMs && t <= nowMs && v > 0 && Double.isFinite(v)) {
        x[k] = (t - nowMs) / (double) HourlyHistory.HOUR_MS;
        y[k] = Math.log(v);
        first = Math.min(first, t);
        last = Math.max(last, t);
        k++;
      }
    }
    if (k < GrowthTest.MIN_RECENT_POINTS || last - first < GrowthTest.MIN_RECENT_SPAN_MS) {
      return null;
    }
    return SenSlope.fit(x, y, k, GrowthTest.CONFIDENCE).slope();
  }

  /** The elasticity learned so far, or null with too few pairs or a load that hardly moved. */
  public Estimate estimate() {
    if (n < MIN_PAIRS) {
      return null;
    }
    double ml = sumL / n;
    double ms = sumS / n;
    double sll = sumLL - n * ml * ml;
    double sls = sumLS - n * ml * ms;
    double sss = sumSS - n * ms * ms;
    if (!(sll > 0) || Math.sqrt(sll / n) < MIN_LOAD_SPREAD) {
      return null;
    }
    double beta = sls / sll;
    double residual = Math.max(0, sss - beta * sls);
    double se = Math.sqrt(residual / (n - 2) / sll);
    return new Estimate(beta, se, n);
  }

  private static double clamp(double v) {
    return Math.max(0, Math.min(2, v));
  }

  public void writeTo(DataOutput out) throws IOException {
    out.writeLong(deploymentMs);
    out.writeLong(lastMs);
    out.writeInt(n);
    for (double d : new double[] {sumL, sumS, sumLL, sumLS, sumSS}) {
      out.writeDouble(d);
    }
  }

  public static LoadElasticity readFrom(DataInput in) throws IOException {
    LoadElasticity e = new LoadElasticity();
    e.deploymentMs = in.readLong();
    e.lastMs = in.readLong();
    e.n = in.readInt();
    if (e.n < 0) {
      throw new IOException("load elasticity of " + e.n + " pairs");
    }
    e.sumL = in.readDouble();
    e.sumS = in.readDouble();
    e.sumLL = in.readDouble();
    e.sumLS = in.readDouble();
    e.sumSS = in.readDouble();
    return e;
  }
}
