package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.JobView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UnknownCauseDiagnoserTest {
  static final long NOW = 1_800_000_000_000L;

  static JobView view(List<Anomaly> open) {
    return new JobView() {
      @Override
      public String job() {
        return "j";
      }

      @Override
      public long eventTimeMs() {
        return NOW;
      }

      @Override
      public List<Anomaly> openAnomalies() {
        return open;
      }

      @Override
      public List<BaselineSummary> baselines() {
        return List.of();
      }
    };
  }

  static Anomaly anomaly(int id, Signal signal, String scope, double score) {
    return new Anomaly(id, "j", signal, scope, true, NOW - 60_000L, -1, 500, 0, 0, 187, score,
        List.of());
  }

  /** The book hands out open anomalies in its own (hash) order; the evidence must not show it. */
  @Test
  void evidenceOfEquallyStrongAnomaliesComesInTheSameOrderWhateverTheOrderGiven() {
    List<Anomaly> open = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      open.add(anomaly(i, Signal.BACKPRESSURE, "task:Source/" + i, 5.0));
    }
    open.add(anomaly(9, Signal.CHECKPOINT_DURATION, "job", 8.0));
    List<String> expected = null;
    Random rnd = new Random(3);
    for (int round = 0; round < 10; round++) {
      Collections.shuffle(open, rnd);
      Diagnosis d = new UnknownCauseDiagnoser().diagnose(view(List.copyOf(open)), NOW);
      List<String> scopes = d.ranked().get(0).evidence().stream()
          .map(CauseHypothesis.Evidence::scope).toList();
      assertThat(scopes.get(0)).as("the strongest first").isEqualTo("job");
      if (expected == null) {
        expected = scopes;
      }
      assertThat(scopes).as("round " + round).isEqualTo(expected);
    }
  }
}
