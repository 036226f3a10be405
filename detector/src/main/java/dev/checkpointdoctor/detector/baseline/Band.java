package dev.checkpointdoctor.detector.baseline;

/**
 * The normal band of a {@link RobustBaseline}: {@code lower = expected - h}, {@code upper =
 * expected + h}. All components are NaN while the baseline has no observation at all.
 *
 * @param expected weighted median of the window
 * @param lower lower edge of the normal band
 * @param upper upper edge of the normal band
 * @param spread robust standard deviation, {@code 1.4826 x weighted MAD} (may be 0)
 */
public record Band(double expected, double lower, double upper, double spread) {

  static final Band EMPTY = new Band(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  /** The half-width {@code h} of the band (never below the signal's absolute floor). */
  public double halfWidth() {
    return upper - expected;
  }

  /** True when the baseline had at least one observation when this band was computed. */
  public boolean defined() {
    return !Double.isNaN(expected);
  }
}
