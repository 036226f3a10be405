package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A job's first day: its full checkpoint size, learned at the night's level, rises 30 % in the
 * morning. With the job's input risen more over the same hours that is the load the state
 * follows; at the night's input it is an anomaly.
 */
class StateFollowsInputTest {
  private static final long T0 = 1_796_000_000_000L;
  private static final long MINUTE = 60_000L;

  /** Scopes of the full-size anomalies after the morning, for an input rising {@code input}x. */
  private static List<String> fullSizeAnomalies(double input) {
    SignalBook b = new SignalBook(DetectorSettings.defaults(), new UnknownCauseDiagnoser(),
        List.of());
    Random r = new Random(11);
    int night = 8 * 60;
    int morning = 3 * 60;
    for (int i = 0; i < night + morning; i++) {
      long t = T0 + i * MINUTE;
      // the morning climbs over its first hour and stays
      double climb = i < night ? 0 : Math.min(1, (i - night) / 60.0);
      for (int s = 0; s < 3; s++) {
        b.observe(new Observation("a", Signal.RECORDS_IN, "task:agg/" + s, t,
            (1 + (input - 1) * climb) * (1000 + r.nextInt(80))), null);
      }
      if (i % 5 == 0) {
        b.observe(new Observation("a", Signal.CHECKPOINT_FULL_SIZE, "job", t,
            (1 + 0.3 * climb) * 1e9 * (1 + 0.01 * r.nextGaussian())), null);
      }
    }
    return b.anomalies().stream()
        .filter(a -> a.signal() == Signal.CHECKPOINT_FULL_SIZE && a.scope().equals("job"))
        .map(a -> a.scope()).toList();
  }

  @Test
  void aStateThatRisesWithTheJobsInputIsLoad() {
    assertThat(fullSizeAnomalies(1.5)).isEmpty();
  }

  @Test
  void theSameRiseAtTheNightsInputIsAnAnomaly() {
    assertThat(fullSizeAnomalies(1)).contains("job");
  }

  @Test
  void aStateThatRisesFarMoreThanTheInputIsStillAnAnomaly() {
    assertThat(fullSizeAnomalies(1.12)).contains("job");
  }
}
