package dev.checkpointdoctor.api.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SelectorsTest {
  private final SignalCatalog catalog = SignalCatalog.defaults();
  private final Selectors selectors = new Selectors(catalog);

  private static boolean selects(Target.Tier tier, Map<String, String> labels) {
    List<Map<String, String>> parsed = FakePromApi.selector(tier.valueQuery());
    return FakePromApi.matches(parsed, labels);
  }

  @Test
  void everyCatalogNameIsReadByExactlyOneKindOfTarget() {
    String job = "orders \"eu\"";
    List<Target.Tier> tiers = List.of(selectors.jobCheckpoints(job), selectors.jobScrapes(job),
        selectors.taskManagers(List.of("tm_1")), selectors.nodes(List.of("host_1"), List.of()),
        selectors.containers(List.of("tm_1"), List.of()));
    Map<String, String> common = Map.of("job_name", job, "tm_id", "tm_1",
        "instance", "host-1:9100", "pod", "tm-1");
    for (String name : catalog.exactNames()) {
      Map<String, String> labels = new java.util.HashMap<>(common);
      labels.put("__name__", name);
      long n = tiers.stream().filter(t -> selects(t, labels)).count();
      assertThat(n).as(name).isEqualTo(1);
    }
    for (String shaped : List.of(
        "flink_taskmanager_job_task_operator_window_state_rocksdb_num_files_at_level0",
        "flink_taskmanager_Status_JVM_GarbageCollector_G1_Young_Generation_Time")) {
      Map<String, String> labels = new java.util.HashMap<>(common);
      labels.put("__name__", shaped);
      assertThat(tiers.stream().filter(t -> selects(t, labels)).count()).as(shaped)
          .isEqualTo(1);
    }
  }

  @Test
  void flinkHostsMatchTheNodeNamesTheyWereSanitisedFrom() {
    Target.Tier nodes = selectors.nodes(List.of("flink_taskmanager_1", "10_0_0_5"),
        List.of("n.1"));
    Map<String, String> disk = Map.of("__name__", "node_disk_io_time_seconds_total");
    assertThat(selects(nodes, with(disk, "instance", "flink-taskmanager-1:9100"))).isTrue();
    assertThat(selects(nodes, with(disk, "instance", "10.0.0.5:9100"))).isTrue();
    assertThat(selects(nodes, with(disk, "node", "flink-taskmanager-1"))).isTrue();
    assertThat(selects(nodes, with(disk, "instance", "n.1"))).isTrue();
    assertThat(selects(nodes, with(disk, "instance", "nx1:9100"))).as("exact names exact")
        .isFalse();
    assertThat(selects(nodes, with(disk, "instance", "flink-taskmanager-12:9100"))).isFalse();
    assertThat(Pattern.compile(Selectors.alternatives(List.of("a.b"), false).replace("\\\\", "\\"))
        .matcher("a.b").matches()).isTrue();
  }

  private static Map<String, String> with(Map<String, String> m, String k, String v) {
    Map<String, String> out = new java.util.HashMap<>(m);
    out.put(k, v);
    return out;
  }
}
