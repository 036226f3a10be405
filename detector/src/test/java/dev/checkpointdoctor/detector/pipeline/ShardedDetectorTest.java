package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.JobSummary;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Sharding is invisible: the same input gives the same jobs, anomalies and diagnoses. */
class ShardedDetectorTest {
  static final DetectorSettings SETTINGS = DetectorSettings.defaults().withMinObservations(10);
  static final int REQUEST_SAMPLES = 17;

  static ShardedDetector sharded(int shards) {
    return new ShardedDetector(SignalCatalog.defaults(), SETTINGS,
        () -> new CauseRanker(SETTINGS), shards);
  }

  /** Feeds rounds [from, to) of the fleet as requests of a few samples, a batch each. */
  static void feed(ShardedDetector d, ShardFleet fleet, int from, int to) {
    for (int round = from; round < to; round++) {
      List<ShardFleet.Sample> scrape = fleet.scrape(round);
      for (int i = 0; i < scrape.size(); i++) {
        ShardFleet.Sample s = scrape.get(i);
        d.accept(s.labels(), new long[] {s.ts()}, new double[] {s.value()});
        if (i % REQUEST_SAMPLES == REQUEST_SAMPLES - 1 || i == scrape.size() - 1) {
          d.endBatch();
        }
      }
    }
  }

  /** What a user sees, anomaly ids left out (numbered in the order the shards open them). */
  record Outcome(List<JobSummary> jobs, Map<String, String> diagnoses,
      Map<String, String> baselines, List<String> anomalies, int baselineCount,
      int openAnomalies, int jobCount) {}

  static Outcome outcome(ShardedDetector d) {
    Map<String, String> diagnoses = new TreeMap<>();
    Map<String, String> baselines = new TreeMap<>();
    for (JobSummary j : d.jobs()) {
      diagnoses.put(j.job(), d.diagnosis(j.job()).map(Diagnosis::toString).orElse("none"));
      baselines.put(j.job(), d.baselines(j.job()).toString());
    }
    List<String> anomalies = new ArrayList<>();
    for (Anomaly a : d.anomalies(null, null, Long.MIN_VALUE)) {
      anomalies.add(withoutId(a));
    }
    anomalies.sort(null);
    return new Outcome(d.jobs(), diagnoses, baselines, anomalies, d.baselineCount(),
        d.openAnomalyCount(), d.jobCount());
  }

  static String withoutId(Anomaly a) {
    return new Anomaly(0, a.job(), a.signal(), a.scope(), a.open(), a.startedAtMs(),
        a.endedAtMs(), a.observed(), a.expected(), a.lower(), a.upper(), a.score(), a.causes())
        .toString();
  }

  /**
   * An anomaly as opened, without the causes ranked at that moment. A shard joins a node's sample
   * to its jobs once they reported past it, without waiting for the jobs of other shards on that
   * node as one detector does: node evidence (and a weak hypothesis from it) may reach a
   * diagnosis one batch earlier. What a diagnosis leads with, when it changes, and the final
   * diagnoses with every hypothesis and sentence ({@link #outcome}) are the same.
   */
  static String openedView(Anomaly a) {
    return new Anomaly(0, a.job(), a.signal(), a.scope(), a.open(), a.startedAtMs(),
        a.endedAtMs(), a.observed(), a.expected(), a.lower(), a.upper(), a.score(), List.of())
        .toString();
  }

  /** What a diagnosis leads with: cause, confidence, since, signal (see {@link #openedView}). */
  static String leading(Diagnosis d) {
    return d == null ? "none" : d.cause() + " " + d.confidence() + " since " + d.sinceMs() + " "
        + d.signal() + " failing " + d.checkpointsFailing();
  }

  /**
   * Every event a listener hears in the order heard: evaluations per (job, signal, scope),
   * anomaly and diagnosis events per job. Within a batch, a node's evaluations may come before
   * or after those of the job's own series depending on when the node's samples were joined
   * (see {@link #openedView}); each series' own sequence is the same.
   */
  static final class Events implements DetectorListener {
    final Map<String, List<String>> perJob = new TreeMap<>();

    private void add(String key, String event) {
      perJob.computeIfAbsent(key, k -> new ArrayList<>()).add(event);
    }

    @Override
    public void evaluated(dev.checkpointdoctor.detector.model.Evaluation e) {
      add(e.job() + " " + e.signal() + " " + e.scope(), e.toString());
    }

    @Override
    public void anomalyOpened(Anomaly a) {
      add(a.job(), "opened " + openedView(a));
    }

    @Override
    public void anomalyResolved(Anomaly a) {
      add(a.job(), "resolved " + withoutId(a));
    }

    @Override
    public void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long at) {
      add(job, "diagnosis " + at + " " + leading(before) + " -> " + leading(after));
    }
  }

  @Test
  void shardsGiveTheSameJobsAnomaliesDiagnosesAndCountsAsOneDetector() {
    ShardFleet fleet = new ShardFleet(7, 3, 60);
    ShardedDetector one = sharded(1);
    Events oneEvents = new Events();
    one.addListener(oneEvents);
    feed(one, fleet, 0, 130);
    Outcome expected = outcome(one);
    // the comparison means something: jobs on several hosts, an anomaly, a diagnosis, unjoined
    assertThat(expected.anomalies()).isNotEmpty();
    assertThat(expected.diagnoses().values()).anyMatch(s -> !s.equals("none"));
    assertThat(one.unjoinedSamples()).isPositive();
    assertThat(one.stats().staleMarkers()).isEqualTo(1);

    for (int shards : new int[] {2, 3, 5}) {
      // label instances handed out again, as decoders do: shards find series by their memo
      ShardFleet again = new ShardFleet(7, 3, 60).reusingLabels();
      ShardedDetector d = sharded(shards);
      Events events = new Events();
      d.addListener(events);
      feed(d, again, 0, 130);
      Set<Integer> used = new HashSet<>();
      for (JobSummary j : d.jobs()) {
        used.add(d.router().shardOf(j.job()));
      }
      assertThat(used).as("jobs spread over the shards").hasSizeGreaterThan(1);
      assertThat(outcome(d)).as("%d shards", shards).isEqualTo(expected);
      assertThat(events.perJob).as("events of %d shards", shards).isEqualTo(oneEvents.perJob);
      assertThat(d.unjoinedSamples()).isEqualTo(one.unjoinedSamples());
      assertThat(d.trackedSeries()).isEqualTo(one.trackedSeries());
      assertThat(d.stats().processed()).isEqualTo(one.stats().processed());
      assertThat(d.stats().observations()).isEqualTo(one.stats().observations());
      assertThat(d.stats().staleMarkers()).isEqualTo(one.stats().staleMarkers());
      assertThat(d.lateFrameSamples()).isEqualTo(one.lateFrameSamples());
      assertThat(d.eventTimeMs()).isEqualTo(one.eventTimeMs());
    }
  }

  @Test
  void oneShardIsExactlyOneDetectorAnomalyIdsIncluded() {
    ShardedDetector sharded = sharded(1);
    Detector plain = new Detector(SignalCatalog.defaults(), SETTINGS, new CauseRanker(SETTINGS));
    ShardFleet a = new ShardFleet(4, 2, 40);
    ShardFleet b = new ShardFleet(4, 2, 40);
    feed(sharded, a, 0, 90);
    for (int round = 0; round < 90; round++) {
      List<ShardFleet.Sample> scrape = b.scrape(round);
      for (int i = 0; i < scrape.size(); i++) {
        ShardFleet.Sample s = scrape.get(i);
        plain.accept(s.labels(), new long[] {s.ts()}, new double[] {s.value()});
        if (i % REQUEST_SAMPLES == REQUEST_SAMPLES - 1 || i == scrape.size() - 1) {
          plain.endBatch();
        }
      }
    }
    assertThat(sharded.anomalies(null, null, Long.MIN_VALUE))
        .isEqualTo(plain.anomalies(null, null, Long.MIN_VALUE)).isNotEmpty();
    assertThat(sharded.jobs()).isEqualTo(plain.jobs());
    assertThat(sharded.unjoinedSamples()).isEqualTo(plain.unjoinedSamples());
  }

  @Test
  void anomalyIdsAreUniqueOverShards() {
    ShardedDetector d = sharded(3);
    feed(d, new ShardFleet(7, 3, 30), 0, 120);
    List<Long> ids = d.anomalies(null, null, Long.MIN_VALUE).stream().map(Anomaly::id).toList();
    assertThat(ids).isNotEmpty().doesNotHaveDuplicates();
    assertThat(d.snapshot().nextAnomalyId()).isGreaterThan(ids.stream().max(Long::compare)
        .orElseThrow());
  }

  @Test
  void aSnapshotOfShardsRestoresIntoAnyNumberOfShards() {
    ShardedDetector three = sharded(3);
    feed(three, new ShardFleet(7, 3, 60), 0, 100);
    DetectorState state = three.snapshot();
    Outcome before = outcome(three);
    assertThat(before.anomalies()).isNotEmpty();

    ShardedDetector one = new ShardedDetector(SignalCatalog.defaults(), SETTINGS,
        () -> new CauseRanker(SETTINGS), 1, state);
    ShardedDetector two = new ShardedDetector(SignalCatalog.defaults(), SETTINGS,
        () -> new CauseRanker(SETTINGS), 2, state);
    Detector plain = new Detector(SignalCatalog.defaults(), SETTINGS, new CauseRanker(SETTINGS),
        state);
    assertThat(plain.jobs()).isEqualTo(before.jobs());
    // every job restored, each on the shard its series route to now
    assertThat(outcome(one)).isEqualTo(before);
    assertThat(outcome(two)).isEqualTo(before);
    for (JobSummary j : two.jobs()) {
      assertThat(two.shard(two.router().shardOf(j.job())).job(j.job())).isPresent();
    }
    // and they go on alike
    ShardFleet forOne = new ShardFleet(7, 3, 60);
    ShardFleet forTwo = new ShardFleet(7, 3, 60);
    for (int r = 0; r < 100; r++) { // the fleets' counters, as the scrapes before the restart
      forOne.scrape(r);
      forTwo.scrape(r);
    }
    feed(one, forOne, 100, 140);
    feed(two, forTwo, 100, 140);
    assertThat(outcome(two)).isEqualTo(outcome(one));
    // ids go on from the snapshot's counter: none handed out twice
    List<Long> ids = two.anomalies(null, null, Long.MIN_VALUE).stream().map(Anomaly::id).toList();
    assertThat(ids).doesNotHaveDuplicates();
  }

  @Test
  void theSeriesBudgetIsSharedAndCountsABroadcastSeriesOnce() {
    ShardedDetector d = sharded(3);
    // 7 jobs x 10 job series, 2 hosts' TaskManager series are broadcast; leave room for ~half
    d.limitSeries(40, 1000);
    feed(d, new ShardFleet(7, 3, 1000), 0, 3);
    assertThat(d.trackedSeries()).isEqualTo(40);
    assertThat(d.stats().cardinalityLimit()).isPositive();
    ShardedDetector one = sharded(1);
    one.limitSeries(1000, 1000);
    feed(one, new ShardFleet(7, 3, 1000), 0, 3);
    ShardedDetector roomy = sharded(3);
    roomy.limitSeries(one.trackedSeries(), 1000);
    feed(roomy, new ShardFleet(7, 3, 1000), 0, 3);
    assertThat(roomy.trackedSeries()).isEqualTo(one.trackedSeries());
    assertThat(roomy.stats().cardinalityLimit()).isZero();
  }
}
