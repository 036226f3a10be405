package dev.checkpointdoctor.api.flinkrest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.flinkrest.FlinkRestParser.History;
import dev.checkpointdoctor.api.flinkrest.FlinkRestParser.OverviewJob;
import dev.checkpointdoctor.api.flinkrest.RestFixtures.Answer;
import dev.checkpointdoctor.detector.facts.CheckpointConfig;
import dev.checkpointdoctor.detector.facts.CheckpointDetail;
import dev.checkpointdoctor.detector.facts.SubtaskTiming;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The parser against real answers of Flink 1.20.3 and 2.3.0 (lab MiniCluster, the slow-storage
 * scenario: "normal" before the fault, "fault" once checkpoints expired).
 */
class FlinkRestParserTest {
  static final String JOB = "lab_checkpoint_storage_slow";

  static JsonObject obj(Map<String, Answer> a, String path) {
    return new JsonObject(a.get(path).body());
  }

  static CheckpointConfig config(Map<String, Answer> a, String jid) {
    String p = "/jobs/" + jid;
    return FlinkRestParser.config(obj(a, p + "/checkpoints/config"),
        a.get(p + "/jobmanager/config").status() == 200
            ? FlinkRestParser.keyValues(new JsonArray(a.get(p + "/jobmanager/config").body()))
            : Map.of(),
        FlinkRestParser.keyValues(new JsonArray(a.get("/jobmanager/config").body())));
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.20.3", "2.3.0"})
  void readsTheJobAndItsCheckpointConfiguration(String version) {
    Map<String, Answer> a = RestFixtures.load(version, "normal");
    assertThat(new JsonObject(a.get("/config").body()).getString("flink-version"))
        .isEqualTo(version);
    String jid = RestFixtures.jobId(a);
    List<OverviewJob> jobs = FlinkRestParser.overview(obj(a, "/jobs/overview"));
    assertThat(jobs).extracting(OverviewJob::jid, OverviewJob::name, OverviewJob::state)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(jid, JOB, "RUNNING"));
    assertThat(jobs.get(0).running()).isTrue();
    assertThat(FlinkRestParser.vertices(obj(a, "/jobs/" + jid)).values())
        .containsExactly("Source: source", version.startsWith("2")
            ? "count -> slow-map -> sink: Writer" : "count -> slow-map -> Sink: sink");

    CheckpointConfig c = config(a, jid);
    // the lab's job: LabJob.config
    assertThat(c.timeoutMs()).isEqualTo(30_000);
    assertThat(c.intervalMs()).isEqualTo(2_000);
    assertThat(c.minPauseMs()).isZero();
    assertThat(c.maxConcurrent()).isEqualTo(1);
    assertThat(c.unaligned()).isFalse();
    assertThat(c.mode()).isEqualTo("exactly_once");
    assertThat(c.stateBackend()).isEqualTo("EmbeddedRocksDBStateBackend");
    assertThat(c.storageScheme()).isEqualTo("slowfile");
    assertThat(c.checkpointDir()).startsWith("slowfile:///tmp/cpd-lab-checkpoint_storage_slow-")
        .endsWith("/checkpoints");
    assertThat(c.rocksDbLocalDirs()).singleElement().asString()
        .startsWith("/tmp/cpd-lab-checkpoint_storage_slow-").endsWith("/rocksdb");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.20.3", "2.3.0"})
  void aHealthyJobHasNoCheckpointWorthALook(String version) {
    Map<String, Answer> a = RestFixtures.load(version, "normal");
    String jid = RestFixtures.jobId(a);
    History h = FlinkRestParser.history(obj(a, "/jobs/" + jid + "/checkpoints"));
    assertThat(h.latestCompleted()).isNotNull();
    assertThat(h.latestCompleted().status()).isEqualTo("completed");
    assertThat(h.p50EndToEndMs()).isBetween(1L, 5_000L);
    long now = h.latestCompleted().latestAckMs() + 1_000;
    assertThat(FlinkRestParser.pick(h, 30_000, now)).isNull();
    // the latest completed checkpoint, detailed anyway: every subtask acknowledged, with phases
    long id = h.latestCompleted().id();
    CheckpointDetail d = detail(a, jid, id, "slow", now);
    assertThat(d.status()).isEqualTo("completed");
    assertThat(d.subtasks()).hasSize(4).allSatisfy(s -> {
      assertThat(s.acknowledged()).isTrue();
      assertThat(s.endToEndMs()).isNotNegative();
      assertThat(s.syncMs()).isNotNegative();
      assertThat(s.asyncMs()).isNotNegative();
      assertThat(s.startDelayMs()).isNotNegative();
      assertThat(s.alignmentMs()).isNotNegative();
      assertThat(s.longestPhase()).isNotNull();
    });
    assertThat(d.numAcknowledged()).isEqualTo(4);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.20.3", "2.3.0"})
  void anExpiredCheckpointIsPickedWithTheSubtasksThatNeverAcknowledged(String version) {
    Map<String, Answer> a = RestFixtures.load(version, "fault");
    String jid = RestFixtures.jobId(a);
    History h = FlinkRestParser.history(obj(a, "/jobs/" + jid + "/checkpoints"));
    assertThat(h.latestFailed()).isNotNull();
    assertThat(h.latestFailed().failureMessage()).isEqualTo("Checkpoint expired before completing.");
    long now = h.latestFailed().failureMs() + 1_000;
    FlinkRestParser.Pick pick = FlinkRestParser.pick(h, 30_000, now);
    assertThat(pick).isNotNull();
    assertThat(pick.why()).isEqualTo("failed");
    assertThat(pick.id()).isEqualTo(h.latestFailed().id());
    CheckpointDetail d = detail(a, jid, pick.id(), pick.why(), now);
    assertThat(d.failed()).isTrue();
    assertThat(d.endToEndMs()).isBetween(30_000L, 60_000L);
    assertThat(d.failureMessage()).isEqualTo("Checkpoint expired before completing.");
    // the RocksDB subtasks' uploads to slowfile:// never finished; the source's state is tiny
    assertThat(d.subtasks()).filteredOn(s -> !s.acknowledged())
        .extracting(SubtaskTiming::vertexName).isNotEmpty()
        .allSatisfy(n -> assertThat(n).startsWith("count -> slow-map"));
    assertThat(d.subtasks()).filteredOn(s -> !s.acknowledged()).allSatisfy(s -> {
      assertThat(s.endToEndMs()).isEqualTo(-1);
      assertThat(s.asyncMs()).isEqualTo(-1);
      assertThat(s.longestPhase()).isNull();
    });
    assertThat(d.numAcknowledged()).isLessThan(d.numSubtasks());
  }

  @Test
  void unknownFieldsMissingFieldsAndNumbersAsStringsAreTolerated() {
    JsonObject cp = new JsonObject().put("interval", "60000").put("timeout", 3_600_000)
        .put("some_future_field", new JsonObject().put("x", 1)).put("unaligned_checkpoints", true);
    CheckpointConfig c = FlinkRestParser.config(cp, Map.of(), Map.of(
        "state.checkpoints.dir", "s3p://bucket/flink", "state.backend.rocksdb.localdir",
        "/mnt/a,/mnt/b"));
    assertThat(c.intervalMs()).isEqualTo(60_000);
    assertThat(c.timeoutMs()).isEqualTo(3_600_000);
    assertThat(c.minPauseMs()).isEqualTo(-1);
    assertThat(c.unaligned()).isTrue();
    assertThat(c.storageScheme()).isEqualTo("s3p");
    assertThat(c.rocksDbLocalDirs()).containsExactly("/mnt/a", "/mnt/b");
    // checkpointing off: Flink answers 404 for the config, the poller passes null
    CheckpointConfig none = FlinkRestParser.config(null, Map.of(), Map.of());
    assertThat(none.timeoutMs()).isEqualTo(-1);
    assertThat(none.storageScheme()).isNull();
    assertThat(FlinkRestParser.history(new JsonObject().put("latest", "nonsense")).latestFailed())
        .isNull();
    assertThat(FlinkRestParser.overview(new JsonObject().put("jobs", new JsonArray()
        .add(new JsonObject().put("name", "no id")).add("not an object")))).isEmpty();
  }

  @Test
  void slowMeansThreeTimesTheMedianButNeverPastHalfTheTimeout() {
    assertThat(FlinkRestParser.slowThreshold(100, 600_000)).isEqualTo(10_000);
    assertThat(FlinkRestParser.slowThreshold(60_000, 600_000)).isEqualTo(180_000);
    assertThat(FlinkRestParser.slowThreshold(300_000, 600_000)).isEqualTo(300_000);
    assertThat(FlinkRestParser.slowThreshold(-1, -1)).isEqualTo(10_000);
  }

  static CheckpointDetail detail(Map<String, Answer> a, String jid, long id, String why,
      long now) {
    String p = "/jobs/" + jid + "/checkpoints/details/" + id;
    Map<String, String> vertices = FlinkRestParser.vertices(obj(a, "/jobs/" + jid));
    Map<String, JsonObject> subtasks = new LinkedHashMap<>();
    for (String vid : vertices.keySet()) {
      subtasks.put(vid, obj(a, p + "/subtasks/" + vid));
    }
    return FlinkRestParser.detail(obj(a, p), subtasks, vertices, why, now);
  }
}
