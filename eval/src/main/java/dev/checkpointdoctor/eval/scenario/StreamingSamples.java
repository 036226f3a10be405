package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Passes a simulator's samples on in non-decreasing event time without holding the history: the
 * samples of a scrape carry per-target offsets, so they are held only until the simulator says no
 * older sample can follow, then handed on sorted (stable: per series, write order is kept).
 */
final class StreamingSamples implements SampleOut {
  private final GeneratedScenario.SampleSink sink;
  private final Map<Key, Labels> labelCache = new HashMap<>();
  private List<Held> held = new ArrayList<>();
  private List<Held> keep = new ArrayList<>();
  private long passed;

  StreamingSamples(GeneratedScenario.SampleSink sink) {
    this.sink = sink;
  }

  /** A series as the simulator names it: metric name and label pairs, compared by content. */
  private static final class Key {
    private final String name;
    private final String[] pairs;
    private final int hash;

    Key(String name, String[] pairs) {
      this.name = name;
      this.pairs = pairs;
      this.hash = 31 * name.hashCode() + Arrays.hashCode(pairs);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && k.name.equals(name)
          && Arrays.equals(k.pairs, pairs);
    }
  }

  private record Held(Labels labels, long ts, double value) {}

  @Override
  public void add(String name, String[] labels, long ts, double value) {
    held.add(new Held(labels(name, labels), ts, value));
  }

  @Override
  public void nothingBefore(long ms) {
    held.sort((a, b) -> Long.compare(a.ts, b.ts));
    keep.clear();
    for (Held h : held) {
      if (h.ts < ms) {
        sink.sample(h.labels, h.ts, h.value);
        passed++;
      } else {
        keep.add(h);
      }
    }
    List<Held> t = held;
    held = keep;
    keep = t;
  }

  /** Hands on whatever is still held (the end of the history). */
  void finish() {
    nothingBefore(Long.MAX_VALUE);
  }

  long passed() {
    return passed;
  }

  /** One Labels per series: the simulator rebuilds its label arrays on every scrape. */
  private Labels labels(String name, String[] pairs) {
    Key k = new Key(name, pairs);
    Labels l = labelCache.get(k);
    if (l == null) {
      String[] all = new String[pairs.length + 2];
      all[0] = Labels.METRIC_NAME;
      all[1] = name;
      System.arraycopy(pairs, 0, all, 2, pairs.length);
      l = Labels.of(all);
      labelCache.put(k, l);
    }
    return l;
  }
}
