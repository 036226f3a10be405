package dev.checkpointdoctor.detector.extract;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A reference-counted many-to-many index (e.g. tm_id to job_name): an entry lives while at least
 * one live series vouches for it, so the index forgets what the series no longer show.
 */
final class RefIndex {
  private final Map<String, Map<String, int[]>> byKey = new HashMap<>();

  void add(String key, String value) {
    byKey.computeIfAbsent(key, k -> new HashMap<>(4)).computeIfAbsent(value, v -> new int[1])[0]++;
  }

  void remove(String key, String value) {
    Map<String, int[]> values = byKey.get(key);
    if (values == null) {
      return;
    }
    int[] n = values.get(value);
    if (n != null && --n[0] <= 0) {
      values.remove(value);
      if (values.isEmpty()) {
        byKey.remove(key);
      }
    }
  }

  /** The live values of {@code key}; an empty set when none. Do not modify. */
  Set<String> get(String key) {
    Map<String, int[]> values = key == null ? null : byKey.get(key);
    return values == null ? Set.of() : values.keySet();
  }

  int size() {
    return byKey.size();
  }
}
