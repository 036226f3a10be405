package dev.checkpointdoctor.api.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.model.Labels;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShardSpecTest {
  @Test
  void valuesRecordedFromPrometheus242() {
    // Computed by Prometheus 2.42's hashmod relabel action (HashmodPrometheusIT compares every
    // value live); recorded here so the function is checked where Prometheus is not installed.
    assertThat(Hashmod.of("orders-etl", 2)).isEqualTo(PROMETHEUS.get("orders-etl/2"));
    assertThat(Hashmod.of("orders-etl", 7)).isEqualTo(PROMETHEUS.get("orders-etl/7"));
    assertThat(Hashmod.of("job-0", 1_000_003)).isEqualTo(PROMETHEUS.get("job-0/1000003"));
    assertThat(Hashmod.of("job-1", 1_000_003)).isEqualTo(PROMETHEUS.get("job-1/1000003"));
    assertThat(Hashmod.of(List.of("c1", "job-1"), 5)).isEqualTo(PROMETHEUS.get("c1;job-1/5"));
  }

  static final Map<String, Long> PROMETHEUS = Map.of("orders-etl/2", 0L, "orders-etl/7", 0L,
      "job-0/1000003", 468_888L, "job-1/1000003", 867_716L, "c1;job-1/5", 2L);

  @Test
  void separatorAndMissingLabelsJoinAsPrometheusDoes() {
    assertThat(Hashmod.of(List.of("c1", "job-1"), 1_000_003))
        .isEqualTo(Hashmod.of("c1;job-1", 1_000_003));
    List<String> withMissing = new java.util.ArrayList<>();
    withMissing.add(null);
    withMissing.add("job-1");
    assertThat(Hashmod.of(withMissing, 1_000_003)).isEqualTo(Hashmod.of(";job-1", 1_000_003));
  }

  @Test
  void everyValueLandsBelowTheModulusEvenWhenTheTopBitIsSet() {
    // About half of all digests have the top bit of their last 8 bytes set: read as a signed
    // long they are negative, and a signed remainder would be negative too.
    for (int i = 0; i < 1000; i++) {
      long h = Hashmod.of("job-" + i, 3);
      assertThat(h).isBetween(0L, 2L);
    }
  }

  @Test
  void seriesWithoutJobNameGoToEveryShard() {
    ShardSpec s = ShardSpec.parse("1/4", List.of("job_name"));
    Labels node = Labels.of("__name__", "node_disk_writes_completed_total", "instance", "h:9100");
    assertThat(s.shardOfSeries(node)).isEqualTo(-1);
    assertThat(s.keeps(node)).isTrue();
    int kept = 0;
    for (int i = 0; i < 400; i++) {
      Labels job = Labels.of("__name__", "flink_jobmanager_job_lastCheckpointDuration",
          "job_name", "job-" + i);
      assertThat(s.keeps(job)).isEqualTo(Hashmod.of("job-" + i, 4) == 1);
      kept += s.keeps(job) ? 1 : 0;
    }
    assertThat(kept).isBetween(60, 140);
  }

  @Test
  void hashesTheConfiguredLabelsInOrder() {
    ShardSpec s = ShardSpec.parse("0/3", List.of("cluster", "job_name"));
    Labels series = Labels.of("job_name", "orders", "cluster", "eu-1");
    assertThat(s.shardOfSeries(series)).isEqualTo((int) Hashmod.of("eu-1;orders", 3));
    assertThat(s.hashKey(series)).isEqualTo("eu-1;orders");
    assertThat(s.shardOfJob("orders", JobIdentity.jobNameOnly())).isEmpty();
    ShardSpec byName = ShardSpec.parse("0/3", List.of("job_name"));
    assertThat(byName.shardOfJob("orders", JobIdentity.jobNameOnly()))
        .hasValue((int) Hashmod.of("orders", 3));
  }

  @Test
  void aJobKnownOnlyByItsNameMayBelongHereUnlessItsNameAloneSaysOtherwise() {
    ShardSpec byName = ShardSpec.parse("1/3", List.of("job_name"));
    assertThat(byName.mayHoldJobName("orders")).isEqualTo(Hashmod.of("orders", 3) == 1);
    int here = 0;
    for (int i = 0; i < 300; i++) {
      here += byName.mayHoldJobName("job-" + i) ? 1 : 0;
    }
    assertThat(here).isBetween(60, 140);
    // hashed with the cluster too: the name alone cannot rule a job out
    ShardSpec both = ShardSpec.parse("1/3", List.of("cluster", "job_name"));
    for (int i = 0; i < 30; i++) {
      assertThat(both.mayHoldJobName("job-" + i)).isTrue();
    }
    assertThat(ShardSpec.unsharded().mayHoldJobName("orders")).isTrue();
  }

  @Test
  void aJobKeyWithIdentityLabelsGivesItsShardFromItsParts() {
    JobIdentity byCluster = new JobIdentity(List.of("cluster"));
    Labels series = Labels.of("job_name", "orders", "cluster", "eu/1");
    String key = byCluster.key(series); // eu%2F1/orders
    ShardSpec both = ShardSpec.parse("0/5", List.of("cluster", "job_name"));
    assertThat(both.shardOfJob(key, byCluster)).hasValue(both.shardOfSeries(series));
    assertThat(both.shardOfJob(key, byCluster)).hasValue((int) Hashmod.of("eu/1;orders", 5));
    // the shard hashed from job_name alone: the key's job_name, not the whole key
    ShardSpec byName = ShardSpec.parse("0/5", List.of("job_name"));
    assertThat(byName.shardOfJob(key, byCluster)).hasValue((int) Hashmod.of("orders", 5));
    // a shard label the key does not carry, or a key of other identity labels
    assertThat(ShardSpec.parse("0/5", List.of("namespace", "job_name"))
        .shardOfJob(key, byCluster)).isEmpty();
    assertThat(both.shardOfJob("orders", byCluster)).isEmpty();
  }

  @Test
  void parseNamesWhatIsWrong() {
    assertThat(ShardSpec.parse(" 2/3 ", List.of("job_name")).label()).isEqualTo("2/3");
    assertThatThrownBy(() -> ShardSpec.parse("3/3", List.of("job_name")))
        .hasMessageContaining("between 0 and 2");
    assertThatThrownBy(() -> ShardSpec.parse("1", List.of("job_name")))
        .hasMessageContaining("I/N");
    assertThatThrownBy(() -> ShardSpec.parse("a/3", List.of("job_name")))
        .hasMessageContaining("whole numbers");
    assertThatThrownBy(() -> ShardSpec.parse("0/0", List.of("job_name")))
        .hasMessageContaining("between 1 and");
    assertThatThrownBy(() -> ShardSpec.parse("0/2", List.of("job-name")))
        .hasMessageContaining("\"job-name\"");
    assertThatThrownBy(() -> ShardSpec.parse("0/2", List.of()))
        .hasMessageContaining("at least one label");
  }
}
