package dev.checkpointdoctor.eval.nab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-checked cases of the NAB rules on tiny files. */
class NabScorerTest {
  static final NabProfile STANDARD = new NabProfile("standard", 1.0, 0.11, 1.0);
  static final NabProfile LOW_FN = new NabProfile("reward_low_FN_rate", 1.0, 0.11, 2.0);

  /** 100 rows: probation 15, one window [40, 59] (width 20). */
  static NabFile file(double... detectionsAt) {
    double[] scores = new double[100];
    for (double d : detectionsAt) {
      scores[(int) d] = 0.9;
    }
    return new NabFile("cat/f.csv", scores, List.of(new NabFile.Window(40, 59)));
  }

  @Test
  void scaledSigmoidHasNabsFixedPoints() {
    assertThat(RowWeights.sigmoid(-1)).isCloseTo(0.98661, within(1e-5));
    assertThat(RowWeights.sigmoid(0)).isEqualTo(0.0);
    assertThat(RowWeights.sigmoid(1)).isCloseTo(-0.98661, within(1e-5));
    assertThat(RowWeights.sigmoid(3.0001)).isEqualTo(-1.0);
  }

  @Test
  void probationIsFifteenPercentCappedAt750() {
    assertThat(new NabFile("a/b.csv", new double[100], List.of()).probation()).isEqualTo(15);
    assertThat(new NabFile("a/b.csv", new double[4032], List.of()).probation()).isEqualTo(604);
    assertThat(new NabFile("a/b.csv", new double[9000], List.of()).probation()).isEqualTo(750);
  }

  @Test
  void firstRowOfAWindowEarnsTheFullRewardAndLaterDetectionsAddNothing() {
    assertThat(NabScorer.scoreFile(file(40), STANDARD, 0.5).raw()).isCloseTo(1.0, within(1e-12));
    assertThat(NabScorer.scoreFile(file(40, 45, 59), STANDARD, 0.5).raw())
        .isCloseTo(1.0, within(1e-12));
  }

  @Test
  void theMiddleOfAWindowEarnsSigmoidOfMinusAHalf() {
    // row 50: y = -(59 - 50 + 1) / 20 = -0.5
    double expected = RowWeights.sigmoid(-0.5) / RowWeights.sigmoid(-1);
    assertThat(NabScorer.scoreFile(file(50), STANDARD, 0.5).raw())
        .isCloseTo(expected, within(1e-12));
  }

  @Test
  void falsePositivesCostFullBeforeAWindowAndLessJustAfterIt() {
    // row 20 (before the window): -0.11 plus the missed window (-1)
    assertThat(NabScorer.scoreFile(file(20), STANDARD, 0.5).raw())
        .isCloseTo(-1.11, within(1e-12));
    // row 62: y = 3 / 19 after a window of width 20
    double after = 0.11 * RowWeights.sigmoid(3.0 / 19);
    assertThat(NabScorer.scoreFile(file(62), STANDARD, 0.5).raw())
        .isCloseTo(-1 + after, within(1e-12));
    assertThat(after).isBetween(-0.06, -0.02); // cheap: 3 rows after the window
  }

  @Test
  void rowsInProbationAreIgnored() {
    NabScorer.FileScore s = NabScorer.scoreFile(file(3), STANDARD, 0.5);
    assertThat(s.raw()).isEqualTo(-1.0);
    assertThat(s.falsePositiveRows()).isZero();
  }

  @Test
  void sweepPicksTheThresholdThatSeparatesHitsFromFalseAlarms() {
    double[] scores = new double[100];
    scores[40] = 0.8; // the window's first row
    scores[20] = 0.6; // a false alarm, below the hit
    scores[90] = 0.8; // a false alarm tied with the hit
    NabFile f = new NabFile("cat/f.csv", scores, List.of(new NabFile.Window(40, 59)));

    NabScorer.Result r = NabScorer.score(List.of(f), STANDARD);

    assertThat(r.threshold()).isEqualTo(0.8);
    double falseAlarm = 0.11 * RowWeights.sigmoid(31.0 / 19); // row 90, nearly the full -0.11
    assertThat(r.total().raw()).isCloseTo(1 + falseAlarm, within(1e-12));
    assertThat(r.total().detectedWindows()).isEqualTo(1);
    assertThat(r.total().falsePositiveRows()).isEqualTo(1);
    assertThat(r.normalised()).isCloseTo(100 * (1 + falseAlarm + 1) / 2, within(1e-9));
  }

  @Test
  void nullDetectorScoresZeroOnEveryProfile() {
    double[] half = new double[100];
    Arrays.fill(half, 0.5);
    NabFile f = new NabFile("cat/f.csv", half, List.of(new NabFile.Window(40, 59)));
    for (NabProfile p : List.of(STANDARD, LOW_FN)) {
      NabScorer.Result r = NabScorer.score(List.of(f), p);
      assertThat(r.threshold()).isEqualTo(NabScorer.NO_DETECTIONS);
      assertThat(r.normalised()).isEqualTo(0.0);
    }
  }

  @Test
  void perfectDetectorScoresHundredAndCategoriesAreSummedSeparately() {
    NabFile a = new NabFile("one/a.csv", file(40).scores(), List.of(new NabFile.Window(40, 59)));
    NabFile b = new NabFile("two/b.csv", new double[100], List.of());
    NabScorer.Result r = NabScorer.score(List.of(a, b), LOW_FN);
    assertThat(r.normalised()).isCloseTo(100.0, within(1e-9));
    assertThat(r.byCategory()).containsOnlyKeys("one", "two");
    assertThat(r.byCategory().get("one").normalised(LOW_FN)).isCloseTo(100.0, within(1e-9));
    assertThat(r.byCategory().get("two").normalised(LOW_FN)).isNaN();
  }

  @Test
  void windowsAreMatchedToRowsByTimestamp() {
    long[] ts = {0, 10, 20, 30, 40};
    List<NabFile.Window> w = NabCorpus.rows(ts, List.of(new long[] {10, 30}, new long[] {41, 50}));
    assertThat(w).containsExactly(new NabFile.Window(1, 3));
  }
}
