package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.checkpointdoctor.detector.baseline.SignalTracker.Transition;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Direction;
import org.junit.jupiter.api.Test;

/** {@link SignalTracker#forSeries}: the catalog-free tracker used for arbitrary series. */
class SeriesTrackerTest {

  static final DetectorSettings DEFAULTS = DetectorSettings.defaults(); // min 20, open/resolve 3
  static final long MINUTE = 60_000L;

  private static SignalTracker learnedFlat(Direction direction, double floor, double level) {
    SignalTracker t = SignalTracker.forSeries(direction, floor, DEFAULTS);
    for (int i = 0; i < 20; i++) {
      t.observe(i * MINUTE, level);
    }
    return t;
  }

  private static Transition runOf(SignalTracker t, double value) {
    Transition last = Transition.NONE;
    for (int i = 0; i < 3; i++) {
      last = t.observe((100 + i) * MINUTE, value).transition();
    }
    return last;
  }

  @Test
  void bothOpensOnARunBelowAndOnARunAbove() {
    assertThat(runOf(learnedFlat(Direction.BOTH, 1, 0), -5)).isEqualTo(Transition.OPENED);
    assertThat(runOf(learnedFlat(Direction.BOTH, 1, 0), 5)).isEqualTo(Transition.OPENED);
  }

  @Test
  void upIgnoresARunBelow() {
    assertThat(runOf(learnedFlat(Direction.UP, 1, 0), -5)).isEqualTo(Transition.NONE);
  }

  @Test
  void theGivenFloorSetsTheBandOfAFlatSeries() {
    SignalTracker t = learnedFlat(Direction.BOTH, 2.5, 0);
    assertThat(t.band().upper()).isEqualTo(2.5);
    assertThat(t.band().lower()).isEqualTo(-2.5);
    assertThat(t.signal()).isNull();
    assertThat(runOf(t, 2.0)).isEqualTo(Transition.NONE);
  }

  @Test
  void aZeroFloorStillScoresAFlatSeriesFinitelyAwayFromZero() {
    SignalTracker t = learnedFlat(Direction.BOTH, 0, 100); // relative floor 10 % -> h = 10
    assertThat(t.observe(30 * MINUTE, 105).score()).isEqualTo(2.0);
  }

  @Test
  void rejectsANegativeOrMissingFloorAndDirection() {
    assertThatThrownBy(() -> SignalTracker.forSeries(Direction.BOTH, -1, DEFAULTS))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SignalTracker.forSeries(Direction.BOTH, Double.NaN, DEFAULTS))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SignalTracker.forSeries(null, 1, DEFAULTS))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
