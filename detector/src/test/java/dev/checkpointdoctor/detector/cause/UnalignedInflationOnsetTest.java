package dev.checkpointdoctor.detector.cause;

import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.NORMAL_MIN;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.describe;
import static dev.checkpointdoctor.detector.cause.CauseRankerScenarioTest.diagnosis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Diagnosis;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sink slowing down under unaligned checkpoints: busy first, back-pressure minutes later, and
 * from then on every checkpoint persists the full buffers. The in-flight data is judged from the
 * back-pressure on, so the checkpoints of the minutes before it do not hide the inflation and
 * back-pressure is not named in its place.
 */
class UnalignedInflationOnsetTest {
  static final long PRESSED_AFTER_MS = 2 * 60_000L;
  /**
   * The buffers are full a minute after the back-pressure: four minutes later half the
   * checkpoints since the sink slowed carry them, too few for a judgment read from the
   * trouble's onset, three quarters of those since the back-pressure began.
   */
  static final long FILLED_AFTER_MS = PRESSED_AFTER_MS + 60_000L;

  @ParameterizedTest
  @ValueSource(longs = {5, 6})
  void inflationJudgedFromTheBackPressureOnIsNamedBeforeIt(long seed) {
    FlinkJobSim s = new FlinkJobSim(seed, 4, 2, 15, seed % 2 == 0);
    s.intervalMs = 30_000;
    s.run(0, NORMAL_MIN, (x, f) -> x.persisted = (5L << 20) * x.jitter());
    s.run(0, 6, (x, f) -> {
      for (int i = 0; i < x.parallelism; i++) {
        x.busy[2][i] = 980 + 20 * x.rnd.nextDouble();
      }
      x.persisted = (5L << 20) * x.jitter();
      if (f >= PRESSED_AFTER_MS) {
        for (int i = 0; i < x.parallelism; i++) {
          x.bp[0][i] = 850 + 150 * x.rnd.nextDouble();
          x.bp[1][i] = 800 + 150 * x.rnd.nextDouble();
        }
      }
      if (f >= FILLED_AFTER_MS) {
        x.persisted = (120L << 20) * x.jitter();
      }
    });
    Diagnosis d = diagnosis(s);
    // the back-pressure itself is plain by now: the inflation it causes names its cost first
    assertThat(CauseRankerScenarioTest.confidenceOf(d, Cause.BACKPRESSURE)).as(describe(d))
        .isGreaterThan(0);
    assertThat(d.cause()).as(describe(d)).isEqualTo("unaligned_checkpoint_inflation");
  }
}
