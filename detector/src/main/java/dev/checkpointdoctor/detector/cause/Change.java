package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.Signal;

/**
 * One series now against its own past, decided by a test instead of a fixed multiplier: a job
 * whose GC time wobbles between 2 and 4 ms/s has moved at 12 ms/s; one that wobbles between 20
 * and 80 has not.
 *
 * <p>Against the job's earlier values (before the trouble) the test is a one-sided Mann–Whitney
 * U, its variance inflated for serial correlation; when the history holds no earlier values (the
 * trouble is older than the raw history) the present is compared with the learned baseline
 * instead, by a sign test against its median. "Higher" needs both a significant test and a
 * large effect: most present values above most earlier ones.
 *
 * @param now median of the recent values
 * @param before median of the earlier values, or the baseline's expected value
 * @param superiority probability that a recent value exceeds an earlier one (ties half); 0.5 is
 *     no change
 * @param pHigher one-sided p-value of "higher than before"
 * @param pLower one-sided p-value of "lower than before"
 * @param basis {@code earlier values}, {@code earlier spread}, {@code band spread} or
 *     {@code baseline}
 */
record Change(Signal signal, String scope, double now, double before, double superiority,
    double pHigher, double pLower, int recentCount, int earlierCount, String basis) {

  /** Significance a change must reach (one-sided). */
  static final double ALPHA = 0.01;
  /** Share of (recent, earlier) pairs the recent value must win: a shift of about 1.2 sd. */
  static final double MIN_SUPERIORITY = 0.8;
  static final String EARLIER = "earlier values";
  static final String BASELINE = "baseline";
  /** Basis of {@link SpreadTest}: how far above the earlier values' own spread. */
  static final String SPREAD = "earlier spread";
  /** Basis of {@link SpreadTest#pHigherThanBand}: how far above the learned band's spread. */
  static final String BAND = "band spread";

  static Change none(Signal signal, String scope) {
    return new Change(signal, scope, Double.NaN, Double.NaN, 0.5, 1, 1, 0, 0, "none");
  }

  boolean known() {
    return recentCount > 0 && !"none".equals(basis);
  }

  boolean higher() {
    return known() && pHigher <= ALPHA && superiority >= MIN_SUPERIORITY && now > before;
  }

  boolean lower() {
    return known() && pLower <= ALPHA && superiority <= 1 - MIN_SUPERIORITY && now < before;
  }

  /** Higher than before and at least {@code floor} above it (a physically meaningful step). */
  boolean higherBy(double floor) {
    return higherBy(floor, ALPHA);
  }

  /** {@link #higherBy(double)} at significance {@code alpha} instead of {@link #ALPHA}. */
  boolean higherBy(double floor, double alpha) {
    return known() && pHigher <= alpha && superiority >= MIN_SUPERIORITY && now > before
        && now - (Double.isNaN(before) ? 0 : before) >= floor;
  }

  double confidenceHigher() {
    return 1 - pHigher;
  }

  double confidenceLower() {
    return 1 - pLower;
  }

  /** "(Mann–Whitney p < 0.001 over 40 and 200 values)" for sentences. */
  String test(boolean up) {
    double p = up ? pHigher : pLower;
    String pp = p < 0.001 ? "p < 0.001" : String.format(java.util.Locale.ROOT, "p = %.3f", p);
    if (BAND.equals(basis)) {
      return String.format(java.util.Locale.ROOT, "%s above the learned band's spread, "
          + "%d values", pp, recentCount);
    }
    if (SPREAD.equals(basis)) {
      return String.format(java.util.Locale.ROOT, "%s above the earlier values' log spread, "
          + "%d recent against %d earlier values", pp, recentCount, earlierCount);
    }
    return BASELINE.equals(basis)
        ? String.format(java.util.Locale.ROOT, "sign test against the baseline, %s, %d values",
            pp, recentCount)
        : String.format(java.util.Locale.ROOT, "Mann–Whitney %s, %d recent against %d earlier "
            + "values", pp, recentCount, earlierCount);
  }
}
