package dev.checkpointdoctor.detector.trend;

/**
 * The shape of a job's daily cycle, learned from up to a week of hourly medians: a least-squares
 * fit of the logs to a level, a straight trend and the first {@value #HARMONICS} daily harmonics.
 * Only the harmonics are kept: dividing by them takes the cycle out of a signal and leaves its
 * level and its growth. A smooth fit over days is used rather than "the same hour yesterday",
 * whose own noise would look like a trend when a two-hour window is compared with it; and the
 * trend term keeps a growth that is already going on out of the shape.
 */
final class DailyProfile {
  static final int HARMONICS = 3;
  /**
   * History needed before the shape is trusted: two days, so every hour is seen twice and the
   * shape is not confused with a trend.
   */
  static final long MIN_HISTORY_MS = 48 * HourlyHistory.HOUR_MS;
  static final long MAX_HISTORY_MS = 7 * 24 * HourlyHistory.HOUR_MS;
  private static final double DAY_MS = 24.0 * HourlyHistory.HOUR_MS;
  private static final int TERMS = 2 + 2 * HARMONICS;
  /** Hours needed on each side of a redeploy to give the hours since a level of their own. */
  static final int MIN_STEP_HOURS = 3;

  private final double[] coef;
  private final boolean step;

  private DailyProfile(double[] coef, boolean step) {
    this.coef = coef;
    this.step = step;
  }

  /** How many times the level since the deployment is the level before it; 1 without a step. */
  double levelStep() {
    return step ? Math.exp(coef[TERMS]) : 1;
  }

  /** The profile from the closed hours before {@code nowMs}, or null with too little history. */
  static DailyProfile fit(HourlyHistory h, long nowMs) {
    return fit(h, nowMs, Long.MIN_VALUE);
  }

  /**
   * The profile from the closed hours before {@code nowMs}, or null with too little history.
   *
   * @param deployedAtMs the job's last deployment: a redeploy may move the level (a new normal),
   *     and a level step the level and trend terms cannot follow would be read into the
   *     harmonics, bending the shape by as much as the step; the hours since get a level of
   *     their own (when there are {@value #MIN_STEP_HOURS} hours on each side of it)
   */
  static DailyProfile fit(HourlyHistory h, long nowMs, long deployedAtMs) {
    int n = h.hours();
    if (n == 0 || nowMs - h.hourStartMs(0) < MIN_HISTORY_MS) {
      return null;
    }
    int before = 0;
    int after = 0;
    for (int i = 0; i < n; i++) {
      if (usable(h, i, nowMs)) {
        if (h.hourStartMs(i) + HourlyHistory.HOUR_MS / 2 >= deployedAtMs) {
          after++;
        } else {
          before++;
        }
      }
    }
    boolean step = deployedAtMs != Long.MIN_VALUE && before >= MIN_STEP_HOURS
        && after >= MIN_STEP_HOURS;
    int terms = step ? TERMS + 1 : TERMS;
    double[][] a = new double[terms][terms];
    double[] b = new double[terms];
    double[] row = new double[terms];
    int used = 0;
    for (int i = 0; i < n; i++) {
      if (!usable(h, i, nowMs)) {
        continue;
      }
      long mid = h.hourStartMs(i) + HourlyHistory.HOUR_MS / 2;
      terms(mid, nowMs, row);
      if (step) {
        row[TERMS] = mid >= deployedAtMs ? 1 : 0;
      }
      double y = Math.log(h.median(i));
      for (int r = 0; r < terms; r++) {
        b[r] += row[r] * y;
        for (int c = 0; c < terms; c++) {
          a[r][c] += row[r] * row[c];
        }
      }
      used++;
    }
    if (used < 24) {
      return null;
    }
    double[] coef = solve(a, b);
    return coef == null ? null : new DailyProfile(coef, step);
  }

  /** The cycle at {@code t}, in logs (0 on average over a day). */
  double at(long t) {
    double phase = 2 * Math.PI * Math.floorMod(t, (long) DAY_MS) / DAY_MS;
    double s = 0;
    for (int k = 1; k <= HARMONICS; k++) {
      s += coef[2 * k] * Math.cos(k * phase) + coef[2 * k + 1] * Math.sin(k * phase);
    }
    return s;
  }

  private static boolean usable(HourlyHistory h, int i, long nowMs) {
    long start = h.hourStartMs(i);
    return start >= nowMs - MAX_HISTORY_MS && start + HourlyHistory.HOUR_MS <= nowMs
        && h.count(i) > 0 && h.median(i) > 0;
  }

  private static void terms(long t, long nowMs, double[] row) {
    double phase = 2 * Math.PI * Math.floorMod(t, (long) DAY_MS) / DAY_MS;
    row[0] = 1;
    row[1] = (t - nowMs) / DAY_MS;
    for (int k = 1; k <= HARMONICS; k++) {
      row[2 * k] = Math.cos(k * phase);
      row[2 * k + 1] = Math.sin(k * phase);
    }
  }

  /** Gaussian elimination with partial pivoting; null when the system is singular. */
  private static double[] solve(double[][] a, double[] b) {
    int n = b.length;
    for (int p = 0; p < n; p++) {
      int max = p;
      for (int r = p + 1; r < n; r++) {
        if (Math.abs(a[r][p]) > Math.abs(a[max][p])) {
          max = r;
        }
      }
      double[] t = a[p];
      a[p] = a[max];
      a[max] = t;
      double tb = b[p];
      b[p] = b[max];
      b[max] = tb;
      if (Math.abs(a[p][p]) < 1e-9) {
        return null;
      }
      for (int r = p + 1; r < n; r++) {
        double f = a[r][p] / a[p][p];
        b[r] -= f * b[p];
        for (int c = p; c < n; c++) {
          a[r][c] -= f * a[p][c];
        }
      }
    }
    double[] x = new double[n];
    for (int r = n - 1; r >= 0; r--) {
      double s = b[r];
      for (int c = r + 1; c < n; c++) {
        s -= a[r][c] * x[c];
      }
      x[r] = s / a[r][r];
    }
    return x;
  }
}
