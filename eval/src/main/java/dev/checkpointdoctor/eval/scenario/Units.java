package dev.checkpointdoctor.eval.scenario;

import java.util.Locale;

/**
 * A signal's value as people read it, in the signal's unit: {@code 4.9 s}, {@code 826 ms},
 * {@code 27.2 MiB}, {@code 97 %}, {@code 230 ms/s}, {@code 1.8k/s}; counts and flags as plain numbers. The same
 * rules as the web pages.
 */
final class Units {
  private Units() {}

  static String format(double v, String unit) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    double a = Math.abs(v);
    return switch (unit) {
      case "ms" -> v == 0 ? "0 ms" : a >= 60_000 ? n(v / 60_000) + " min"
          : a >= 1000 ? n(v / 1000) + " s" : n(v) + " ms";
      case "s" -> v == 0 ? "0 s" : a >= 3600 ? n(v / 3600) + " h" : a >= 60 ? n(v / 60) + " min"
          : n(v) + " s";
      case "bytes", "bytes/s" -> bytes(v) + (unit.equals("bytes/s") ? "/s" : "");
      case "ratio" -> (v == 0 ? "0" : n(v * 100)) + " %";
      case "count", "bool" -> v == Math.rint(v) && a < 1e15 ? Long.toString((long) v)
          : String.format(Locale.ROOT, "%.2f", v);
      case "1/s" -> plain(v) + "/s";
      default -> plain(v) + (unit.isEmpty() ? "" : " " + unit);
    };
  }

  private static String bytes(double v) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    double x = v;
    while (Math.abs(x) >= 1024 && i < units.length - 1) {
      x /= 1024;
      i++;
    }
    return (x == 0 ? "0" : n(x)) + " " + units[i];
  }

  private static String plain(double v) {
    double a = Math.abs(v);
    return v == 0 ? "0" : a >= 1e6 ? n(v / 1e6) + "M" : a >= 1e3 ? n(v / 1e3) + "k" : n(v);
  }

  /** No decimals from 100 on, one below. */
  private static String n(double x) {
    return String.format(Locale.ROOT, Math.abs(x) >= 100 ? "%.0f" : "%.1f", x);
  }
}
