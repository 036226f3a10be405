package dev.checkpointdoctor.detector.trend;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import java.util.Arrays;
import java.util.List;

/**
 * How the job's input rate changed over a window, for the trend test of a job too young to know
 * its daily cycle: checkpoints that grow because the evening peak is coming are not state growth.
 * Per scope of records-in, the change from the median of the window's first
 * {@value #EDGE_MINUTES} minutes to that of its last ones; the job's is the median over scopes.
 */
public final class LoadTrend {
  static final int EDGE_MINUTES = 20;
  private static final long EDGE_MS = EDGE_MINUTES * 60_000L;

  private LoadTrend() {}

  /**
   * @return the input rate's change per hour, in logs (0.1 = about 10 % an hour), or NaN when no
   *     scope has enough points at both ends
   */
  public static double logRatePerHour(List<SeriesHistory> recordsIn, long fromMs, long toMs) {
    if (recordsIn == null || recordsIn.isEmpty() || toMs - fromMs < 3 * EDGE_MS) {
      return Double.NaN;
    }
    double[] rates = new double[recordsIn.size()];
    int k = 0;
    double hours = (toMs - fromMs - EDGE_MS) / 3_600_000.0;
    for (SeriesHistory h : recordsIn) {
      double start = median(h, fromMs, fromMs + EDGE_MS);
      double end = median(h, toMs - EDGE_MS, toMs + 1);
      if (start > 0 && end > 0) {
        rates[k++] = Math.log(end / start) / hours;
      }
    }
    if (k == 0) {
      return Double.NaN;
    }
    Arrays.sort(rates, 0, k);
    return k % 2 == 1 ? rates[k / 2] : (rates[k / 2 - 1] + rates[k / 2]) / 2;
  }

  private static double median(SeriesHistory h, long fromMs, long toMs) {
    double[] v = new double[h.size()];
    int n = 0;
    for (int i = 0; i < h.size(); i++) {
      long t = h.timeMs(i);
      if (t >= fromMs && t < toMs && Double.isFinite(h.value(i))) {
        v[n++] = h.value(i);
      }
    }
    if (n < 3) {
      return Double.NaN;
    }
    Arrays.sort(v, 0, n);
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
