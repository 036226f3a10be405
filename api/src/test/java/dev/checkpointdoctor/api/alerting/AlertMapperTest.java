package dev.checkpointdoctor.api.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlertMapperTest {
  static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  static final AlertMapper MAPPER = new AlertMapper("http://doctor.example:9877/",
      Duration.ofMinutes(1));

  static Diagnosis diagnosis(String job, String cause, boolean failing, Double hours) {
    CauseHypothesis top = new CauseHypothesis(cause, 0.7, List.of(
        new CauseHypothesis.Evidence("checkpoint_duration", "job", 5000, 1000,
            "checkpoint_duration at job is 5,000 ms, expected 1,000 (normal up to 1,250)."),
        new CauseHypothesis.Evidence("disk_utilization", "node:h1/vda", 0.97, 0.3,
            "disk_utilization at node:h1/vda is 0.970 ratio, expected 0.300.")),
        "Move RocksDB to a faster disk.", "docs/causes/" + cause + ".md");
    return new Diagnosis(job, cause, 0.7, Instant.parse("2026-12-02T11:50:00Z").toEpochMilli(),
        "checkpoint_duration", failing, hours, List.of(top));
  }

  @Test
  void firingAlertCarriesTheLabelsAnnotationsAndLinks() {
    Alert a = MAPPER.firing(diagnosis("orders etl", "disk_throttling", false, null),
        CLOCK.instant());
    assertThat(a.labels()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of(
        "alertname", "FlinkCheckpointAnomaly", "job_name", "orders etl",
        "cause", "disk_throttling", "severity", "warning", "signal", "checkpoint_duration"));
    assertThat(a.annotations()).containsOnlyKeys("summary", "description", "remedy",
        "runbook_url");
    assertThat(a.annotations().get("description")).isEqualTo(
        "checkpoint_duration at job is 5,000 ms, expected 1,000 (normal up to 1,250).\n"
            + "disk_utilization at node:h1/vda is 0.970 ratio, expected 0.300.");
    assertThat(a.annotations().get("remedy")).isEqualTo("Move RocksDB to a faster disk.");
    assertThat(a.annotations().get("runbook_url"))
        .isEqualTo("http://doctor.example:9877/docs/causes/disk_throttling.html");
    assertThat(a.annotations().get("summary")).contains("orders etl")
        .contains("disk throttling").contains("checkpoint_duration");
    // The job's page in the UI, centred on when the diagnosis began (no anomaly start known).
    assertThat(a.generatorUrl()).isEqualTo("http://doctor.example:9877/ui/job.html?job=orders+etl"
        + "&at=2026-12-02T11%3A50%3A00Z");
    assertThat(a.startsAt()).isEqualTo(Instant.parse("2026-12-02T11:50:00Z"));
  }

  @Test
  void theLinkIsCentredOnWhenTheTroubleBegan() {
    long start = Instant.parse("2026-12-02T11:41:20.500Z").toEpochMilli();
    AlertMapper mapper = new AlertMapper("https://cpd.example/", Duration.ofMinutes(1),
        d -> start);
    assertThat(mapper.firing(diagnosis("j/1", "gc_pressure", false, null), NOW).generatorUrl())
        .isEqualTo("https://cpd.example/ui/job.html?job=j%2F1&at=2026-12-02T11%3A41%3A20.500Z");
  }

  @Test
  void firingEndsAtIsNowPlusFourResendIntervalsAndResolvedEndsNow() {
    Alert firing = MAPPER.firing(diagnosis("j", "unknown", false, null), CLOCK.instant());
    assertThat(firing.endsAt()).isEqualTo(Instant.parse("2026-12-02T12:04:00Z"));
    assertThat(firing.resolvedAt(NOW)).isFalse();
    Instant later = NOW.plusSeconds(90);
    assertThat(MAPPER.refreshed(firing, later).endsAt())
        .isEqualTo(Instant.parse("2026-12-02T12:05:30Z"));
    Alert resolved = MAPPER.resolved(firing, later);
    assertThat(resolved.endsAt()).isEqualTo(later);
    assertThat(resolved.labels()).isEqualTo(firing.labels());
    assertThat(resolved.startsAt()).isEqualTo(firing.startsAt());
  }

  @Test
  void anEventTimeAheadOfTheWallClockStartsNowSoTheAlertIsValid() {
    Diagnosis future = diagnosis("j", "unknown", false, null);
    Alert a = MAPPER.firing(future, Instant.parse("2026-12-02T11:00:00Z"));
    assertThat(a.startsAt()).isEqualTo(Instant.parse("2026-12-02T11:00:00Z"));
    assertThat(MAPPER.resolved(a, Instant.parse("2026-12-02T11:00:00Z")).endsAt())
        .isEqualTo(a.startsAt());
  }

  @Test
  void severityIsCriticalWhenCheckpointsFailOrTheForecastIsWithinTheHorizon() {
    Duration day = Duration.ofHours(24);
    assertThat(Severity.of(diagnosis("j", "c", false, null), day)).isEqualTo(Severity.WARNING);
    assertThat(Severity.of(diagnosis("j", "c", false, 24.5), day)).isEqualTo(Severity.WARNING);
    assertThat(Severity.of(diagnosis("j", "c", false, 24.0), day)).isEqualTo(Severity.CRITICAL);
    assertThat(Severity.of(diagnosis("j", "c", false, 5.0), day)).isEqualTo(Severity.CRITICAL);
    assertThat(Severity.of(diagnosis("j", "c", false, 5.0), Duration.ofHours(4)))
        .isEqualTo(Severity.WARNING);
    assertThat(Severity.of(diagnosis("j", "c", true, null), day)).isEqualTo(Severity.CRITICAL);
    assertThat(MAPPER.firing(diagnosis("j", "c", true, null), NOW).labels().get("severity"))
        .isEqualTo("critical");
    // the default horizon is a day; a mapper with another policy uses its horizon
    assertThat(MAPPER.firing(diagnosis("j", "c", false, 20.0), NOW).labels().get("severity"))
        .isEqualTo("critical");
    AlertMapper shortHorizon = new AlertMapper("http://x", Duration.ofMinutes(1),
        new AlertPolicy(false, Duration.ofHours(2)));
    assertThat(shortHorizon.firing(diagnosis("j", "c", false, 20.0), NOW).labels()
        .get("severity")).isEqualTo("warning");
    assertThat(MAPPER.firing(diagnosis("j", "c", false, 0.5), NOW).annotations()
        .get("summary")).contains("timeout in 0.5 h");
  }

  @Test
  void jsonIsWhatAlertmanagerV2Takes() {
    JsonObject json = MAPPER.firing(diagnosis("j", "unknown", false, null), NOW).toJson();
    assertThat(json.fieldNames()).containsExactlyInAnyOrder("labels", "annotations",
        "startsAt", "endsAt", "generatorURL");
    assertThat(json.getString("startsAt")).isEqualTo("2026-12-02T11:50:00Z");
    assertThat(json.getString("endsAt")).isEqualTo("2026-12-02T12:04:00Z");
    assertThat(json.getJsonObject("labels").getString("alertname"))
        .isEqualTo("FlinkCheckpointAnomaly");
  }
}
