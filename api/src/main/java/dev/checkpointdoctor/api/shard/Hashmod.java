package dev.checkpointdoctor.api.shard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Prometheus' {@code hashmod} relabel action, computed the same way so that this service and the
 * Prometheus that shards its remote-write agree on which shard a job belongs to: the source label
 * values joined by the separator ({@code ;} by default, a missing label is an empty value), the
 * MD5 digest of that text's UTF-8 bytes, its last 8 bytes read as a big-endian unsigned 64-bit
 * integer, modulo the modulus. {@code HashmodPrometheusIT} compares it with a real Prometheus.
 */
public final class Hashmod {
  /** Prometheus' default relabel separator. */
  public static final String SEPARATOR = ";";

  private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has MD5", e);
    }
  });

  private Hashmod() {}

  /** The hashmod of one already-joined value. */
  public static long of(String joined, long modulus) {
    if (modulus <= 0) {
      throw new IllegalArgumentException("modulus must be positive, got " + modulus);
    }
    byte[] digest = MD5.get().digest(joined.getBytes(StandardCharsets.UTF_8));
    long last8 = 0;
    for (int i = 8; i < 16; i++) {
      last8 = (last8 << 8) | (digest[i] & 0xff);
    }
    return Long.remainderUnsigned(last8, modulus);
  }

  /** The hashmod of label values joined by {@link #SEPARATOR} (null counts as empty). */
  public static long of(List<String> values, long modulus) {
    return of(join(values), modulus);
  }

  static String join(List<String> values) {
    if (values.size() == 1) {
      return values.get(0) == null ? "" : values.get(0);
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        b.append(SEPARATOR);
      }
      b.append(values.get(i) == null ? "" : values.get(i));
    }
    return b.toString();
  }
}
