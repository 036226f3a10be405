package dev.checkpointdoctor.eval.family2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.eval.family2.JobPlan.FlinkVersion;
import dev.checkpointdoctor.eval.family2.JobPlan.RocksShape;
import dev.checkpointdoctor.eval.scenario.OfflineReplay;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every label layout the family emits is read by the service's catalog: a small job of each
 * layout, Flink version and RocksDB name shape replayed through the detector has baselines for
 * its checkpoints, TaskManagers and RocksDB, and for node_exporter disks and cAdvisor CPU
 * where the layout ties them to the TaskManagers (see Layout). Where it does not, that is a
 * finding reported in docs/FAMILY2.md, not asserted here.
 */
class Family2LayoutTest {

  @ParameterizedTest
  @CsvSource({
      "BARE_METAL_IP,   V1_20_3, COLUMN_FAMILY_LABEL",
      "BARE_METAL_FQDN, V2_3_0,  PER_STATE_NAME",
      "K8S_NATIVE,      V2_3_0,  COLUMN_FAMILY_LABEL",
      "K8S_HOSTNET,     V1_20_3, PER_STATE_NAME",
      "K8S_STANDALONE,  V2_3_0,  PER_STATE_NAME"})
  void theDetectorLearnsBaselinesForEveryLayout(Layout.Kind layout, FlinkVersion version,
      RocksShape shape) {
    Family2Scenario s = Family2PlayTest.small(17, layout, d -> {
      d.version = version;
      d.rocksShape = shape;
      d.backend = JobPlan.Backend.ROCKSDB;
      d.template = 0;
    });
    OfflineReplay replay = new OfflineReplay(DetectorSettings.defaults());
    replay.replay(s);
    String job = s.truth().job();
    List<BaselineSummary> baselines = replay.detector().baselines(job);
    assertThat(ready(baselines, Signal.CHECKPOINT_DURATION, "job")).as("checkpoint duration")
        .isTrue();
    assertThat(ready(baselines, Signal.CHECKPOINT_SIZE, "job")).as("checkpoint size").isTrue();
    assertThat(ready(baselines, Signal.GC_TIME, "tm:")).as("GC time").isTrue();
    assertThat(ready(baselines, Signal.BUSY, "task:")).as("busy").isTrue();
    assertThat(ready(baselines, Signal.ROCKSDB_L0_FILES, "operator:")).as("RocksDB L0")
        .isTrue();
    assertThat(baselines).as("RocksDB column family in the scope").anySatisfy(b -> {
      assertThat(b.signal()).isEqualTo(Signal.ROCKSDB_PENDING_COMPACTION);
      assertThat(b.scope()).endsWith("/seen_order_ids");
    });
    if (layout.diskJoinable()) {
      assertThat(baselines).as("a disk joined to the TaskManagers").anySatisfy(b -> {
        assertThat(b.signal()).isEqualTo(Signal.DISK_WRITE_IOPS);
        assertThat(b.state()).isEqualTo("ready");
        assertThat(b.join()).isIn("instance_host", "host_label");
      });
    }
    if (layout.containerJoinable()) {
      assertThat(baselines).as("a TaskManager container joined by pod").anySatisfy(b -> {
        assertThat(b.signal()).isEqualTo(Signal.CPU_THROTTLING);
        assertThat(b.join()).isEqualTo("pod_tm_id");
      });
    }
  }

  private static boolean ready(List<BaselineSummary> baselines, Signal signal, String scope) {
    return baselines.stream().anyMatch(b -> b.signal() == signal && b.scope().startsWith(scope)
        && b.state().equals("ready"));
  }
}
