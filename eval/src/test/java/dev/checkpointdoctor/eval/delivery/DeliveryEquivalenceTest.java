package dev.checkpointdoctor.eval.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.eval.scenario.HistoryReader;
import dev.checkpointdoctor.eval.scenario.RecordedSample;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Delivered as Prometheus really sends it, a recorded history (a fault scenario of the corpus:
 * a job, its TaskManagers, their nodes) must teach the detector exactly what the same samples
 * delivered in timestamp order teach it: the same baselines (observations, expected, band), the
 * same anomalies and the same diagnosis.
 */
class DeliveryEquivalenceTest {
  static final Path CORPUS = Path.of("..", "scenarios");
  static final long MINUTE = 60_000;
  static final long HOUR = 60 * MINUTE;

  static List<RecordedSample> disk;
  static List<RecordedSample> backpressure;
  static String job;
  static long start;

  @BeforeAll
  static void load() throws Exception {
    disk = new HistoryReader().read(CORPUS.resolve("disk_throttling_gp2_a.prom.gz"));
    backpressure = new HistoryReader().read(CORPUS.resolve("backpressure_sink_a.prom.gz"));
    job = disk.stream().map(s -> s.labels().get("job_name")).filter(j -> j != null)
        .findFirst().orElseThrow();
    start = disk.stream().mapToLong(RecordedSample::timestampMs).min().orElseThrow();
  }

  static Learned reference(List<RecordedSample> samples, String key) {
    return Learned.of(Learned.inOrder(DeliverySettings.defaults(), samples), key);
  }

  static List<RecordedSample> read(String name) throws Exception {
    return new HistoryReader().read(CORPUS.resolve(name + ".prom.gz"));
  }

  static String jobOf(List<RecordedSample> samples) {
    return samples.stream().map(s -> s.labels().get("job_name")).filter(j -> j != null)
        .findFirst().orElseThrow();
  }

  /** Scraped every 15 s on Kubernetes (node_exporter and cAdvisor), so 30 s of lag reorders. */
  @ParameterizedTest
  @ValueSource(strings = {"disk_throttling_gp2_b", "cpu_throttling_b"})
  void shardsUpTo30SecondsApartTeachWhatInOrderDeliveryTeaches(String scenario)
      throws Exception {
    List<RecordedSample> samples = read(scenario);
    String key = jobOf(samples);
    Detector inOrder = Learned.inOrder(DeliverySettings.defaults(), samples);
    Learned expected = Learned.of(inOrder, key);
    assertThat(expected.cause()).isEqualTo(scenario.startsWith("disk") ? "disk_throttling"
        : "cpu_throttling");
    assertThat(expected.anomalies()).isNotEmpty();
    for (long seed = 1; seed <= 2; seed++) {
      List<RecordedSample> arrivals = Deliveries.sharded(samples, 8, 30_000, 2 * MINUTE, seed);
      assertThat(arrivals).isNotEqualTo(Deliveries.inOrder(samples)); // really reordered
      Detector d = Learned.feed(Learned.detector(DeliverySettings.defaults()), arrivals, seed);
      assertThat(Learned.of(d, key)).as("seed " + seed).isEqualTo(expected);
      assertThat(d.lateFrameSamples()).isZero();
      // node samples scraped before the job's first task sample: unjoined in order too
      assertThat(d.unjoinedSamples()).isEqualTo(inOrder.unjoinedSamples());
      assertThat(d.idleTaskManagerSamples()).isEqualTo(inOrder.idleTaskManagerSamples());
    }
  }

  /**
   * The service's detector thread takes every request already waiting as one batch (up to 64
   * requests of 500 samples): a backlog sent quickly (a Prometheus catching up, a replay, a
   * busy machine) arrives as batches that span hours of event time. The task series' samples
   * are observed as they arrive and the job's checkpoint signals once their scrape is complete;
   * batches that large must not let the one run hours ahead of the other (the healthy daily
   * cycle opened checkpoint-duration trend anomalies when they did: the input rate's points
   * that explain the growth had left the two-hour raw history).
   */
  @ParameterizedTest
  @ValueSource(strings = {"healthy_daily_load", "disk_throttling_gp2_a"})
  void aBacklogTakenInBatchesOfHoursTeachesWhatInOrderDeliveryTeaches(String scenario)
      throws Exception {
    List<RecordedSample> samples = read(scenario);
    String key = jobOf(samples);
    Learned expected = reference(samples, key);
    List<RecordedSample> ordered = Deliveries.inOrder(samples);
    for (long seed = 1; seed <= 2; seed++) {
      Detector d = Learned.feed(Learned.detector(DeliverySettings.defaults()), ordered, seed,
          64 * 500);
      assertThat(Learned.of(d, key)).as("seed " + seed).isEqualTo(expected);
    }
  }

  /**
   * The Flink series come through a Prometheus that could not send for the first two hours
   * (its WAL holds them) while node_exporter's series arrive live; then the Flink backlog arrives
   * in a burst at 60 times real speed, and from then on live.
   */
  static List<RecordedSample> flinkCatchesUp(List<RecordedSample> samples, long seed) {
    long resume = start + 2 * HOUR;
    return Deliveries.through(samples,
        l -> l.metricName().startsWith("flink_") ? Math.floorMod(l.hashCode(), 4) : 10,
        s -> {
          long t = s.timestampMs();
          boolean flink = s.labels().metricName().startsWith("flink_");
          return !flink || t >= resume ? t : resume + (t - start) / 60;
        }, seed);
  }

  @Test
  void aCatchUpBurstHoursBehindLiveDataTeachesTheSameWithinTheDeliveryLag() {
    Detector inOrder = Learned.inOrder(DeliverySettings.defaults(), disk);
    Learned expected = Learned.of(inOrder, job);
    List<RecordedSample> arrivals = flinkCatchesUp(disk, 7);
    DeliverySettings threeHours = DeliverySettings.defaults()
        .withMaxDeliveryLag(Duration.ofHours(3));
    Detector d = Learned.feed(Learned.detector(threeHours), arrivals, 7);
    assertThat(Learned.of(d, job)).isEqualTo(expected);
    assertThat(d.unjoinedSamples()).isEqualTo(inOrder.unjoinedSamples());
    assertThat(d.lateFrameSamples()).isZero();

    // with the default 5 min the node samples of the first two hours stop waiting for the
    // Flink series that would have placed the job on their node: not learnt, but counted
    Detector impatient = Learned.feed(Learned.detector(DeliverySettings.defaults()), arrivals, 7);
    assertThat(impatient.unjoinedSamples()).isGreaterThan(inOrder.unjoinedSamples() + 1000);
    assertThat(Learned.of(impatient, job).baselines()).isNotEqualTo(expected.baselines());
  }

  @Test
  void aJobAlreadyKnownKeepsItsNodesWhileItsFlinkSeriesStall() {
    // the Flink series stall from the first to the third hour: the job's placement on its nodes
    // is known and lasts until its series end, so even the default lag joins the node samples
    Detector inOrder = Learned.inOrder(DeliverySettings.defaults(), disk);
    long stall = start + HOUR;
    long resume = stall + 2 * HOUR;
    List<RecordedSample> arrivals = Deliveries.through(disk,
        l -> l.metricName().startsWith("flink_") ? Math.floorMod(l.hashCode(), 4) : 10,
        s -> {
          long t = s.timestampMs();
          boolean flink = s.labels().metricName().startsWith("flink_");
          return !flink || t < stall ? t : t < resume ? resume + (t - stall) / 60 : t;
        }, 3);
    Detector d = Learned.feed(Learned.detector(DeliverySettings.defaults()), arrivals, 3);
    assertThat(Learned.of(d, job)).isEqualTo(Learned.of(inOrder, job));
    assertThat(d.unjoinedSamples()).isEqualTo(inOrder.unjoinedSamples());
  }

  /** Another cluster's hosts named like the first's: only the cluster label tells them apart. */
  static List<RecordedSample> sameNamesAsDisk(List<RecordedSample> samples, String otherJob) {
    Map<String, String> hosts = Map.of("83.246", "92.110", "83_246", "92_110", "83-246",
        "92-110", "83.90", "92.84", "83_90", "92_84", "83-90", "92-84");
    return Deliveries.renamed(samples, v -> {
      if (v.equals(otherJob)) {
        return job;
      }
      String out = v;
      for (Map.Entry<String, String> e : hosts.entrySet()) {
        out = out.replace(e.getKey(), e.getValue());
      }
      return out;
    });
  }

  @Test
  void twoClustersWithTheSameJobAndHostNamesTeachWhatEachTeachesAlone() {
    String otherJob = backpressure.stream().map(s -> s.labels().get("job_name"))
        .filter(j -> j != null).findFirst().orElseThrow();
    List<RecordedSample> us = sameNamesAsDisk(backpressure, otherJob);
    Learned euAlone = reference(disk, job);
    Learned usAlone = reference(us, job);
    assertThat(usAlone.cause()).isEqualTo("backpressure");

    List<RecordedSample> both = new ArrayList<>(Deliveries.withLabels(disk,
        Map.of("cluster", "eu-1")));
    both.addAll(Deliveries.withLabels(us, Map.of("cluster", "us-1")));
    // us-1 live through shards; eu-1's Prometheus two hours behind, catching up
    Random rnd = new Random(11);
    long[] lag = rnd.longs(8, 0, 30_001).toArray();
    List<RecordedSample> arrivals = Deliveries.through(both,
        l -> Math.floorMod(l.hashCode(), 4) + (l.get("cluster").equals("eu-1") ? 0 : 4),
        s -> {
          long t = s.timestampMs();
          int shard = Math.floorMod(s.labels().hashCode(), 4);
          boolean eu = s.labels().get("cluster").equals("eu-1");
          return t < start + 2 * MINUTE ? t : t + lag[shard + (eu ? 0 : 4)] + (eu ? 2 * HOUR : 0);
        }, 11);
    Detector d = Learned.feed(Learned.detector(DeliverySettings.defaults()
        .withJobIdentityLabels(List.of("cluster"))), arrivals, 11);
    assertThat(Learned.jobs(d)).containsExactly("eu-1/" + job, "us-1/" + job);
    assertThat(Learned.of(d, "eu-1/" + job)).isEqualTo(euAlone);
    assertThat(Learned.of(d, "us-1/" + job)).isEqualTo(usAlone);

    // without identity labels both clusters are one job, as documented
    Detector merged = Learned.inOrder(DeliverySettings.defaults(), both);
    assertThat(Learned.jobs(merged)).containsExactly(job);
  }

  /** What a series belongs to, whose series fail over together (see ReplicaElection). */
  static String source(Labels l) {
    if (l.get("job_name") != null) {
      return "job " + l.get("job_name");
    }
    if (l.get("tm_id") != null) {
      return "tm " + l.get("tm_id");
    }
    if (l.metricName().startsWith("node_")) {
      return "node " + l.get("instance");
    }
    return "pod " + l.get("namespace") + "/" + l.get("pod");
  }

  @Test
  void anHaPairTeachesWhatTheElectedReplicaSentAcrossAFailover() throws Exception {
    // Kubernetes, 15 s scrapes: a job, TaskManagers, node_exporter and cAdvisor sources
    List<RecordedSample> disk = read("disk_throttling_gp2_b");
    String job = jobOf(disk);
    long start = disk.stream().mapToLong(RecordedSample::timestampMs).min().orElseThrow();
    long death = start + 2 * HOUR + 5_000;
    List<RecordedSample> a = disk.stream().filter(s -> s.timestampMs() <= death).toList();
    List<RecordedSample> b = Deliveries.shifted(disk, 7_000); // its own scrape phase
    // the reference: replica a until it died, then b after a's last sample of each source
    Map<String, Long> lastA = new HashMap<>();
    for (RecordedSample s : a) {
      lastA.merge(source(s.labels()), s.timestampMs(), Math::max);
    }
    List<RecordedSample> expectedSamples = new ArrayList<>(a);
    for (RecordedSample s : b) {
      if (s.timestampMs() > lastA.get(source(s.labels()))) {
        expectedSamples.add(s);
      }
    }
    Learned expected = reference(expectedSamples, job);
    assertThat(expected.cause()).isEqualTo("disk_throttling");

    List<RecordedSample> both = new ArrayList<>(Deliveries.withLabels(a,
        Map.of("prometheus_replica", "prometheus-k8s-0")));
    both.addAll(Deliveries.withLabels(b, Map.of("prometheus_replica", "prometheus-k8s-1")));
    Random rnd = new Random(5);
    long[] lag = rnd.longs(8, 0, 10_001).toArray();
    List<RecordedSample> arrivals = Deliveries.through(both,
        l -> Math.floorMod(l.hashCode(), 4) + (l.get("prometheus_replica").endsWith("0") ? 0 : 4),
        s -> s.timestampMs() + lag[Math.floorMod(s.labels().hashCode(), 4)
            + (s.labels().get("prometheus_replica").endsWith("0") ? 0 : 4)], 5);
    Detector d = Learned.feed(Learned.detector(DeliverySettings.defaults()
        .withHaReplicaLabel("prometheus_replica", Duration.ofSeconds(30))), arrivals, 5);
    assertThat(Learned.jobs(d)).containsExactly(job);
    assertThat(Learned.of(d, job)).isEqualTo(expected);
    assertThat(d.stats().haFailovers()).isEqualTo(lastA.size()); // each source once
    assertThat(d.stats().haStandby()).isPositive();
    assertThat(d.stats().outOfOrder() + d.stats().duplicate()).isZero();
    assertThat(d.lateFrameSamples()).isZero();
  }
}
