package dev.checkpointdoctor.detector.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobIdentityTest {
  static final Labels SERIES = Labels.of("__name__", "m", "cluster", "eu-1",
      "prometheus", "monitoring/k8s", "job_name", "orders_etl");

  @Test
  void withoutIdentityLabelsTheKeyIsTheJobName() {
    JobIdentity id = JobIdentity.jobNameOnly();
    assertThat(id.key(SERIES)).isEqualTo("orders_etl");
    assertThat(id.prefix(SERIES)).isEmpty();
    assertThat(id.jobName("orders_etl")).isEqualTo("orders_etl");
    assertThat(id.labelsOf("orders_etl")).isEmpty();
    assertThat(id.key(Labels.of("__name__", "m"))).isNull();
  }

  @Test
  void identityValuesAndJobNameJoinedBySlashReadBackUnambiguously() {
    JobIdentity id = new JobIdentity(List.of("cluster", "prometheus", "zone"));
    // a value's own '/' and '%' are escaped; a missing label is an empty value
    String key = id.key(SERIES);
    assertThat(key).isEqualTo("eu-1/monitoring%2Fk8s//orders_etl");
    assertThat(id.jobName(key)).isEqualTo("orders_etl");
    assertThat(id.labelsOf(key)).containsExactly(Map.entry("cluster", "eu-1"),
        Map.entry("prometheus", "monitoring/k8s"), Map.entry("zone", ""));
    Labels odd = Labels.of("cluster", "100%/2F", "job_name", "j");
    JobIdentity one = new JobIdentity(List.of("cluster"));
    assertThat(one.labelsOf(one.key(odd))).containsEntry("cluster", "100%/2F");
    assertThat(one.prefix(odd)).isEqualTo("100%25%2F2F/");
  }
}
