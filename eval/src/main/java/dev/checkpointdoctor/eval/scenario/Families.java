package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.eval.family2.Family2;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The simulator families {@code accuracy --family NAME} can draw corpora from, by name. */
public final class Families {
  private static final Map<String, ScenarioFamily> ALL = new LinkedHashMap<>();

  static {
    add(new Family1());
    // Written blind to the cause rules: validate on it, never tune on it (docs/FAMILY2.md).
    add(new Family2());
  }

  private Families() {}

  private static void add(ScenarioFamily f) {
    ALL.put(f.name(), f);
  }

  /** The family called {@code name}, or null. */
  public static ScenarioFamily get(String name) {
    return ALL.get(name);
  }

  public static Set<String> names() {
    return java.util.Collections.unmodifiableSet(ALL.keySet());
  }
}
