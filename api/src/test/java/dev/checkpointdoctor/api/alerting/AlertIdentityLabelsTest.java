package dev.checkpointdoctor.api.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.JobIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With --job-identity-labels, an alert names the job by job_name and its identity labels. */
class AlertIdentityLabelsTest {
  @Test
  void identityLabelsStandBesideJobNameAndTheLinkUsesTheKey() {
    AlertMapper mapper = new AlertMapper("http://doctor.example:9877", Duration.ofMinutes(1),
        new JobIdentity(List.of("cluster", "region")));
    Alert a = mapper.firing(AlertMapperTest.diagnosis("eu-1/west/orders_etl", "disk_throttling",
        false, null), Instant.parse("2026-12-02T12:00:00Z"));
    assertThat(a.labels()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "alertname", "FlinkCheckpointAnomaly", "job_name", "orders_etl", "cluster", "eu-1",
        "region", "west", "cause", "disk_throttling", "severity", "warning",
        "signal", "checkpoint_duration"));
    assertThat(a.generatorUrl())
        .isEqualTo("http://doctor.example:9877/ui/job.html?job=eu-1%2Fwest%2Forders_etl"
            + "&at=2026-12-02T11%3A50%3A00Z");
  }

  @Test
  void anIdentityLabelCannotReplaceTheAlertsOwnLabels() {
    AlertMapper mapper = new AlertMapper("http://x", Duration.ofMinutes(1),
        new JobIdentity(List.of("severity")));
    Alert a = mapper.firing(AlertMapperTest.diagnosis("page-me/j", "unknown", false, null),
        Instant.parse("2026-12-02T12:00:00Z"));
    assertThat(a.labels()).containsEntry("severity", "warning").containsEntry("job_name", "j");
  }
}
