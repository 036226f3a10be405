package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.trend.GrowthReading;
import dev.checkpointdoctor.detector.trend.GrowthTest;
import java.util.Locale;

/**
 * How a trend reading is quoted: the window is always the data's own (a two-minute-old job has
 * two minutes of history, not "90 min ago"), and the rate comes with its confidence interval.
 */
final class TrendWords {
  private TrendWords() {}

  /**
   * "since 14:05 UTC (2 min of history)", "since 12:05 UTC (the last 119 min)", "over the last
   * day (hourly medians since 14:00 UTC on 2026-11-29)".
   *
   * @param historyStart whether the window starts at the first point the job has
   */
  static String window(GrowthReading r, boolean historyStart) {
    return switch (r.window()) {
      case DAY, THREE_DAYS -> String.format(Locale.ROOT, "over the last %s (hourly medians "
          + "since %s)", r.window() == GrowthReading.Window.DAY ? "day" : "three days",
          JobEvidence.dateTime(r.fromMs()));
      default -> "since " + JobEvidence.clock(r.fromMs()) + (historyStart
          ? " (" + span(r.toMs() - r.fromMs()) + " of history)"
          : " (the last " + span(r.toMs() - r.fromMs()) + ")");
    };
  }

  /** "+3.1 % per hour (99 % interval 2.2 to 4.0 %), net of the job's daily cycle". */
  static String rate(GrowthReading r) {
    if (r.toMs() - r.fromMs() < 3_600_000L) {
      // a share per hour extrapolated from minutes is a meaningless number
      return String.format(Locale.ROOT, "x%.1f in %s", r.toValue() / r.fromValue(),
          span(r.toMs() - r.fromMs()));
    }
    String interval = Double.isFinite(r.lower()) && Double.isFinite(r.upper())
        ? String.format(Locale.ROOT, " (%.0f %% interval %s to %s)", GrowthTest.CONFIDENCE * 100,
            pct(r.lower()), pct(r.upper()))
        : "";
    interval = " per hour" + interval;
    String net = switch (r.adjustment()) {
      case DAILY_CYCLE -> ", net of the job's daily cycle";
      case INPUT_RATE -> ", net of the rise of the input rate";
      default -> "";
    };
    return "+" + pct(r.rate()) + interval + net;
  }

  static String pct(double share) {
    double p = share * 100;
    return Math.abs(p) >= 10 ? String.format(Locale.ROOT, "%.0f %%", p)
        : String.format(Locale.ROOT, "%.1f %%", p);
  }

  /** "40 s", "2 min", "95 min", "2.0 h", "3.0 days". */
  static String span(long ms) {
    if (ms < 120_000L) {
      return Math.max(1, Math.round(ms / 1000.0)) + " s";
    }
    if (ms < 2 * 3_600_000L) {
      return Math.max(1, Math.round(ms / 60_000.0)) + " min";
    }
    if (ms < 48 * 3_600_000L) {
      return String.format(Locale.ROOT, "%.1f h", ms / 3_600_000.0);
    }
    return String.format(Locale.ROOT, "%.1f days", ms / 86_400_000.0);
  }
}
