package dev.checkpointdoctor.api.bootstrap;

import dev.checkpointdoctor.detector.model.PromValues;

/**
 * Sample values as the Prometheus API writes them: decimal strings ({@code "2060"}, {@code
 * "0.25"}, {@code "1.5e+09"}) and {@code NaN}, {@code +Inf}, {@code -Inf}. A history holds
 * hundreds of millions of them, so plain decimals are read without building a String; exact for
 * up to 15 significant digits and a power of ten up to 22 (both exact in a double, so one
 * division rounds correctly), anything else goes to {@link PromValues#parse}.
 */
final class PromNumbers {
  private static final double[] POW10 = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POW10.length; i++) {
      POW10[i] = p;
      p *= 10;
    }
  }

  private PromNumbers() {}

  static double parse(char[] c, int off, int len) {
    if (len == 0) {
      throw new NumberFormatException("empty value");
    }
    int i = off;
    int end = off + len;
    boolean negative = false;
    if (c[i] == '-' || c[i] == '+') {
      negative = c[i] == '-';
      i++;
    }
    long mantissa = 0;
    int digits = 0;
    int fraction = 0;
    boolean dot = false;
    boolean any = false;
    for (; i < end; i++) {
      char ch = c[i];
      if (ch >= '0' && ch <= '9') {
        any = true;
        if (mantissa == 0 && ch == '0') {
          if (dot) {
            fraction++;
          }
          continue;
        }
        if (++digits > 15) {
          return slow(c, off, len);
        }
        mantissa = mantissa * 10 + (ch - '0');
        if (dot) {
          fraction++;
        }
      } else if (ch == '.' && !dot) {
        dot = true;
      } else {
        return slow(c, off, len); // exponent, Inf, NaN
      }
    }
    if (!any) {
      return slow(c, off, len);
    }
    if (fraction > 22) {
      return slow(c, off, len);
    }
    double v = fraction == 0 ? mantissa : mantissa / POW10[fraction];
    return negative ? -v : v;
  }

  private static double slow(char[] c, int off, int len) {
    return PromValues.parse(new String(c, off, len));
  }
}
