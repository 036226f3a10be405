package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.JobSummary;
import dev.checkpointdoctor.detector.pipeline.ShardedDetector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The scenario corpus and the lab recordings, several jobs replayed together, give the same
 * timeline, jobs, anomalies, diagnoses and baselines through one detector thread and through
 * several: sharding the detector changes nothing a user sees. By default a few scenarios and
 * recordings that exercise every join (node disks by host and by alias, TaskManager JVM series,
 * cAdvisor containers); {@code -Dsharded.all=true} replays the whole corpus and every recording.
 */
class ShardedReplayTest {
  static final boolean ALL = Boolean.getBoolean("sharded.all");
  static final List<String> SCENARIOS = List.of("disk_throttling_gp2_a", "cpu_throttling_a",
      "gc_pressure_b");
  static final List<String> RECORDINGS = List.of("disk_throttling", "gc_pressure");

  @Test
  void scenarioCorpusReplaysAlikeOnOneAndThreeShards() throws Exception {
    List<Path> files = new ArrayList<>();
    if (ALL) {
      try (Stream<Path> s = Files.list(Path.of("..", "scenarios"))) {
        s.filter(p -> p.toString().endsWith(".prom.gz")).sorted().forEach(files::add);
      }
    } else {
      for (String name : SCENARIOS) {
        files.add(Path.of("..", "scenarios", name + ".prom.gz"));
      }
    }
    compare(files, DetectorSettings.defaults());
  }

  @Test
  void labRecordingsReplayAlikeOnOneAndThreeShards() throws Exception {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of("..", "lab", "recordings"))) {
      s.filter(p -> p.toString().endsWith(".prom.gz"))
          // the Flink 2 runs repeat the Flink 1 runs' job names: replayed together they would be
          // one job each; they are compared on their own below when ALL
          .filter(p -> !p.getFileName().toString().startsWith("flink2-"))
          .filter(p -> ALL || RECORDINGS.stream()
              .anyMatch(r -> p.getFileName().toString().equals(r + ".prom.gz")))
          .sorted().forEach(files::add);
    }
    DetectorSettings lab = DetectorSettings.defaults().withMinObservations(5)
        .withHostAliases(Map.of("minicluster", "127.0.0.1"));
    compare(files, lab);
    if (ALL) {
      List<Path> flink2 = new ArrayList<>();
      try (Stream<Path> s = Files.list(Path.of("..", "lab", "recordings"))) {
        s.filter(p -> p.getFileName().toString().startsWith("flink2-"))
            .filter(p -> p.toString().endsWith(".prom.gz")).sorted()
            .forEach(flink2::add);
      }
      compare(flink2, lab);
    }
  }

  private static void compare(List<Path> files, DetectorSettings settings) throws Exception {
    OfflineReplay one = new OfflineReplay(settings, 1);
    one.replayFiles(files);
    Outcome expected = Outcome.of(one);
    assertThat(expected.timeline().values().stream().mapToInt(List::size).sum())
        .as("the replay says something").isPositive();
    assertThat(expected.jobs()).as("several jobs").hasSizeGreaterThan(1);
    OfflineReplay three = new OfflineReplay(settings, 3);
    three.replayFiles(files);
    assertThat(three.detector().jobs().stream()
        .map(j -> three.detector().router().shardOf(j.job())).distinct().count())
        .as("jobs on several shards").isGreaterThan(1);
    Outcome actual = Outcome.of(three);
    assertThat(actual.timeline()).isEqualTo(expected.timeline());
    assertThat(actual).isEqualTo(expected);
    System.out.printf("sharded replay of %d files: %d jobs, %d events, %d anomalies, equal on 1"
            + " and 3 shards%n", files.size(), expected.jobs().size(),
        expected.timeline().values().stream().mapToInt(List::size).sum(),
        expected.anomalies().size());
  }

  /** Everything a user sees after a replay; anomaly ids left out (shards number them apart). */
  record Outcome(Map<String, List<String>> timeline, List<JobSummary> jobs,
      Map<String, String> diagnoses, Map<String, String> baselines, List<String> anomalies,
      long unjoined, long processed, long observations, int trackedSeries) {

    static Outcome of(OfflineReplay replay) {
      ShardedDetector d = replay.detector();
      Map<String, List<String>> timeline = new TreeMap<>();
      for (TimelineEvent e : replay.events()) {
        timeline.computeIfAbsent(e.job(), k -> new ArrayList<>()).add(e.atMs() + " " + e.kind()
            + " " + (e.anomaly() == null ? "" : withoutId(e.anomaly())) + " " + e.before()
            + " -> " + e.after());
      }
      Map<String, String> diagnoses = new TreeMap<>();
      Map<String, String> baselines = new TreeMap<>();
      for (JobSummary j : d.jobs()) {
        diagnoses.put(j.job(), String.valueOf(d.diagnosis(j.job()).orElse(null)));
        baselines.put(j.job(), d.baselines(j.job()).toString());
      }
      List<String> anomalies = new ArrayList<>();
      for (Anomaly a : d.anomalies(null, null, Long.MIN_VALUE)) {
        anomalies.add(withoutId(a));
      }
      anomalies.sort(null);
      return new Outcome(timeline, d.jobs(), diagnoses, baselines, anomalies,
          d.unjoinedSamples(), d.stats().processed(), d.stats().observations(),
          d.trackedSeries());
    }

    static String withoutId(Anomaly a) {
      return new Anomaly(0, a.job(), a.signal(), a.scope(), a.open(), a.startedAtMs(),
          a.endedAtMs(), a.observed(), a.expected(), a.lower(), a.upper(), a.score(),
          a.causes()).toString();
    }
  }
}
