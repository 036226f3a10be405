package dev.checkpointdoctor.detector.model;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable label set of one series, sorted by name as Prometheus sends it. Equality is by
 * content so a label set can key per-series state.
 */
public final class Labels {
  public static final String METRIC_NAME = "__name__";

  private final String[] names;
  private final String[] values;
  private final int hash;
  // Not part of the value: a slot where the detector keeps the state it found for this label set
  // last, so a decoder that hands out the same instance again saves the lookup by contents. Read
  // and written without synchronisation by whoever owns what it points to; see #memo().
  private Object memo;
  // Likewise the route a ShardRouter found for this label set (0: none); see #routeMemo().
  private int routeMemo;

  /** Takes both arrays as they are: the caller must not change them afterwards. */
  private Labels(String[] names, String[] values) {
    int namesHash = Arrays.hashCode(names);
    this.names = NameSets.shared(names, namesHash);
    this.values = values;
    this.hash = 31 * namesHash + Arrays.hashCode(values);
  }

  /**
   * One array per distinct list of label names. The series of one metric, and most series of one
   * exporter, have the same names in the same order, and the detector keeps a label set per
   * series for as long as it lives: a 14-label set's names are 72 bytes it need not hold once per
   * series. Bounded, so label sets whose names keep changing cost at most the bound (beyond it a
   * set keeps its own array, as all did before); the names in a shared array are interned.
   */
  static final class NameSets {
    static final int MAX = 4096;
    private static final java.util.concurrent.ConcurrentHashMap<NameList, String[]> SHARED =
        new java.util.concurrent.ConcurrentHashMap<>();

    private NameSets() {}

    static String[] shared(String[] names, int hash) {
      NameList key = new NameList(names, hash);
      String[] found = SHARED.get(key);
      if (found != null) {
        return found;
      }
      if (SHARED.size() >= MAX) {
        return names;
      }
      String[] canonical = new String[names.length];
      for (int i = 0; i < names.length; i++) {
        canonical[i] = names[i].intern();
      }
      found = SHARED.putIfAbsent(new NameList(canonical, hash), canonical);
      return found != null ? found : canonical;
    }

    static int size() {
      return SHARED.size();
    }
  }

  /** A list of names compared by content, as a key of {@link NameSets}. */
  private static final class NameList {
    private final String[] names;
    private final int hash;

    NameList(String[] names, int hash) {
      this.names = names;
      this.hash = hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof NameList other && hash == other.hash
          && Arrays.equals(names, other.names);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** Builds from parallel arrays; sorts by name if they are not sorted already. */
  public static Labels of(String[] names, String[] values) {
    if (names.length != values.length) {
      throw new IllegalArgumentException("names and values differ in length");
    }
    for (int i = 1; i < names.length; i++) {
      if (names[i - 1].compareTo(names[i]) > 0) {
        return fromMap(toMap(names, values));
      }
    }
    return new Labels(names.clone(), values.clone());
  }

  /** {@code Labels.of("__name__", "x", "job_name", "j")}. */
  public static Labels of(String... nameValuePairs) {
    if (nameValuePairs.length % 2 != 0) {
      throw new IllegalArgumentException("odd number of name/value arguments");
    }
    Map<String, String> m = new TreeMap<>();
    for (int i = 0; i < nameValuePairs.length; i += 2) {
      m.put(nameValuePairs[i], nameValuePairs[i + 1]);
    }
    return fromMap(m);
  }

  public static Labels fromMap(Map<String, String> map) {
    TreeMap<String, String> sorted = new TreeMap<>(map);
    return new Labels(
        sorted.keySet().toArray(new String[0]), sorted.values().toArray(new String[0]));
  }

  private static Map<String, String> toMap(String[] names, String[] values) {
    Map<String, String> m = new TreeMap<>();
    for (int i = 0; i < names.length; i++) {
      m.put(names[i], values[i]);
    }
    return m;
  }

  /**
   * An equal label set whose strings are the JVM's canonical copies ({@link String#intern}). The
   * series of one Flink subtask repeat the same dozen values (job and task ids, host, attempt);
   * a long-lived set keeps one copy of each instead of one per series. Interned strings are
   * collected like others once no set refers to them.
   */
  public Labels interned() {
    if (isInterned()) {
      return this; // the decoder's label sets usually are: no copy, and lookups hit by identity
    }
    String[] n = new String[names.length];
    String[] v = new String[values.length];
    for (int i = 0; i < n.length; i++) {
      n[i] = names[i].intern();
      v[i] = values[i].intern();
    }
    return new Labels(n, v);
  }

  private boolean isInterned() {
    for (int i = 0; i < names.length; i++) {
      if (names[i].intern() != names[i] || values[i].intern() != values[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * What the last {@link #memo(Object)} left, or null. A reader must check that the object is its
   * own (another thread may have written it, and nothing orders that write): the detector stores
   * per-series cursors that know the detector they belong to.
   */
  public Object memo() {
    return memo;
  }

  public void memo(Object memo) {
    this.memo = memo;
  }

  /**
   * What the last {@link #routeMemo(int)} left, 0 for nothing: a router's own encoding of the
   * shard it picked, which it must recognise as its own. An int, written and read whole.
   */
  public int routeMemo() {
    return routeMemo;
  }

  public void routeMemo(int routeMemo) {
    this.routeMemo = routeMemo;
  }

  /** The value of {@code name}, or null when absent. */
  public String get(String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return values[i];
      }
    }
    return null;
  }

  /** The value of {@code name}, or {@code fallback} when absent. */
  public String getOrDefault(String name, String fallback) {
    String v = get(name);
    return v == null ? fallback : v;
  }

  public String metricName() {
    return get(METRIC_NAME);
  }

  public int size() {
    return names.length;
  }

  /** Whether both hold their names in one array: for tests. */
  boolean sharesNamesWith(Labels other) {
    return names == other.names;
  }

  public String name(int i) {
    return names[i];
  }

  public String value(int i) {
    return values[i];
  }

  public Map<String, String> toMap() {
    return toMap(names, values);
  }

  @Override
  public boolean equals(Object o) {
    return this == o || o instanceof Labels other
        && hash == other.hash
        && Arrays.equals(names, other.names)
        && Arrays.equals(values, other.values);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(names[i]).append("=\"").append(values[i]).append('"');
    }
    return sb.append('}').toString();
  }
}
