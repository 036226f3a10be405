package dev.checkpointdoctor.detector.cause;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A consequence whose sign began first had another cause, unless the job's diagnosis already
 * names the cause that explains it: then the named cause stays first while present.
 */
class CausalModelStandingTest {
  static final long T0 = 1_800_000_000_000L;

  /** Data skew found at 0.6 since T0 + 5 min, back-pressure at 0.8 since T0. */
  private static List<Finding> skewAfterBackPressure() {
    Finding skew = new Finding(Cause.DATA_SKEW).add(0.6, evidence("busy", T0 + 300_000))
        .onset(T0 + 300_000, 15_000, "busy");
    Finding bp = new Finding(Cause.BACKPRESSURE).add(0.8, evidence("backpressure", T0))
        .onset(T0, 15_000, "backpressure");
    return List.of(skew, bp);
  }

  private static Evidence evidence(String signal, long since) {
    return new Evidence(signal, "task:keyed/1", 900, 300, Evidence.HIGHER, 50, 0.9, since,
        signal + " higher");
  }

  private static Finding of(List<Finding> findings, Cause c) {
    return findings.stream().filter(f -> f.cause() == c).findFirst().orElseThrow();
  }

  @Test
  void aConsequenceThatBeganFirstOutranksACauseNotYetNamed() {
    List<Finding> findings = skewAfterBackPressure();
    CausalModel.FLINK.apply(findings, CauseRanker.MIN_CONFIDENCE, null);
    assertThat(of(findings, Cause.BACKPRESSURE).confidence())
        .isGreaterThan(of(findings, Cause.DATA_SKEW).confidence());
  }

  @Test
  void aStandingCauseStaysAboveItsConsequenceThatBeganFirst() {
    List<Finding> findings = skewAfterBackPressure();
    CausalModel.FLINK.apply(findings, CauseRanker.MIN_CONFIDENCE, Cause.DATA_SKEW);
    Finding bp = of(findings, Cause.BACKPRESSURE);
    assertThat(bp.confidence()).isLessThan(of(findings, Cause.DATA_SKEW).confidence());
    assertThat(bp.evidence()).extracting(Evidence::sentence)
        .anyMatch(s -> s.contains("began before") && s.contains("data_skew, named for this "
            + "trouble already"));
  }

  @Test
  void aStandingCauseNoLongerPresentDoesNotHoldItsConsequence() {
    Finding skew = new Finding(Cause.DATA_SKEW).add(0.2, evidence("busy", T0 + 300_000))
        .onset(T0 + 300_000, 15_000, "busy");
    Finding bp = new Finding(Cause.BACKPRESSURE).add(0.8, evidence("backpressure", T0))
        .onset(T0, 15_000, "backpressure");
    List<Finding> findings = List.of(skew, bp);
    CausalModel.FLINK.apply(findings, CauseRanker.MIN_CONFIDENCE, Cause.DATA_SKEW);
    assertThat(bp.confidence()).isEqualTo(0.8);
  }

  /** Unaligned inflation pending since T0 + 5 min; slow storage at 0.6 since T0 + 6 min. */
  private static List<Finding> storageSlowDuringAWait() {
    Finding inflation = new Finding(Cause.UNALIGNED_CHECKPOINT_INFLATION)
        .onset(T0 + 300_000, 15_000, "backpressure").pending("two more checkpoints");
    Finding slow = new Finding(Cause.CHECKPOINT_STORAGE_SLOW)
        .add(0.6, evidence("checkpoint_age", T0 + 360_000)).onset(T0 + 360_000, 15_000, "age");
    return List.of(inflation, slow);
  }

  @Test
  void aWaitHoldsBackAConsequenceNotYetNamed() {
    List<Finding> findings = storageSlowDuringAWait();
    CausalModel.FLINK.apply(findings, CauseRanker.MIN_CONFIDENCE, null);
    assertThat(of(findings, Cause.CHECKPOINT_STORAGE_SLOW).confidence())
        .isLessThan(CauseRanker.MIN_CONFIDENCE);
  }

  @Test
  void aWaitDoesNotTakeBackTheStandingCause() {
    List<Finding> findings = storageSlowDuringAWait();
    CausalModel.FLINK.apply(findings, CauseRanker.MIN_CONFIDENCE, Cause.CHECKPOINT_STORAGE_SLOW);
    assertThat(of(findings, Cause.CHECKPOINT_STORAGE_SLOW).confidence()).isEqualTo(0.6);
  }
}
