package dev.checkpointdoctor.detector.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The distances hold no array while no run is pending and only as much as the run needs while
 * one is, and answer as a plain list of the newest {@code capacity} distances does.
 */
class RunDistancesTest {

  @Test
  void holdsNothingWithoutARunAndLittleForAShortOne() {
    RunDistances d = new RunDistances(50);
    assertThat(d.heldFloats()).isZero();
    for (int i = 0; i < 3; i++) {
      d.add(1.5);
    }
    assertThat(d.heldFloats()).isLessThanOrEqualTo(4);
    d.clear();
    assertThat(d.heldFloats()).isZero();
    assertThat(d.size()).isZero();
  }

  @Test
  void anOpeningRuleHoldsDistancesOnlyWhileARunIsPending() throws IOException {
    OpeningRule rule = new OpeningRule();
    RobustBaseline window = new RobustBaseline(Signal.BUSY, DetectorSettings.defaults());
    assertThat(rule.holdsRunDistances()).isFalse();
    assertThat(rule.runOpens(0, 1, 1.2, 3, window)).isFalse();
    assertThat(rule.holdsRunDistances()).isTrue();
    OpeningRule restored = OpeningRule.readFrom(roundTrip(rule));
    assertThat(restored.holdsRunDistances()).isTrue();
    assertThat(restored.pendingLength()).isEqualTo(1);
    assertThat(rule.runOpens(15_000, 0, 0.5, 3, window)).isFalse();
    assertThat(rule.holdsRunDistances()).isFalse();
    assertThat(OpeningRule.readFrom(roundTrip(rule)).holdsRunDistances()).isFalse();
  }

  @Test
  void answersAsTheNewestDistancesOfAPlainList() throws IOException {
    Random random = new Random(19);
    RunDistances d = new RunDistances(50);
    for (int run = 0; run < 200; run++) {
      List<Float> model = new ArrayList<>();
      int length = random.nextInt(4) == 0 ? 1 + random.nextInt(130) : 1 + random.nextInt(9);
      for (int i = 0; i < length; i++) {
        double distance = 1 + 2 * random.nextDouble();
        d.add(distance);
        model.add((float) distance);
        int held = Math.min(model.size(), 50);
        assertThat(d.size()).isEqualTo(held);
        assertThat(d.heldFloats()).isLessThanOrEqualTo(50);
        for (int j = 1; j <= held; j++) {
          assertThat(d.newest(j)).isEqualTo((double) model.get(model.size() - j));
        }
      }
      RunDistances copy = new RunDistances(50);
      copy.readFrom(roundTrip(d));
      assertThat(copy.size()).isEqualTo(d.size());
      for (int j = 1; j <= d.size(); j++) {
        assertThat(copy.newest(j)).isEqualTo(d.newest(j));
      }
      d.clear();
    }
  }

  @Test
  void refusesASnapshotLongerThanTheCapacity() throws IOException {
    RunDistances d = new RunDistances(50);
    for (int i = 0; i < 50; i++) {
      d.add(1);
    }
    RunDistances small = new RunDistances(10);
    assertThatThrownBy(() -> small.readFrom(roundTrip(d))).isInstanceOf(IOException.class);
  }

  private static DataInputStream roundTrip(OpeningRule rule) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    rule.writeRuleTo(new DataOutputStream(bytes));
    return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
  }

  private static DataInputStream roundTrip(RunDistances d) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    d.writeTo(new DataOutputStream(bytes));
    return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
  }
}
