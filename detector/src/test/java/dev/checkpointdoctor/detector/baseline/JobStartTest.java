package dev.checkpointdoctor.detector.baseline;

import static dev.checkpointdoctor.detector.baseline.SignalTrackerTest.DEFAULTS;
import static dev.checkpointdoctor.detector.baseline.SignalTrackerTest.feedNormal;
import static dev.checkpointdoctor.detector.baseline.SignalTrackerTest.ts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.baseline.SignalTracker.Step;
import dev.checkpointdoctor.detector.baseline.SignalTracker.Transition;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a tracker does when its job starts: a new deployment is a new normal to learn, a start-up
 * (failover restart or deployment) is neither judged nor learned until back in band, and starts
 * in a loop change nothing. One observation a minute; failure window 30 min (settling at most 60).
 */
class JobStartTest {

  private static List<Step> feed(SignalTracker t, int from, int to, double value) {
    List<Step> steps = new ArrayList<>();
    for (int i = from; i < to; i++) {
      steps.add(t.observe(ts(i), value));
    }
    return steps;
  }

  private static boolean opened(List<Step> steps) {
    return steps.stream().anyMatch(s -> s.transition() == Transition.OPENED);
  }

  @Test
  void aNewDeploymentIsLearnedAfreshInsteadOfJudgedAgainstTheOldLevel() {
    // control: the same 50 % higher level without a start opens an anomaly
    SignalTracker control = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(control, 0, 40);
    assertThat(opened(feed(control, 40, 100, 1500))).isTrue();

    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    t.jobStarted(ts(40), true); // redeployed, say with another parallelism
    assertThat(t.ready()).isFalse(); // the old deployment's window is forgotten
    List<Step> after = feed(t, 40, 100, 1500);
    assertThat(opened(after)).isFalse();
    assertThat(t.ready()).isTrue();
    assertThat(t.band().expected()).isEqualTo(1500.0);
    // and the new level is judged like any other: a later tripling opens
    assertThat(opened(feed(t, 100, 110, 4500))).isTrue();
  }

  @Test
  void aDeploymentLearnedLateKeepsWhatCameAfterItAndDropsWhatCameBefore() {
    // told in time: values after the start are the new deployment's
    SignalTracker inTime = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(inTime, 0, 40);
    inTime.jobStarted(ts(40), true);
    feedNormal(inTime, 40, 50); // in the old band too: neither opened nor winsorized
    // the start arrives after ten of those values (another shard's series carried it)
    SignalTracker late = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(late, 0, 40);
    feedNormal(late, 40, 50);
    late.jobStarted(ts(40), true);
    assertThat(late.view().observations()).isEqualTo(10);
    assertThat(late.band()).isEqualTo(inTime.band());
    // and a value of the old deployment delivered after the start is neither judged nor learned
    Step old = late.observe(ts(39), 1000);
    assertThat(old.outside()).isFalse();
    assertThat(late.view().observations()).isEqualTo(10);
  }

  @Test
  void failedCheckpointsKeepTheirBaselineAcrossADeployment() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_FAILURES, DEFAULTS);
    feed(t, 0, 40, 0);
    t.jobStarted(ts(40), true);
    assertThat(t.ready()).isTrue(); // failures are never a normal to learn afresh
    assertThat(t.view().observations()).isEqualTo(40);
  }

  @Test
  void aFailoverRestartExcusesItsStartUpButKeepsTheBaseline() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    Band before = t.band();
    t.jobStarted(ts(40), false); // same job_id restarted: same deployment
    assertThat(t.ready()).isTrue();
    // restore and catch-up: five slow checkpoints, neither judged nor learned
    List<Step> startUp = feed(t, 40, 45, 5000);
    assertThat(startUp).allSatisfy(s -> {
      assertThat(s.outside()).isFalse();
      assertThat(s.transition()).isEqualTo(Transition.NONE);
    });
    assertThat(t.band()).isEqualTo(before);
    assertThat(t.view().observations()).isEqualTo(40);
    // back in band once checkpoints complete ends the start-up: the same values now open
    t.checkpointCompleted(ts(45));
    feedNormal(t, 45, 47);
    assertThat(opened(feed(t, 47, 52, 5000))).isTrue();
  }

  @Test
  void checkpointsDeclinedAtStartAreStartUpThoughNoneFailedBeforeTheFirstWasTried() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_FAILURES, DEFAULTS);
    feed(t, 0, 40, 0);
    t.checkpointCompleted(ts(39));
    t.jobStarted(ts(40), true);
    // tasks deploy: no checkpoint tried, no failure; then the first two are declined and stay
    // in the failure count for a while; then checkpoints complete and the count drains
    List<Step> startUp = feed(t, 40, 43, 0);
    startUp.addAll(feed(t, 43, 70, 2));
    t.checkpointCompleted(ts(70));
    startUp.addAll(feed(t, 70, 75, 0));
    assertThat(opened(startUp)).isFalse();
    // the start-up is over: failures now are trouble
    assertThat(opened(feed(t, 75, 80, 2))).isTrue();
  }

  @Test
  void aStartUpEndsAfterTwoFailureWindowsEvenIfNeverBackInBand() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    t.jobStarted(ts(40), false);
    // a restart into trouble: slow from the start on; excused for 60 min, then judged
    List<Step> slow = feed(t, 40, 110, 5000);
    assertThat(slow.subList(0, 60)).noneMatch(s -> s.transition() == Transition.OPENED);
    assertThat(opened(slow.subList(60, 70))).isTrue();
  }

  @Test
  void aStartWithinAnHourOfTheLastIsARestartLoopAndExcusesNothing() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    t.jobStarted(ts(40), false);
    t.checkpointCompleted(ts(40));
    feedNormal(t, 40, 42); // back in band: the first start-up is over
    t.jobStarted(ts(50), false); // restarted again ten minutes later
    assertThat(opened(feed(t, 50, 55, 5000))).isTrue();
  }

  @Test
  void anOpenAnomalyOutlivesAStart() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    feed(t, 40, 43, 5000);
    assertThat(t.open()).isTrue();
    Band before = t.band();
    t.jobStarted(ts(43), true); // redeploying a job in trouble does not make its trouble normal
    assertThat(t.open()).isTrue();
    assertThat(t.band()).isEqualTo(before);
    assertThat(feed(t, 43, 46, 5000)).allSatisfy(s -> assertThat(s.outside()).isTrue());
  }

  @Test
  void aStartUpInProgressSurvivesASnapshot() throws IOException {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    t.jobStarted(ts(40), false);
    t.checkpointCompleted(ts(40)); // kept in the snapshot: the next value in band ends it
    t.observe(ts(40), 5000);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    t.writeTo(new DataOutputStream(bytes));
    SignalTracker copy = SignalTracker.readFrom(
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
        Signal.CHECKPOINT_DURATION, DEFAULTS);
    assertThat(feed(copy, 41, 45, 5000)).noneMatch(Step::outside);
    // and the restored tracker still knows of the start: another one soon after is a loop
    feedNormal(copy, 45, 47);
    copy.jobStarted(ts(47), false);
    assertThat(opened(feed(copy, 47, 52, 5000))).isTrue();
  }
}
