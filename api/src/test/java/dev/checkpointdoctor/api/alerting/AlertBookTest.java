package dev.checkpointdoctor.api.alerting;

import static dev.checkpointdoctor.api.alerting.AlertMapperTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AlertBookTest {
  static final Instant T0 = Instant.parse("2026-12-02T12:00:00Z");
  final AlertBook book = new AlertBook(new AlertMapper("http://x", Duration.ofSeconds(30)));

  @Test
  void openFiresAndCloseResolves() {
    List<Alert> opened = book.diagnosisChanged("j", diagnosis("j", "disk_throttling", false, null), T0);
    assertThat(opened).singleElement().satisfies(a -> {
      assertThat(a.resolvedAt(T0)).isFalse();
      assertThat(a.endsAt()).isEqualTo(T0.plusSeconds(120));
    });
    List<Alert> closed = book.diagnosisChanged("j", null, T0.plusSeconds(10));
    assertThat(closed).singleElement().satisfies(a -> {
      assertThat(a.labels()).isEqualTo(opened.get(0).labels());
      assertThat(a.endsAt()).isEqualTo(T0.plusSeconds(10));
    });
    assertThat(book.firing()).isEmpty();
    assertThat(book.diagnosisChanged("j", null, T0.plusSeconds(20))).isEmpty();
  }

  @Test
  void aChangedCauseResolvesTheOldAlertAndFiresANewOne() {
    book.diagnosisChanged("j", diagnosis("j", "rocksdb_write_stall", false, null), T0);
    List<Alert> out = book.diagnosisChanged("j", diagnosis("j", "disk_throttling", false, null),
        T0.plusSeconds(5));
    assertThat(out).hasSize(2);
    assertThat(out.get(0).labels()).containsEntry("cause", "rocksdb_write_stall");
    assertThat(out.get(0).endsAt()).isEqualTo(T0.plusSeconds(5));
    assertThat(out.get(1).labels()).containsEntry("cause", "disk_throttling");
    assertThat(out.get(1).resolvedAt(T0.plusSeconds(5))).isFalse();
  }

  @Test
  void resendRefreshesEndsAtKeepsStartsAtAndFollowsTheCurrentDiagnosis() {
    Diagnosis d = diagnosis("j", "state_growth", false, null);
    Alert first = book.diagnosisChanged("j", d, T0).get(0);
    Instant t1 = T0.plusSeconds(30);
    List<Alert> again = book.resend(t1, job -> Optional.of(d));
    assertThat(again).singleElement().satisfies(a -> {
      assertThat(a.labels()).isEqualTo(first.labels());
      assertThat(a.startsAt()).isEqualTo(first.startsAt());
      assertThat(a.endsAt()).isEqualTo(t1.plusSeconds(120));
    });
    // Checkpoints started failing: severity escalates, the warning is resolved.
    List<Alert> escalated = book.resend(t1.plusSeconds(30),
        job -> Optional.of(diagnosis("j", "state_growth", true, null)));
    assertThat(escalated).extracting(a -> a.labels().get("severity"))
        .containsExactly("warning", "critical");
    assertThat(escalated.get(0).endsAt()).isEqualTo(t1.plusSeconds(30));
    // A close event that was lost: the resend notices and resolves.
    List<Alert> gone = book.resend(t1.plusSeconds(60), job -> Optional.empty());
    assertThat(gone).singleElement().satisfies(a ->
        assertThat(a.endsAt()).isEqualTo(t1.plusSeconds(60)));
    assertThat(book.firing()).isEmpty();
  }

  @Test
  void anUnknownCauseIsNotAlertedWhileCheckpointsComplete() {
    assertThat(book.diagnosisChanged("j", diagnosis("j", "unknown", false, 3.0), T0)).isEmpty();
    assertThat(book.firing()).isEmpty();
    assertThat(book.resend(T0.plusSeconds(30),
        job -> Optional.of(diagnosis("j", "unknown", false, null)))).isEmpty();
    // checkpoints start failing: now it is an incident, cause or not
    List<Alert> failing = book.diagnosisChanged("j", diagnosis("j", "unknown", true, null),
        T0.plusSeconds(60));
    assertThat(failing).singleElement().satisfies(a -> {
      assertThat(a.labels()).containsEntry("cause", "unknown").containsEntry("severity",
          "critical");
      assertThat(a.resolvedAt(T0.plusSeconds(60))).isFalse();
    });
    // they complete again, the cause is still unknown: the alert resolves
    List<Alert> quiet = book.diagnosisChanged("j", diagnosis("j", "unknown", false, null),
        T0.plusSeconds(90));
    assertThat(quiet).singleElement().satisfies(a ->
        assertThat(a.endsAt()).isEqualTo(T0.plusSeconds(90)));
    assertThat(book.firing()).isEmpty();
  }

  @Test
  void aNamedCauseThatBecomesUnknownIsResolved() {
    book.diagnosisChanged("j", diagnosis("j", "backpressure", false, null), T0);
    List<Alert> out = book.diagnosisChanged("j", diagnosis("j", "unknown", false, null),
        T0.plusSeconds(5));
    assertThat(out).singleElement().satisfies(a -> {
      assertThat(a.labels()).containsEntry("cause", "backpressure");
      assertThat(a.endsAt()).isEqualTo(T0.plusSeconds(5));
    });
    assertThat(book.firing()).isEmpty();
  }

  @Test
  void alertUnknownAlertsUnknownCausesToo() {
    AlertBook all = new AlertBook(new AlertMapper("http://x", Duration.ofSeconds(30),
        new AlertPolicy(true, Duration.ofHours(24))));
    assertThat(all.diagnosisChanged("j", diagnosis("j", "unknown", false, null), T0))
        .singleElement().satisfies(a -> assertThat(a.labels()).containsEntry("cause", "unknown")
            .containsEntry("severity", "warning"));
  }
}
