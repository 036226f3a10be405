package dev.checkpointdoctor.api.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HistoryFilterTest {
  private final Detector detector =
      new Detector(SignalCatalog.defaults(), DetectorSettings.defaults());
  private final List<String> sent = new ArrayList<>();
  private final DetectorListener alerts = new DetectorListener() {
    @Override
    public void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long t) {
      sent.add(job + ":" + (after == null ? "closed" : after.cause()));
    }
  };

  private static Anomaly anomaly(long id, String job) {
    return new Anomaly(id, job, Signal.CHECKPOINT_DURATION, "job", true, 1000, -1, 9, 2, 1, 3,
        9, List.of());
  }

  private static Diagnosis diagnosis(String job, String cause) {
    return new Diagnosis(job, cause, 0.8, 1000, "checkpoint_duration", false, null,
        List.of(new CauseHypothesis(cause, 0.8, List.of(), "r", "docs/causes/x.md")));
  }

  @Test
  void onlyJobsWithAnAnomalyOpenedLiveAreAlerted() {
    DetectorListener live = HistoryFilter.liveAlerts(alerts, detector, Set.of("restored"));
    detector.beginHistory();
    live.anomalyOpened(anomaly(1, "a"));
    live.diagnosisChanged("a", null, diagnosis("a", "disk_throttling"), 1);
    live.anomalyOpened(anomaly(2, "b"));
    live.diagnosisChanged("b", null, diagnosis("b", "gc_pressure"), 1);
    detector.endHistory();
    assertThat(sent).as("nothing found in history").isEmpty();

    // a's trouble goes on live and nothing new opens: still history; b gets a live anomaly
    live.diagnosisChanged("a", diagnosis("a", "disk_throttling"), diagnosis("a", "data_skew"), 2);
    live.anomalyOpened(anomaly(3, "b"));
    assertThat(sent).containsExactly("b:gc_pressure");
    live.diagnosisChanged("b", diagnosis("b", "gc_pressure"), diagnosis("b", "data_skew"), 3);
    live.anomalyResolved(anomaly(3, "b").resolvedAt(4000));
    live.diagnosisChanged("b", diagnosis("b", "data_skew"), null, 4);
    live.diagnosisChanged("a", diagnosis("a", "data_skew"), null, 4);
    live.diagnosisChanged("restored", diagnosis("restored", "x"), null, 4);
    assertThat(sent).containsExactly("b:gc_pressure", "b:data_skew", "b:closed",
        "restored:closed");
  }

  @Test
  void historyIsKeptFromInfluxButLiveEventsPass() {
    List<String> got = new ArrayList<>();
    DetectorListener influx = HistoryFilter.liveOnly(new DetectorListener() {
      @Override
      public void evaluated(Evaluation e) {
        got.add("eval");
      }

      @Override
      public void anomalyOpened(Anomaly a) {
        got.add("open");
      }
    }, detector);
    Evaluation e = new Evaluation("a", Signal.CHECKPOINT_DURATION, "job", 1, 1, 1, 0, 2, 0, true,
        false);
    detector.beginHistory();
    influx.evaluated(e);
    influx.anomalyOpened(anomaly(1, "a"));
    detector.endHistory();
    influx.evaluated(e);
    influx.anomalyOpened(anomaly(2, "a"));
    assertThat(got).containsExactly("eval", "open");
  }
}
