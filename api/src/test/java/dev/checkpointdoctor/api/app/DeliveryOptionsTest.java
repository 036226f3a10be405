package dev.checkpointdoctor.api.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --max-delivery-lag, --ha-replica-label, --ha-failover-timeout, --job-identity-labels. */
class DeliveryOptionsTest {
  static ServiceSettings parse(Map<String, String> env, String... args) throws Exception {
    return ServiceSettings.parse(List.of(args), env);
  }

  @Test
  void defaultsAreFiveMinutesNoHaAndJobNameAlone() throws Exception {
    ServiceSettings s = parse(Map.of());
    assertThat(s.delivery().maxDeliveryLag()).isEqualTo(Duration.ofMinutes(5));
    assertThat(s.delivery().haReplicaLabel()).isNull();
    assertThat(s.delivery().haFailoverTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.delivery().jobIdentityLabels()).isEmpty();
  }

  @Test
  void flagsAndEnvironment() throws Exception {
    ServiceSettings s = parse(Map.of("CPD_JOB_IDENTITY_LABELS", "region"),
        "--max-delivery-lag", "2h", "--ha-replica-label", "prometheus_replica",
        "--ha-failover-timeout", "45s", "--job-identity-labels", "cluster, region");
    assertThat(s.delivery().maxDeliveryLag()).isEqualTo(Duration.ofHours(2));
    assertThat(s.delivery().haReplicaLabel()).isEqualTo("prometheus_replica");
    assertThat(s.delivery().haFailoverTimeout()).isEqualTo(Duration.ofSeconds(45));
    assertThat(s.delivery().jobIdentityLabels()).containsExactly("cluster", "region");
    assertThat(parse(Map.of("CPD_JOB_IDENTITY_LABELS", "cluster")).delivery()
        .jobIdentityLabels()).containsExactly("cluster");
  }

  @Test
  void badValuesFailStartUpNamingTheFlag() {
    assertThatThrownBy(() -> parse(Map.of(), "--max-delivery-lag", "soon"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("--max-delivery-lag");
    assertThatThrownBy(() -> parse(Map.of(), "--ha-failover-timeout", "0s"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("--ha-failover-timeout");
    assertThatThrownBy(() -> parse(Map.of(), "--job-identity-labels", "cluster,1bad"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("\"1bad\"");
    assertThatThrownBy(() -> parse(Map.of(), "--job-identity-labels", "job_name"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("job_name");
    assertThatThrownBy(() -> parse(Map.of(), "--ha-replica-label", "replica",
        "--job-identity-labels", "cluster,replica"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("\"replica\"");
  }
}
