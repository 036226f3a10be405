package dev.checkpointdoctor.detector.model;

/**
 * Sample values as Prometheus writes them in text: a Go float, or {@code NaN}, {@code +Inf},
 * {@code Inf}, {@code -Inf}. One reader for the exposition-format histories the offline tools read
 * and the JSON answers of a query API, which quote values the same way.
 */
public final class PromValues {
  private PromValues() {}

  /**
   * @throws NumberFormatException when {@code s} is none of the above
   */
  public static double parse(String s) {
    return switch (s) {
      case "NaN" -> Double.NaN;
      case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(s);
    };
  }
}
