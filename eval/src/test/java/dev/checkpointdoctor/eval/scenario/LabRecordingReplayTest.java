package dev.checkpointdoctor.eval.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The recordings of real Flink runs in lab/recordings (lab/README.md) replay offline to the cause
 * the live run was diagnosed and alerted with. {@code flink2-*} are the same scenarios on Flink
 * 2.3.0 (-Pflink2), whose exposition differs (e.g. lastCheckpointCompletedTimestamp).
 */
class LabRecordingReplayTest {

  @ParameterizedTest
  @CsvSource({
      "backpressure, backpressure",
      "state_growth, state_growth",
      "checkpoint_storage_slow, checkpoint_storage_slow",
      "gc_pressure, gc_pressure",
      "data_skew, data_skew",
      "unaligned_checkpoint_inflation, unaligned_checkpoint_inflation",
      "checkpoint_interval_too_short, checkpoint_interval_too_short",
      "cpu_throttling, cpu_throttling",
      "flink2-backpressure, backpressure",
      "flink2-state_growth, state_growth",
      "flink2-checkpoint_storage_slow, checkpoint_storage_slow",
      "flink2-gc_pressure, gc_pressure",
      "flink2-data_skew, data_skew",
      "flink2-unaligned_checkpoint_inflation, unaligned_checkpoint_inflation",
      "flink2-cpu_throttling, cpu_throttling",
      // not the scenario's cause: the live run named state_growth (lab/README.md explains why),
      // and the replay has to agree with the live run
      "flink2-checkpoint_interval_too_short, state_growth"})
  void replayOfTheLiveRunNamesItsCause(String recording, String cause) throws Exception {
    assertThat(causes(recording, DetectorSettings.defaults().withMinObservations(5)))
        .as("diagnoses of %s", recording).contains(cause);
  }

  /**
   * The disk runs join node_exporter's disks to the MiniCluster's TaskManager with the service's
   * --host-alias (the lab's Flink scrape names the empty host "minicluster"), as the live runs did.
   * The slow local disk (RocksDB on an NFS-like volume, no ceiling) is to be named
   * rocksdb_write_stall: docs/causes/rocksdb_write_stall.md.
   */
  @ParameterizedTest
  @CsvSource({
      "disk_throttling, disk_throttling",
      "rocksdb_slow_local_disk, rocksdb_write_stall",
      // not the scenario's cause: on 2.3.0 RocksDB reported no stall at all and the live run
      // never named rocksdb_write_stall (lab/README.md); it alerted disk_throttling first
      "flink2-rocksdb_slow_local_disk, disk_throttling"})
  void diskRunsReplayWithTheirHostAlias(String recording, String cause) throws Exception {
    assertThat(causes(recording, DISK_JOIN)).as("diagnoses of %s", recording).contains(cause);
  }

  private static final DetectorSettings DISK_JOIN = DetectorSettings.defaults()
      .withMinObservations(5).withHostAliases(Map.of("minicluster", "127.0.0.1"));

  /**
   * The first cause other than unknown named at or after the fault's injection (T, from the live
   * run's log) must be the scenario's cause, except in the known gaps below, which are reported
   * and not failed (lab/README.md says why; the cause rules, not the lab, are to close them). A
   * known gap that closes is reported too, so that it can leave the list.
   */
  @ParameterizedTest
  @CsvSource({
      "cpu_throttling, cpu_throttling, false",
      "flink2-cpu_throttling, cpu_throttling, false",
      "rocksdb_slow_local_disk, rocksdb_write_stall, true",
      "flink2-rocksdb_slow_local_disk, rocksdb_write_stall, true"})
  void firstCauseNamedAfterTheFault(String recording, String cause, boolean hostAlias)
      throws Exception {
    Instant t = injectedAt(recording);
    String first = firstNamedFrom(recording, hostAlias ? DISK_JOIN : MIN5, t.toEpochMilli());
    String gap = KNOWN_WRONG_FIRST.get(recording);
    if (gap == null) {
      assertThat(first).as("first cause named in %s after T = %s", recording, t).isEqualTo(cause);
    } else if (gap.equals(first)) {
      System.out.printf("known gap: %s names %s first after T, before %s (lab/README.md)%n",
          recording, first, cause);
    } else {
      System.out.printf("known gap changed: %s now names %s first after T (listed: %s, "
          + "expected %s); update KNOWN_WRONG_FIRST%n", recording, first, gap, cause);
    }
  }

  /**
   * Recordings whose first cause after T is not the scenario's, with what they name first.
   * flink2-cpu_throttling: the young job's RocksDB size drift read as state growth for 2 s before
   * the throttling had points enough (a quota explains no state growth in CausalModel, rightly).
   * flink2-rocksdb_slow_local_disk: the disk busy and queueing reads as a throttled disk until its
   * throughput is judged not flat, and RocksDB never reported a stall on 2.3.0, so the
   * scenario's cause is never named.
   */
  private static final Map<String, String> KNOWN_WRONG_FIRST = Map.of(
      "flink2-cpu_throttling", "state_growth",
      "flink2-rocksdb_slow_local_disk", "disk_throttling");

  private static final DetectorSettings MIN5 = DetectorSettings.defaults().withMinObservations(5);

  private static Instant injectedAt(String recording) throws Exception {
    Matcher m = Pattern.compile("injected at T = (\\S+)").matcher(
        Files.readString(Path.of("..", "lab", "recordings", recording + ".run.txt")));
    assertThat(m.find()).as("T in %s.run.txt", recording).isTrue();
    return Instant.parse(m.group(1));
  }

  private static String firstNamedFrom(String recording, DetectorSettings settings, long fromMs)
      throws Exception {
    return diagnoses(recording, settings).stream()
        .filter(e -> e.atMs() >= fromMs && !"unknown".equals(e.after().cause()))
        .map(e -> e.after().cause()).findFirst().orElse("none");
  }

  private static List<String> causes(String recording, DetectorSettings settings)
      throws Exception {
    return diagnoses(recording, settings).stream().map(e -> e.after().cause())
        .filter(Objects::nonNull).toList();
  }

  private static List<TimelineEvent> diagnoses(String recording, DetectorSettings settings)
      throws Exception {
    OfflineReplay replay = new OfflineReplay(settings);
    replay.replayFiles(List.of(Path.of("..", "lab", "recordings", recording + ".prom.gz")));
    return replay.events().stream()
        .filter(e -> e.kind() == TimelineEvent.Kind.DIAGNOSIS_CHANGED && e.after() != null)
        .toList();
  }
}
