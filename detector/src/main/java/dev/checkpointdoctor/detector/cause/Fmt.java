package dev.checkpointdoctor.detector.cause;

import java.util.Locale;

/** Numbers as an operator reads them in a sentence. */
final class Fmt {
  private Fmt() {}

  static String num(double v) {
    if (!Double.isFinite(v)) {
      return "?";
    }
    if (Math.abs(v) >= 100 || v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    return String.format(Locale.ROOT, "%.2g", v);
  }

  static String pct(double ratio) {
    return String.format(Locale.ROOT, "%.0f %%", ratio * 100);
  }

  static String bytes(double b) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double v = b;
    while (Math.abs(v) >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return (u == 0 ? num(v) : String.format(Locale.ROOT, "%.1f", v)) + " " + units[u];
  }

  static String ms(double ms) {
    if (ms >= 120_000) {
      return String.format(Locale.ROOT, "%.1f min", ms / 60_000);
    }
    if (ms >= 1000) {
      return String.format(Locale.ROOT, "%.1f s", ms / 1000);
    }
    return num(ms) + " ms";
  }

  static String hours(double h) {
    if (h < 1) {
      return String.format(Locale.ROOT, "~%.0f min", Math.max(1, h * 60));
    }
    return String.format(Locale.ROOT, "~%.0f h", h);
  }
}
