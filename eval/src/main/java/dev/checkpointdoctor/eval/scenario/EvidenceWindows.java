package dev.checkpointdoctor.eval.scenario;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The oldest time span an evidence sentence quotes ("90 min ago", "over the last 2 h"), so the
 * evaluation can flag evidence that reaches back further than the job has existed.
 */
final class EvidenceWindows {
  private static final String SPAN = "(\\d+(?:\\.\\d+)?)\\s*(s|sec|seconds?|min|minutes?|h|hours?"
      + "|d|days?)\\b";
  private static final Pattern AGO = Pattern.compile(SPAN + "\\s+ago");
  private static final Pattern LAST = Pattern.compile(
      "(?:last|past|previous|over)\\s+(?:the\\s+)?(?:last\\s+)?" + SPAN);

  private EvidenceWindows() {}

  /** The longest span quoted, in ms, or 0 when the sentence quotes none. */
  static long longestMs(String sentence) {
    long max = 0;
    for (Pattern p : new Pattern[] {AGO, LAST}) {
      Matcher m = p.matcher(sentence.toLowerCase(Locale.ROOT));
      while (m.find()) {
        max = Math.max(max, toMs(Double.parseDouble(m.group(1)), m.group(2)));
      }
    }
    return max;
  }

  private static long toMs(double n, String unit) {
    double ms = switch (unit.charAt(0)) {
      case 's' -> 1_000;
      case 'm' -> 60_000;
      case 'h' -> 3_600_000;
      default -> 86_400_000;
    };
    return Math.round(n * ms);
  }
}
