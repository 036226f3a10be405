package dev.checkpointdoctor.eval.delivery;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.eval.scenario.RecordedSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Delivery schedules as Prometheus produces them, for the same samples: each sample gets an
 * arrival time; samples of one stream (a remote-write shard, a Prometheus server) keep their
 * order, streams interleave by arrival.
 */
final class Deliveries {
  private Deliveries() {}

  /** A sample and when it arrives. */
  record Arrival(RecordedSample sample, long arrivalMs, int stream, long order) {}

  /** Timestamp order, as one in-order sender would deliver (stable: file order per series). */
  static List<RecordedSample> inOrder(List<RecordedSample> samples) {
    List<RecordedSample> sorted = new ArrayList<>(samples);
    sorted.sort(Comparator.comparingLong(RecordedSample::timestampMs));
    return sorted;
  }

  /**
   * Delivers through streams: {@code streamOf} assigns each series a stream, {@code
   * wantedArrival} the time a sample would arrive; a stream is a FIFO in timestamp order, so a
   * sample never overtakes an earlier one of its stream.
   */
  static List<RecordedSample> through(List<RecordedSample> samples,
      Function<Labels, Integer> streamOf, ToLongFunction<RecordedSample> wantedArrival,
      long seed) {
    Map<Integer, List<RecordedSample>> streams = new TreeMap<>();
    for (RecordedSample s : inOrder(samples)) {
      streams.computeIfAbsent(streamOf.apply(s.labels()), k -> new ArrayList<>()).add(s);
    }
    Random rnd = new Random(seed);
    List<Arrival> all = new ArrayList<>();
    long order = 0;
    for (Map.Entry<Integer, List<RecordedSample>> e : streams.entrySet()) {
      long last = Long.MIN_VALUE;
      for (RecordedSample s : e.getValue()) {
        last = Math.max(last, wantedArrival.applyAsLong(s));
        all.add(new Arrival(s, last, e.getKey(), order++));
      }
    }
    // streams interleave by arrival; equal arrivals in any order between streams
    long[] tieBreak = rnd.longs(streams.size() + 1).toArray();
    all.sort(Comparator.comparingLong(Arrival::arrivalMs)
        .thenComparingLong(a -> tieBreak[Math.floorMod(a.stream(), tieBreak.length)])
        .thenComparingLong(Arrival::order));
    return all.stream().map(Arrival::sample).toList();
  }

  /**
   * Remote-write shards: series by hash over {@code shards}; each shard runs a lag that changes
   * every ten minutes, up to {@code maxLagMs}, after the first {@code inStepMs} (a job's first
   * scrape is gathered from the series seen when its next scrape arrives).
   */
  static List<RecordedSample> sharded(List<RecordedSample> samples, int shards, long maxLagMs,
      long inStepMs, long seed) {
    long start = samples.stream().mapToLong(RecordedSample::timestampMs).min().orElse(0);
    Random rnd = new Random(seed);
    Map<Long, long[]> lags = new TreeMap<>();
    return through(samples, l -> Math.floorMod(l.hashCode(), shards), s -> {
      long t = s.timestampMs();
      if (t < start + inStepMs) {
        return t;
      }
      long period = (t - start) / 600_000;
      long[] lag = lags.computeIfAbsent(period, p -> rnd.longs(shards, 0, maxLagMs + 1)
          .toArray());
      return t + lag[Math.floorMod(s.labels().hashCode(), shards)];
    }, seed);
  }

  /** The same samples with more labels (e.g. external labels of a Prometheus). */
  static List<RecordedSample> withLabels(List<RecordedSample> samples, Map<String, String> extra) {
    Map<Labels, Labels> cache = new java.util.HashMap<>();
    List<RecordedSample> out = new ArrayList<>(samples.size());
    for (RecordedSample s : samples) {
      Labels l = cache.computeIfAbsent(s.labels(), k -> {
        Map<String, String> m = new TreeMap<>(k.toMap());
        m.putAll(extra);
        return Labels.fromMap(m);
      });
      out.add(new RecordedSample(l, s.timestampMs(), s.value()));
    }
    return out;
  }

  /** The same samples with every label value passed through {@code rename}. */
  static List<RecordedSample> renamed(List<RecordedSample> samples,
      Function<String, String> rename) {
    Map<Labels, Labels> cache = new java.util.HashMap<>();
    List<RecordedSample> out = new ArrayList<>(samples.size());
    for (RecordedSample s : samples) {
      Labels l = cache.computeIfAbsent(s.labels(), k -> {
        Map<String, String> m = new TreeMap<>();
        k.toMap().forEach((n, v) -> m.put(n, n.equals(Labels.METRIC_NAME) ? v : rename.apply(v)));
        return Labels.fromMap(m);
      });
      out.add(new RecordedSample(l, s.timestampMs(), s.value()));
    }
    return out;
  }

  /** Shifted in time by {@code deltaMs} (an HA replica scraping at its own phase). */
  static List<RecordedSample> shifted(List<RecordedSample> samples, long deltaMs) {
    return samples.stream().map(s -> new RecordedSample(s.labels(), s.timestampMs() + deltaMs,
        s.value())).toList();
  }
}
