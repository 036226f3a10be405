package dev.checkpointdoctor.detector.model;

import java.util.List;

/**
 * One ranked explanation of a job's anomaly.
 *
 * @param cause a cause id such as {@code disk_throttling}; the API and alert labels use it as is
 * @param confidence in [0, 1]
 */
public record CauseHypothesis(
    String cause, double confidence, List<Evidence> evidence, String remedy, String docsUrl) {

  public CauseHypothesis {
    if (!(confidence >= 0 && confidence <= 1)) {
      throw new IllegalArgumentException("confidence must be in [0,1]: " + confidence);
    }
    evidence = evidence == null ? List.of() : List.copyOf(evidence);
  }

  /**
   * What was seen, where, against what was expected, in one plain sentence; the numbers the
   * sentence quotes are carried as fields, so a reader (and a test) can check the claim against
   * them without parsing the sentence.
   *
   * @param observed the value now (a median, a level, a share), in the signal's unit
   * @param expected what it is compared with: the job's own earlier value, the peer median, or a
   *     bound (see {@code relation})
   * @param relation the claim about {@code observed} against {@code expected}: {@link
   *     #HIGHER} or {@link #LOWER} (than before or than its peers), {@link #RISING} or {@link
   *     #FALLING} (a trend from {@code expected} to {@code observed}), {@link #FLAT} (at {@code
   *     observed} ± {@code spread}), {@link #WITHIN} (at most the normal bound {@code expected}:
   *     a healthy sign), {@link #AT_LEAST} (at or above the threshold {@code expected}), or
   *     {@link #CONTEXT} (no comparison claimed)
   * @param spread half-width of the observed range for {@link #FLAT}, else NaN
   * @param confidence the statistical confidence of the claim (1 − p of the test that decided it),
   *     or NaN when no test decided it
   * @param sinceMs event time at which the signal left its normal, or -1 when not known
   */
  public record Evidence(
      String signal, String scope, double observed, double expected, String relation,
      double spread, double confidence, long sinceMs, String sentence) {
    public static final String HIGHER = "higher";
    public static final String LOWER = "lower";
    public static final String RISING = "rising";
    public static final String FALLING = "falling";
    public static final String FLAT = "flat";
    public static final String WITHIN = "within";
    public static final String AT_LEAST = "at_least";
    public static final String CONTEXT = "context";

    /** Evidence that claims no comparison (older snapshots and callers). */
    public Evidence(String signal, String scope, double observed, double expected,
        String sentence) {
      this(signal, scope, observed, expected, CONTEXT, Double.NaN, Double.NaN, -1, sentence);
    }
  }
}
