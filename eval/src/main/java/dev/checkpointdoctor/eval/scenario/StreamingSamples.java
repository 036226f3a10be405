package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Labels;
import java.util.ArrayList;
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
  private final Map<String, Labels> labelCache = new HashMap<>();
  private final StringBuilder key = new StringBuilder(256);
  private List<Held> held = new ArrayList<>();
  private List<Held> keep = new ArrayList<>();
  private long passed;

  StreamingSamples(GeneratedScenario.SampleSink sink) {
    this.sink = sink;
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
    key.setLength(0);
    key.append(name);
    for (String s : pairs) {
      key.append('\u0000').append(s);
    }
    String k = key.toString();
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
