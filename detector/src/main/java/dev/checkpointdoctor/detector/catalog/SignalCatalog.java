package dev.checkpointdoctor.detector.catalog;

import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.catalog.MetricRule.Source;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The metric names the detector uses and how each is read. Exact names live in an
 * open-addressing table of UTF-8 byte arrays so {@link #accepts} can run on the raw bytes of
 * {@code __name__} without allocating. Two name families are matched by shape instead:
 *
 * <ul>
 *   <li>RocksDB per-state properties when {@code column-family-as-variable=false}: {@value
 *       #OPERATOR_PREFIX}{@code <state>_rocksdb_<prop>} where {@code <prop>} is one of the four
 *       properties used;
 *   <li>per-collector GC time (Flink before 1.19 has no {@code All} group): {@value
 *       #GC_PREFIX}{@code <collector>_Time} where {@code <collector>} is not {@code All}.
 * </ul>
 *
 * <p>Names are made of {@code [a-zA-Z0-9_:]}, as Prometheus and Flink's reporter produce them.
 */
public final class SignalCatalog implements MetricNameFilter {
  static final String OPERATOR_PREFIX = "flink_taskmanager_job_task_operator_";
  static final String CF_PREFIX = OPERATOR_PREFIX + "column_family_rocksdb_";
  static final String ROCKSDB_INFIX = "_rocksdb_";
  static final String GC_PREFIX = "flink_taskmanager_Status_JVM_GarbageCollector_";
  static final String GC_SUFFIX = "_Time";

  private static final byte[] OPERATOR_PREFIX_B = OPERATOR_PREFIX.getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ROCKSDB_INFIX_B = ROCKSDB_INFIX.getBytes(StandardCharsets.US_ASCII);
  private static final byte[] GC_PREFIX_B = GC_PREFIX.getBytes(StandardCharsets.US_ASCII);
  private static final byte[] GC_SUFFIX_B = GC_SUFFIX.getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ALL_B = "All".getBytes(StandardCharsets.US_ASCII);

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final Map<String, MetricRule> exact;
  private final byte[][] table;
  private final int mask;
  /** RocksDB per-CF property suffixes ("estimate_pending_compaction_bytes" ...) by kind. */
  private final Kind[] cfKinds;
  private final byte[][] cfSuffixes;

  private SignalCatalog(Map<String, MetricRule> exact, Kind[] cfKinds) {
    this.exact = Collections.unmodifiableMap(exact);
    this.cfKinds = cfKinds.clone();
    this.cfSuffixes = new byte[cfKinds.length][];
    for (int i = 0; i < cfKinds.length; i++) {
      cfSuffixes[i] = ("_rocksdb_" + cfKinds[i].metricName()).getBytes(StandardCharsets.US_ASCII);
    }
    int cap = Integer.highestOneBit(Math.max(4, exact.size() * 4) - 1) << 1;
    this.table = new byte[cap][];
    this.mask = cap - 1;
    for (String name : exact.keySet()) {
      byte[] b = name.getBytes(StandardCharsets.UTF_8);
      int i = hash(b, 0, b.length) & mask;
      while (table[i] != null) {
        i = (i + 1) & mask;
      }
      table[i] = b;
    }
  }

  /** The catalog for Flink 1.15–2.x, RocksDB native metrics, node_exporter 1.x and cAdvisor. */
  public static SignalCatalog defaults() {
    Map<String, MetricRule> exact = new HashMap<>();
    List<Kind> cf = new ArrayList<>();
    for (Kind k : Kind.values()) {
      if (k.source() == Source.ROCKSDB_CF) {
        cf.add(k);
        exact.put(CF_PREFIX + k.metricName(), new MetricRule(k));
      } else if (k.metricName() != null) {
        exact.put(k.metricName(), new MetricRule(k));
      }
    }
    return new SignalCatalog(exact, cf.toArray(new Kind[0]));
  }

  /** The names matched exactly (the per-state RocksDB and per-collector GC shapes are extra). */
  public Set<String> exactNames() {
    return exact.keySet();
  }

  /**
   * The shape rules, one regex each (RE2 and java.util.regex compatible, implicitly anchored as
   * in Prometheus relabelling).
   */
  public List<String> patternRules() {
    StringBuilder props = new StringBuilder();
    for (Kind k : cfKinds) {
      props.append(props.length() == 0 ? "" : "|").append(k.metricName());
    }
    String c = "[a-zA-Z0-9_:]";
    // collector name that is not exactly "All" (RE2 has no look-ahead)
    String notAll = "(?:" + c + "{1,2}|[B-Za-z0-9_:]" + c + "{2}|A[a-km-zA-Z0-9_:]" + c
        + "|Al[a-km-zA-Z0-9_:]|" + c + "{4,})";
    return List.of(
        OPERATOR_PREFIX + c + "+_rocksdb_(?:" + props + ")",
        GC_PREFIX + notAll + GC_SUFFIX);
  }

  /**
   * One regex matching exactly the names {@link #accepts} accepts, for a Prometheus {@code
   * write_relabel_configs} {@code keep} action on {@code __name__} (Prometheus anchors it).
   */
  public String keepRegex() {
    List<String> parts = new ArrayList<>(new LinkedHashSet<>(exact.keySet()));
    Collections.sort(parts);
    parts.addAll(patternRules());
    return "(?:" + String.join("|", parts) + ")";
  }

  /** The rule for a metric name, or null when the detector does not use it. */
  public MetricRule ruleFor(String metricName) {
    if (metricName == null) {
      return null;
    }
    MetricRule r = exact.get(metricName);
    if (r != null) {
      return r;
    }
    byte[] b = metricName.getBytes(StandardCharsets.UTF_8);
    int k = matchPerState(b, 0, b.length);
    if (k >= 0) {
      String state = metricName.substring(
          OPERATOR_PREFIX.length(), metricName.length() - cfSuffixes[k].length);
      return new MetricRule(cfKinds[k], state, null);
    }
    if (matchCollector(b, 0, b.length)) {
      String collector = metricName.substring(
          GC_PREFIX.length(), metricName.length() - GC_SUFFIX.length());
      return new MetricRule(Kind.GC_COLLECTOR_TIME, null, collector);
    }
    return null;
  }

  @Override
  public boolean accepts(byte[] utf8, int off, int len) {
    int i = hash(utf8, off, len) & mask;
    byte[] e;
    while ((e = table[i]) != null) {
      if (e.length == len && equalsAt(utf8, off, e)) {
        return true;
      }
      i = (i + 1) & mask;
    }
    return matchPerState(utf8, off, len) >= 0 || matchCollector(utf8, off, len);
  }

  /** Index into cfKinds for {@code <operator prefix><state>_rocksdb_<prop>}, else -1. */
  private int matchPerState(byte[] b, int off, int len) {
    if (len <= OPERATOR_PREFIX_B.length || !equalsAt(b, off, OPERATOR_PREFIX_B)) {
      return -1;
    }
    for (int k = 0; k < cfSuffixes.length; k++) {
      byte[] s = cfSuffixes[k];
      int stateLen = len - OPERATOR_PREFIX_B.length - s.length;
      if (stateLen >= 1 && equalsAt(b, off + len - s.length, s)
          && allNameChars(b, off + OPERATOR_PREFIX_B.length, stateLen)) {
        return k;
      }
    }
    return -1;
  }

  private static boolean matchCollector(byte[] b, int off, int len) {
    int nameLen = len - GC_PREFIX_B.length - GC_SUFFIX_B.length;
    if (nameLen < 1 || !equalsAt(b, off, GC_PREFIX_B)
        || !equalsAt(b, off + len - GC_SUFFIX_B.length, GC_SUFFIX_B)) {
      return false;
    }
    int nameOff = off + GC_PREFIX_B.length;
    if (nameLen == ALL_B.length && equalsAt(b, nameOff, ALL_B)) {
      return false;
    }
    return allNameChars(b, nameOff, nameLen);
  }

  private static boolean allNameChars(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      byte c = b[i];
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '_' || c == ':';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static boolean equalsAt(byte[] b, int off, byte[] expect) {
    if (off < 0 || off + expect.length > b.length) {
      return false;
    }
    for (int i = 0; i < expect.length; i++) {
      if (b[off + i] != expect[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Multiply-xor over eight bytes at a time, finished with a mix so the low bits spread. Every
   * series name of every request is hashed, most of them long Flink names that are then rejected;
   * a byte-at-a-time hash was a tenth of the event loop's time.
   */
  private static int hash(byte[] b, int off, int len) {
    long h = 0x9E3779B97F4A7C15L ^ len;
    int i = off;
    int end = off + len;
    for (; i + 8 <= end; i += 8) {
      h = Long.rotateLeft((h ^ (long) LONG_LE.get(b, i)) * 0xff51afd7ed558ccdL, 31);
    }
    long tail = 0;
    for (int shift = 0; i < end; i++, shift += 8) {
      tail |= (b[i] & 0xffL) << shift;
    }
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (int) h;
  }
}
