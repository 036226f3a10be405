package dev.checkpointdoctor.eval.family2;

import java.util.SplittableRandom;

/** Identifiers as Flink, Kubernetes and the cloud spell them. */
final class Names {
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final char[] POD_SUFFIX = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  private Names() {}

  /**
   * The Prometheus reporter's label value filter: every character outside {@code
   * [a-zA-Z0-9:_]} becomes {@code _} ({@code metrics.reporter.prom.filterLabelValueCharacters},
   * on by default).
   */
  static String sanitize(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == ':' || c == '_';
      b.append(ok ? c : '_');
    }
    return b.toString();
  }

  static String hex(SplittableRandom rng, int n) {
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = HEX[rng.nextInt(16)];
    }
    return new String(c);
  }

  /** The random part Kubernetes appends to ReplicaSet pods (consonants and digits). */
  static String podSuffix(SplittableRandom rng, int n) {
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = POD_SUFFIX[rng.nextInt(POD_SUFFIX.length)];
    }
    return new String(c);
  }

  /** A pod UID: 8-4-4-4-12 hex. */
  static String uuid(SplittableRandom rng) {
    return hex(rng, 8) + "-" + hex(rng, 4) + "-" + hex(rng, 4) + "-" + hex(rng, 4) + "-"
        + hex(rng, 12);
  }

  static String ip(int a, int b, int c, int d) {
    return a + "." + b + "." + c + "." + d;
  }
}
