package dev.checkpointdoctor.api.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HistoryPointsTest {
  static final long T = 1_796_000_000_000L;

  @Test
  void evaluationIsOneSignalPointAtTheObservationsEventTime() {
    String line = HistoryPoints.of(new Evaluation("orders etl", Signal.CHECKPOINT_DURATION, "job",
        T, 5000, 1000, 750, 1250, 12.5, true, true)).lineProtocol(TimeUnit.MILLISECONDS);
    assertThat(line).isEqualTo("signal,job=orders\\ etl,scope=job,signal=checkpoint_duration "
        + "expected=1000.0,lower=750.0,observed=5000.0,outside=true,ready=true,score=12.5,"
        + "upper=1250.0 " + T);
  }

  @Test
  void aBaselineStillLearningWritesNoBandAndNonFiniteValuesAreLeftOut() {
    String line = HistoryPoints.of(new Evaluation("j", Signal.DISK_UTILIZATION, "node:h/vda", T,
        0.5, Double.NaN, Double.NaN, Double.POSITIVE_INFINITY, Double.NaN, false, false))
        .lineProtocol(TimeUnit.MILLISECONDS);
    assertThat(line).isEqualTo("signal,job=j,scope=node:h/vda,signal=disk_utilization "
        + "observed=0.5,outside=false,ready=false " + T);
  }

  @Test
  void anomaliesAreEventsAtTheirStartAndEndWithTheCauseAsTag() {
    Anomaly open = new Anomaly(7, "j", Signal.CHECKPOINT_DURATION, "job", true, T, -1, 5000,
        1000, 750, 1250, 12.5, List.of());
    assertThat(HistoryPoints.of(open).lineProtocol(TimeUnit.MILLISECONDS))
        .startsWith("anomaly,cause=undiagnosed,job=j,scope=job,signal=checkpoint_duration,"
            + "state=open ").contains("id=7i").endsWith(" " + T);
    Anomaly resolved = open.withCauses(List.of(new CauseHypothesis("disk_throttling", 0.8,
        List.of(), "r", "d"))).resolvedAt(T + 60_000);
    assertThat(HistoryPoints.of(resolved).lineProtocol(TimeUnit.MILLISECONDS))
        .startsWith("anomaly,cause=disk_throttling,").contains("state=resolved")
        .contains("text=\"checkpoint_duration back to normal at job")
        .endsWith(" " + (T + 60_000));
  }

  @Test
  void diagnosesAreEventsOpenedChangedAndClosed() {
    Diagnosis a = new Diagnosis("j", "unknown", 0, T, "checkpoint_duration", false, null,
        List.of(new CauseHypothesis("unknown", 0, List.of(new CauseHypothesis.Evidence(
            "checkpoint_duration", "job", 5000, 1000, "slow.")), "r", "d")));
    Diagnosis b = new Diagnosis("j", "disk_throttling", 0.8, T + 1, "checkpoint_duration", true,
        0.5, List.of(new CauseHypothesis("disk_throttling", 0.8, List.of(), "r", "d")));
    assertThat(HistoryPoints.of("j", null, a, T).lineProtocol(TimeUnit.MILLISECONDS))
        .startsWith("diagnosis,cause=unknown,job=j,severity=warning,signal=checkpoint_duration,"
            + "state=opened ").contains("text=\"cause unknown: slow.\"");
    assertThat(HistoryPoints.of("j", a, b, T + 1).lineProtocol(TimeUnit.MILLISECONDS))
        .contains("cause=disk_throttling").contains("severity=critical")
        .contains("state=changed").contains("hours_to_timeout=0.5")
        .contains("(was unknown)");
    assertThat(HistoryPoints.of("j", b, null, T + 2).lineProtocol(TimeUnit.MILLISECONDS))
        .contains("cause=disk_throttling").contains("state=closed").endsWith(" " + (T + 2));
  }
}
