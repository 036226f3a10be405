package dev.checkpointdoctor.api.app;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Prometheus writes them: units {@code y w d h m s ms}, largest first, each at most
 * once, e.g. {@code 500ms}, {@code 1h30m}, {@code 1d12h}, {@code 2w}. A year is 365 days and a
 * week 7, as in Prometheus. Settings and log lines use this syntax both ways, so what the service
 * prints can be pasted back as a flag.
 */
public final class PromDuration {
  private static final Pattern SYNTAX = Pattern.compile(
      "(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?(?:(\\d+)ms)?");
  private static final long[] UNIT_MS = {365L * 86_400_000L, 7L * 86_400_000L, 86_400_000L,
      3_600_000L, 60_000L, 1000L, 1L};
  /** About 292 million years: what fits in a long of milliseconds, and then some margin. */
  private static final long MAX_MS = Long.MAX_VALUE / 4;

  private PromDuration() {}

  /**
   * Parses {@code s}; throws {@link IllegalArgumentException} with a message that shows the
   * syntax when it does not parse or is zero.
   */
  public static Duration parsePositive(String s) {
    String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
    Matcher m = SYNTAX.matcher(t);
    if (!t.isEmpty() && m.matches()) {
      long total = 0;
      for (int i = 0; i < UNIT_MS.length; i++) {
        String n = m.group(i + 1);
        if (n == null) {
          continue;
        }
        if (n.length() > 12) {
          throw new IllegalArgumentException("is too long a duration: \"" + s + "\"");
        }
        total += Long.parseLong(n) * UNIT_MS[i];
        if (total > MAX_MS) {
          throw new IllegalArgumentException("is too long a duration: \"" + s + "\"");
        }
      }
      if (total > 0) {
        return Duration.ofMillis(total);
      }
    }
    throw new IllegalArgumentException("must be a positive duration like 30s, 10m, 1h30m or 3d,"
        + " got \"" + s + "\"");
  }

  /** {@code d} in the same syntax, largest unit first: 90 s is {@code 1m30s}, 3 days {@code 3d}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms <= 0) {
      return ms == 0 ? "0s" : "-" + format(Duration.ofMillis(-ms));
    }
    StringBuilder sb = new StringBuilder();
    String[] names = {"d", "h", "m", "s", "ms"};
    long[] units = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};
    for (int i = 0; i < units.length; i++) {
      long n = ms / units[i];
      if (n > 0) {
        sb.append(n).append(names[i]);
        ms -= n * units[i];
      }
    }
    return sb.toString();
  }
}
