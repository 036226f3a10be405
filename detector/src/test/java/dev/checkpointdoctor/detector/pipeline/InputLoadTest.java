package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InputLoadTest {
  @Test
  void theLesserOfOwnAndTaskRatioCountsOnceBeyondTheRelativeFloor() {
    assertThat(InputLoad.factor(2.0, 1.5, 0.1)).isEqualTo(1.5);
    assertThat(InputLoad.factor(1.4, 3.0, 0.1)).isEqualTo(1.4);
    assertThat(InputLoad.factor(1.08, 2.0, 0.1)).isEqualTo(InputLoad.NONE); // noise
    assertThat(InputLoad.factor(0.5, 0.5, 0.1)).isEqualTo(InputLoad.NONE); // never below 1
    assertThat(InputLoad.factor(Double.NaN, 2.0, 0.1)).isEqualTo(InputLoad.NONE);
    assertThat(InputLoad.factor(2.0, Double.NaN, 0.1)).isEqualTo(InputLoad.NONE);
  }

  @Test
  void theLowerMedianTakesTheLesserMiddleAndSkipsUnknownRatios() {
    assertThat(InputLoad.lowerMedian(new double[] {3, 1, 2, 4}, 4)).isEqualTo(2);
    assertThat(InputLoad.lowerMedian(new double[] {3, Double.NaN, 1}, 3)).isEqualTo(1);
    assertThat(InputLoad.lowerMedian(new double[] {5, 9}, 1)).isEqualTo(5);
    assertThat(InputLoad.lowerMedian(new double[] {Double.NaN}, 1)).isNaN();
  }

  @Test
  void aRatioNeedsAPositiveExpectedRate() {
    assertThat(InputLoad.ratio(300, 200)).isEqualTo(1.5);
    assertThat(InputLoad.ratio(300, 0)).isNaN();
    assertThat(InputLoad.ratio(Double.NaN, 200)).isNaN();
  }
}
