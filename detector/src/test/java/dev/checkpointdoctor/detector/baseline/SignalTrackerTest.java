package dev.checkpointdoctor.detector.baseline;

import static dev.checkpointdoctor.detector.baseline.RobustBaselineTest.MINUTE;
import static dev.checkpointdoctor.detector.baseline.RobustBaselineTest.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.checkpointdoctor.detector.baseline.SignalTracker.Step;
import dev.checkpointdoctor.detector.baseline.SignalTracker.Transition;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Direction;
import dev.checkpointdoctor.detector.model.Signal;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SignalTrackerTest {

  static final DetectorSettings DEFAULTS = DetectorSettings.defaults(); // min 20, open/resolve 3
  static final double EPS = 1e-9;

  /**
   * Deterministic "noise" around 1000: 1000 + (7i mod 11) - 5, i.e. 995..1005. Over i = 0..39
   * the residues 0,2,3,6,7,9,10 occur 4 times and 1,4,5,8 three times. Sorted cumulative counts:
   * r0 4, r1 7, r2 11, r3 15, r4 18, r5 21 -> median (half = 20) is r5, i.e. 1000. Deviations
   * |r - 5|: 0 x3, 1 x7, 2 x8, 3 x7, ... cumulative 3, 10, 18, 25 -> MAD 3, spread 4.4478.
   */
  static double normal(int i) {
    return 1000 + ((i * 7) % 11) - 5;
  }

  static long ts(int i) {
    return T0 + i * MINUTE;
  }

  static List<Step> feedNormal(SignalTracker t, int from, int to) {
    List<Step> steps = new ArrayList<>();
    for (int i = from; i < to; i++) {
      steps.add(t.observe(ts(i), normal(i)));
    }
    return steps;
  }

  /** A tracker judging by its baseline's own band from the start (no youth widening). */
  static SignalTracker mature(Signal signal, DetectorSettings settings) {
    return SignalTracker.withoutYouth(new SignalTracker(signal, settings));
  }

  static DetectorSettings small(int min, int window, Duration halfLife) {
    return RobustBaselineTest.settings(min, window, halfLife);
  }

  @Test
  void scoreIsARobustZScoreAgainstThePriorBand() {
    SignalTracker t = mature(Signal.DISK_LATENCY, small(5, 5, Duration.ofHours(1)));
    Step first = t.observe(T0, 10);
    assertThat(first.expected()).isNaN(); // nothing learned before the first observation
    assertThat(first.score()).isNaN();
    for (double v : new double[] {12, 11, 50, 13}) {
      Step s = t.observe(T0, v);
      assertThat(s.outside()).isFalse(); // 50 is far out, but the baseline is still learning
    }
    // band as in RobustBaselineTest: expected 12, spread 1.4826, h 5.9304
    Step s = t.observe(T0, 20);
    assertThat(s.expected()).isEqualTo(12.0);
    assertThat(s.upper()).isCloseTo(17.9304, within(EPS));
    // denominator = max(spread 1.4826, h / bandWidth = 5.9304 / 4 = 1.4826) = 1.4826
    // score = (20 - 12) / 1.4826 = 5.395926...
    assertThat(s.score()).isCloseTo(8 / 1.4826, within(EPS));
    assertThat(s.outside()).isTrue();
    assertThat(s.transition()).isEqualTo(Transition.NONE);
    assertThat(s.runStartMs()).isEqualTo(T0);
  }

  @Test
  void aLoadScalesTheUpperBoundButNotTheScore() {
    SignalTracker loaded = mature(Signal.CHECKPOINT_DURATION, small(3, 10, Duration.ofDays(3)));
    SignalTracker plain = mature(Signal.CHECKPOINT_DURATION, small(3, 10, Duration.ofDays(3)));
    for (int i = 0; i < 3; i++) {
      loaded.observe(ts(i), 1000);
      plain.observe(ts(i), 1000);
    }
    // band [750, 1250]; twice the load allows up to 2500, the score stays the own band's
    Step s = loaded.observe(ts(3), 2000, Double.POSITIVE_INFINITY, 2);
    assertThat(s.upper()).isEqualTo(2500);
    assertThat(s.lower()).isEqualTo(750);
    assertThat(s.outside()).isFalse();
    assertThat(s.score()).isCloseTo(16.0, within(EPS)); // 1000 / 62.5
    assertThat(plain.observe(ts(3), 2000, Double.POSITIVE_INFINITY, 1).outside()).isTrue();
    assertThat(plain.observe(ts(4), 2000, Double.POSITIVE_INFINITY, Double.NaN).outside())
        .isTrue();
  }

  @Test
  void scoreDenominatorFallsBackToTheFloorWhenMadIsZero() {
    SignalTracker t = mature(Signal.CHECKPOINT_DURATION,
        small(3, 10, Duration.ofDays(3)));
    for (int i = 0; i < 3; i++) {
      t.observe(ts(i), 1000);
    }
    // band [750, 1250], spread 0 -> denominator = max(0, 250 / 4) = 62.5
    Step inside = t.observe(ts(3), 1125);
    assertThat(inside.score()).isCloseTo(2.0, within(EPS)); // 125 / 62.5
    assertThat(inside.outside()).isFalse();
    Step outside = t.observe(ts(4), 1300);
    assertThat(outside.score()).isCloseTo(4.8, within(EPS)); // 300 / 62.5
    assertThat(outside.outside()).isTrue();
  }

  @Test
  void neverOpensWhileLearning() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    for (int i = 0; i < 19; i++) {
      Step s = t.observe(ts(i), i % 2 == 0 ? 1000 : 100_000);
      assertThat(s.outside()).isFalse();
      assertThat(s.transition()).isEqualTo(Transition.NONE);
    }
    assertThat(t.view().state()).isEqualTo("learning");
    assertThat(t.view().observations()).isEqualTo(19);
    t.observe(ts(19), 1000); // the 20th observation is still judged as learning, then learned
    assertThat(t.view().state()).isEqualTo("ready");
    assertThat(t.view().observations()).isEqualTo(20);
    assertThat(t.open()).isFalse();
  }

  @Test
  void oneIsolatedSlowCheckpointOpensNothingAndBarelyMovesTheBaseline() {
    SignalTracker t = mature(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    // median 1000, MAD 3 -> spread 4.4478; h = max(17.79, 100, 250) = 250
    BaselineView before = t.view();
    assertThat(before.expected()).isEqualTo(1000.0);
    assertThat(before.upper()).isEqualTo(1250.0);

    Step spike = t.observe(ts(40), 5000);
    assertThat(spike.outside()).isTrue();
    assertThat(spike.transition()).isEqualTo(Transition.NONE);
    assertThat(spike.score()).isCloseTo(64.0, within(EPS)); // 4000 / max(4.4478, 62.5)
    assertThat(spike.runStartMs()).isEqualTo(ts(40));
    // learned as 1250 (the band edge): 41 values, half 20.5, r<=5 reach 21 -> still 1000;
    // deviations 0 x3, 1 x7, 2 x8, 3 x7 ... 250 x1 -> cumulative 3, 10, 18, 25 -> MAD still 3
    assertThat(t.view().expected()).isEqualTo(1000.0);
    assertThat(t.view().upper()).isEqualTo(1250.0);

    List<Step> after = feedNormal(t, 41, 61);
    // runs are consecutive: the first in-band observation ends it
    assertThat(after.get(0).runStartMs()).isEqualTo(SignalTracker.NO_RUN);
    assertThat(after).allSatisfy(s -> {
      assertThat(s.transition()).isEqualTo(Transition.NONE);
      assertThat(s.outside()).isFalse();
    });
    assertThat(t.open()).isFalse();
    assertThat(t.view().expected()).isBetween(999.0, 1001.0);
  }

  @Test
  void winsorizingKeepsASpikeFromBecomingTheMedianEvenWhenItWeighsMost() {
    // half-life 1 minute, one observation per 10 minutes: each older value weighs <= 2^-10,
    // so the newest value alone holds more than half of the weight.
    SignalTracker t = mature(Signal.CHECKPOINT_DURATION,
        small(3, 10, Duration.ofMinutes(1)));
    for (int i = 0; i < 5; i++) {
      t.observe(T0 + i * 10 * MINUTE, 1000);
    }
    assertThat(t.band()).isEqualTo(new Band(1000, 750, 1250, 0));
    t.observe(T0 + 50 * MINUTE, 5000);
    // learned as 1250: weights 1000 x5 sum ~0.000977, 1250 -> 1; W/2 ~0.5005 -> median 1250
    // deviations 250 (tiny weights), 0 (w 1) -> MAD 0; h = max(0, 125, 250) = 250
    // (learning 5000 raw would have given Band(5000, 4500, 5500, 0))
    assertThat(t.band()).isEqualTo(new Band(1250, 1000, 1500, 0));
  }

  @Test
  void sustainedShiftOpensOnTheOpenAfterThObservationAndResolves() {
    SignalTracker t = mature(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    List<Step> shifted = new ArrayList<>();
    for (int i = 40; i < 70; i++) {
      shifted.add(t.observe(ts(i), 3 * normal(i)));
    }
    // openAfter = 3: the 1st and 2nd shifted observations are a pending run, the 3rd opens
    assertThat(shifted.get(0).transition()).isEqualTo(Transition.NONE);
    assertThat(shifted.get(1).transition()).isEqualTo(Transition.NONE);
    assertThat(shifted.get(0).runStartMs()).isEqualTo(ts(40));
    assertThat(shifted.get(1).runStartMs()).isEqualTo(ts(40));
    Step opened = shifted.get(2);
    assertThat(opened.transition()).isEqualTo(Transition.OPENED);
    assertThat(opened.runStartMs()).isEqualTo(ts(40));
    assertThat(opened.timestampMs()).isEqualTo(ts(42));
    assertThat(t.open()).isTrue();
    // the two pending observations were learned winsorized (1250), so the median stays ~1000
    assertThat(opened.expected()).isBetween(995.0, 1005.0);
    // while open nothing is learned: the band stays exactly where it was when it opened
    for (Step s : shifted.subList(3, shifted.size())) {
      assertThat(s.outside()).isTrue();
      assertThat(s.transition()).isEqualTo(Transition.NONE);
      assertThat(s.runStartMs()).isEqualTo(ts(40));
      assertThat(s.expected()).isEqualTo(opened.expected());
      assertThat(s.upper()).isEqualTo(opened.upper());
    }
    assertThat(t.view().observations()).isEqualTo(42); // 40 normal + 2 winsorized

    List<Step> back = feedNormal(t, 70, 74);
    assertThat(back.get(0).transition()).isEqualTo(Transition.NONE);
    assertThat(back.get(1).transition()).isEqualTo(Transition.NONE);
    Step resolved = back.get(2); // resolveAfter = 3
    assertThat(resolved.transition()).isEqualTo(Transition.RESOLVED);
    assertThat(resolved.runStartMs()).isEqualTo(ts(40)); // startedAt of the resolved anomaly
    assertThat(resolved.timestampMs()).isEqualTo(ts(72)); // endedAt
    assertThat(back.get(3).transition()).isEqualTo(Transition.NONE);
    assertThat(back.get(3).runStartMs()).isEqualTo(SignalTracker.NO_RUN);
    assertThat(t.open()).isFalse();
    assertThat(t.view().observations()).isEqualTo(43); // learning resumed after the resolve
  }

  @Test
  void anOutsideValueWhileOpenRestartsTheResolveCount() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    for (int i = 40; i < 43; i++) {
      t.observe(ts(i), 3000);
    }
    assertThat(t.open()).isTrue();
    t.observe(ts(43), 1000);
    t.observe(ts(44), 1000);
    t.observe(ts(45), 3000); // relapse
    assertThat(t.observe(ts(46), 1000).transition()).isEqualTo(Transition.NONE);
    assertThat(t.observe(ts(47), 1000).transition()).isEqualTo(Transition.NONE);
    assertThat(t.observe(ts(48), 1000).transition()).isEqualTo(Transition.RESOLVED);
  }

  @Test
  void aRunEndsAtTheFirstInBandObservation() {
    SignalTracker t = mature(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    // out, in, in, out, in, in ... never two outside in a row
    for (int i = 40; i < 70; i++) {
      Step s = t.observe(ts(i), (i - 40) % 3 == 0 ? 5000 : normal(i));
      assertThat(s.transition()).isEqualTo(Transition.NONE);
    }
    assertThat(t.open()).isFalse();
    // (those ten excursions raised the scope's out-of-band rate: it now needs four)
    assertThat(t.openingRule().needed(DEFAULTS.openAfter())).isEqualTo(4);
    // a calm scope: out, in, out, in, out never opens (a sawtooth such as the checkpoint age's
    // every-other-scrape is not a run); a run in a row does (four: the three excursions raised
    // the scope's out-of-band rate)
    SignalTracker calm = mature(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(calm, 0, 40);
    List<Transition> interrupted = new ArrayList<>();
    for (int i = 40; i < 48; i++) {
      interrupted.add(calm.observe(ts(i), i % 2 == 0 || i >= 45 ? 5000 : normal(i)).transition());
    }
    assertThat(interrupted).containsExactly(Transition.NONE, Transition.NONE, Transition.NONE,
        Transition.NONE, Transition.NONE, Transition.NONE, Transition.NONE, Transition.OPENED);
  }

  @Test
  void aRunMustStayOnOneSide() {
    SignalTracker t = SignalTracker.forSeries(Direction.BOTH, 250, DEFAULTS);
    feedNormal(t, 0, 40);
    // above, above, below, below, above ... the side changes before three on one side
    for (int i = 40; i < 70; i++) {
      Step s = t.observe(ts(i), ((i - 40) / 2) % 2 == 0 ? 5000 : -3000);
      assertThat(s.transition()).isEqualTo(Transition.NONE);
    }
    assertThat(t.open()).isFalse();
  }

  @Test
  void recordsInFlagsDropsButNotRises() {
    SignalTracker t = new SignalTracker(Signal.RECORDS_IN, DEFAULTS); // Direction.DOWN, floor 1
    feedNormal(t, 0, 40);
    // median 1000, spread 4.4478, h = max(17.79, 100, 1) = 100
    assertThat(t.band()).isEqualTo(new Band(1000, 900, 1100, 3 * 1.4826));
    for (int i = 40; i < 50; i++) {
      Step s = t.observe(ts(i), 3000);
      assertThat(s.outside()).isFalse();
      assertThat(s.transition()).isEqualTo(Transition.NONE);
    }
    assertThat(t.open()).isFalse();
    List<Step> drop = new ArrayList<>();
    for (int i = 50; i < 53; i++) {
      drop.add(t.observe(ts(i), 300));
    }
    assertThat(drop).allSatisfy(s -> {
      assertThat(s.outside()).isTrue();
      assertThat(s.score()).isLessThan(-4);
    });
    assertThat(drop.get(2).transition()).isEqualTo(Transition.OPENED);
    assertThat(drop.get(2).runStartMs()).isEqualTo(ts(50));
  }

  @Test
  void checkpointDurationFlagsRisesButNotDrops() {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS); // Direction.UP
    feedNormal(t, 0, 40);
    for (int i = 40; i < 50; i++) {
      Step s = t.observe(ts(i), 10); // far below lower = 750
      assertThat(s.outside()).isFalse();
      assertThat(s.score()).isLessThan(-4);
      assertThat(s.transition()).isEqualTo(Transition.NONE);
    }
    assertThat(t.open()).isFalse();
  }

  @Test
  void directionNoneNeverOpensButStillReportsTheBand() {
    for (Signal signal : new Signal[] {Signal.DISK_WRITE_IOPS, Signal.RESTARTS}) {
      SignalTracker t = new SignalTracker(signal, DEFAULTS);
      for (int i = 0; i < 40; i++) {
        t.observe(ts(i), normal(i) - 900); // 95..105
      }
      for (int i = 40; i < 80; i++) {
        Step s = t.observe(ts(i), i % 2 == 0 ? 10_000 : -10_000);
        assertThat(s.outside()).isFalse();
        assertThat(s.transition()).isEqualTo(Transition.NONE);
        assertThat(s.expected()).isFinite();
        assertThat(Math.abs(s.score())).isGreaterThan(10);
      }
      assertThat(t.open()).isFalse();
      assertThat(t.view().state()).isEqualTo("ready");
      assertThat(t.view().observations()).isEqualTo(80);
    }
  }

  @Test
  void nonFiniteObservationsChangeNothing() throws IOException {
    SignalTracker t = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(t, 0, 40);
    BaselineView before = t.view();
    Step s = t.observe(ts(40), Double.NaN);
    assertThat(s.transition()).isEqualTo(Transition.NONE);
    assertThat(s.outside()).isFalse();
    assertThat(s.score()).isNaN();
    assertThat(t.observe(ts(41), Double.POSITIVE_INFINITY).outside()).isFalse();
    assertThat(t.view()).isEqualTo(before);
  }

  @Test
  void noWallClockInTheBaselinePackage() throws IOException {
    Path dir = Path.of("src/main/java/dev/checkpointdoctor/detector/baseline");
    assertThat(dir).isDirectory();
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      String src = Files.readString(f);
      assertThat(src)
          .as(f.toString())
          .doesNotContain("currentTimeMillis")
          .doesNotContain("nanoTime")
          .doesNotContain("Instant.now")
          .doesNotContain("Clock")
          .doesNotContain("LocalDateTime");
    }
  }

  // ------------------------------------------------------------------ snapshots

  static SignalTracker roundTrip(SignalTracker t, Signal signal) throws IOException {
    byte[] bytes = RobustBaselineTest.bytes(t::writeTo);
    return SignalTracker.readFrom(
        new DataInputStream(new ByteArrayInputStream(bytes)), signal, DEFAULTS);
  }

  @Test
  void snapshotWhileOpenRestoresStateAndBehaviour() throws IOException {
    SignalTracker original = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(original, 0, 130); // wraps the 120-slot window
    for (int i = 130; i < 134; i++) {
      original.observe(ts(i), 3000);
    }
    assertThat(original.open()).isTrue();
    original.observe(ts(134), normal(134)); // first of resolveAfter = 3 inside observations
    SignalTracker copy = roundTrip(original, Signal.CHECKPOINT_DURATION);
    assertThat(copy.open()).isTrue();
    assertThat(copy.view()).isEqualTo(original.view());
    assertThat(copy.band()).isEqualTo(original.band());
    List<Transition> transitions = new ArrayList<>();
    for (int i = 135; i < 200; i++) {
      double v = i == 150 ? 5000 : i >= 170 && i < 175 ? 2800 : normal(i);
      Step a = original.observe(ts(i), v);
      Step b = copy.observe(ts(i), v);
      assertThat(b).isEqualTo(a);
      transitions.add(a.transition());
    }
    // resolves on ts(136) (the restored inside count matters), reopens on ts(172)
    assertThat(transitions.get(1)).isEqualTo(Transition.RESOLVED);
    assertThat(transitions.get(172 - 135)).isEqualTo(Transition.OPENED);
    assertThat(copy.view()).isEqualTo(original.view());
  }

  /**
   * A version-3 snapshot (written before the trend run's start was kept) is what the previous
   * release left on disk: it must restore into a tracker that goes on as the writer would have,
   * apart from a pending young-band trend, which starts afresh.
   */
  @Test
  void aVersionThreeSnapshotRestoresAndGoesOn() throws IOException {
    SignalTracker original = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(original, 0, 130);
    for (int i = 130; i < 134; i++) {
      original.observe(ts(i), 3000);
    }
    assertThat(original.open()).isTrue();
    byte[] v4 = asVersion4(RobustBaselineTest.bytes(original::writeTo));
    // version 3 is version 4 without the trend run's start (a long and a double after the
    // trend run's length), which follow the baseline and 66 bytes of the tracker's fields
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(v4));
    in.readUnsignedByte();
    RobustBaseline.readFrom(in, Signal.CHECKPOINT_DURATION, DEFAULTS);
    int trendFrom = v4.length - in.available() + 66;
    byte[] v3 = new byte[v4.length - 16];
    System.arraycopy(v4, 0, v3, 0, trendFrom);
    System.arraycopy(v4, trendFrom + 16, v3, trendFrom, v4.length - trendFrom - 16);
    v3[0] = 3;
    SignalTracker copy = SignalTracker.readFrom(
        new DataInputStream(new ByteArrayInputStream(v3)), Signal.CHECKPOINT_DURATION, DEFAULTS);
    assertThat(copy.open()).isTrue();
    assertThat(copy.view()).isEqualTo(original.view());
    assertThat(copy.band()).isEqualTo(original.band());
    for (int i = 134; i < 200; i++) {
      double v = i >= 170 && i < 175 ? 2800 : normal(i);
      assertThat(copy.observe(ts(i), v)).as("step " + i).isEqualTo(original.observe(ts(i), v));
    }
    assertThat(copy.view()).isEqualTo(original.view());
    assertThat(RobustBaselineTest.bytes(copy::writeTo)[0]).isEqualTo((byte) 5);
  }

  /**
   * A version-5 snapshot as version 4 wrote it: without the distances of the pending run's
   * observations (their count and a float each), which end the opening rule's fields.
   */
  static byte[] asVersion4(byte[] v5) throws IOException {
    assertThat(v5[0]).isEqualTo(SignalTracker.SNAPSHOT_VERSION).isEqualTo((byte) 5);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(v5));
    in.readUnsignedByte();
    RobustBaseline.readFrom(in, Signal.CHECKPOINT_DURATION, DEFAULTS);
    in.skipBytes(66 + 16);
    OpeningRule rule = OpeningRule.readFrom(in);
    int end = v5.length - in.available();
    int start = end - 4 - 4 * Math.min(rule.pendingLength(), 50);
    byte[] v4 = new byte[v5.length - (end - start)];
    System.arraycopy(v5, 0, v4, 0, start);
    System.arraycopy(v5, end, v4, start, v5.length - end);
    v4[0] = 4;
    return v4;
  }

  @Test
  void aVersionFourSnapshotRestoresAndGoesOn() throws IOException {
    SignalTracker original = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(original, 0, 40);
    original.observe(ts(40), 3000);
    original.observe(ts(41), 3000);
    SignalTracker copy = SignalTracker.readFrom(new DataInputStream(new ByteArrayInputStream(
        asVersion4(RobustBaselineTest.bytes(original::writeTo)))),
        Signal.CHECKPOINT_DURATION, DEFAULTS);
    assertThat(copy.view()).isEqualTo(original.view());
    // this scope's noise does not wander: the run opens on the third as it would have
    for (int i = 42; i < 80; i++) {
      double v = i < 45 ? 3000 : normal(i);
      assertThat(copy.observe(ts(i), v)).as("step " + i).isEqualTo(original.observe(ts(i), v));
    }
  }

  @Test
  void snapshotDuringAPendingRunKeepsTheRun() throws IOException {
    SignalTracker original = new SignalTracker(Signal.CHECKPOINT_DURATION, DEFAULTS);
    feedNormal(original, 0, 40);
    original.observe(ts(40), 3000);
    original.observe(ts(41), 3000);
    SignalTracker copy = roundTrip(original, Signal.CHECKPOINT_DURATION);
    Step a = original.observe(ts(42), 3000);
    Step b = copy.observe(ts(42), 3000);
    assertThat(b).isEqualTo(a);
    assertThat(b.transition()).isEqualTo(Transition.OPENED);
    assertThat(b.runStartMs()).isEqualTo(ts(40));
  }

  /**
   * The values a rise was clipped to stay marked across a snapshot: restored as plain values, ten
   * equal ones would read as noise that wanders, and the drop would need a longer run.
   */
  @Test
  void snapshotKeepsWhichValuesWereClipped() throws IOException {
    SignalTracker original = new SignalTracker(Signal.RECORDS_IN, DEFAULTS);
    feedNormal(original, 0, 40);
    for (int i = 40; i < 50; i++) {
      original.observe(ts(i), 3000); // learned clipped at the upper edge, 1100
    }
    SignalTracker copy = roundTrip(original, Signal.RECORDS_IN);
    for (int i = 50; i < 53; i++) {
      assertThat(copy.observe(ts(i), 300)).isEqualTo(original.observe(ts(i), 300));
    }
    assertThat(copy.open()).isTrue();
    assertThat(copy.view()).isEqualTo(original.view());
  }

  @Test
  void snapshotOfAFreshTrackerRoundTrips() throws IOException {
    SignalTracker fresh = new SignalTracker(Signal.RECORDS_IN, DEFAULTS);
    SignalTracker copy = roundTrip(fresh, Signal.RECORDS_IN);
    assertThat(copy.view()).isEqualTo(fresh.view());
    assertThat(copy.view().state()).isEqualTo("learning");
    assertThat(copy.observe(T0, 5).expected()).isNaN();
  }

  interface Fields {
    void write(DataOutputStream out) throws IOException;
  }

  static void assertCorrupt(Signal signal, String message, Fields trackerFields) {
    byte[] bytes = RobustBaselineTest.bytes(out -> {
      out.writeByte(1);
      new RobustBaseline(signal, DEFAULTS).writeTo(out);
      trackerFields.write(out);
    });
    assertThatThrownBy(() -> SignalTracker.readFrom(
            new DataInputStream(new ByteArrayInputStream(bytes)), signal, DEFAULTS))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(message);
  }

  static Fields fields(boolean open, int side, int run, long start, int inside) {
    return out -> {
      out.writeBoolean(open);
      out.writeByte(side);
      out.writeInt(run);
      out.writeLong(start);
      out.writeInt(inside);
      out.writeLong(T0);
      out.writeDouble(1);
    };
  }

  @Test
  void corruptTrackerSnapshotsFailWithIoException() {
    Signal d = Signal.CHECKPOINT_DURATION;
    long none = SignalTracker.NO_RUN;
    assertCorrupt(d, "run side", fields(false, 5, 0, none, 0));
    assertCorrupt(d, "negative run length", fields(false, 1, -1, T0, 0));
    assertCorrupt(d, "negative counters", fields(true, 1, 0, T0, -3));
    assertCorrupt(d, "open without", fields(true, 0, 0, none, 0));
    assertCorrupt(d, "inside observations while closed", fields(false, 0, 0, none, 2));
    assertCorrupt(d, "inconsistent pending run", fields(false, 1, 0, T0, 0));
    assertCorrupt(Signal.RESTARTS, "never opens", fields(true, 1, 0, T0, 0));
    assertCorrupt(d, "truncated tracker", out -> out.writeBoolean(true));
    byte[] badVersion = {(byte) (SignalTracker.SNAPSHOT_VERSION + 1)};
    assertThatThrownBy(() -> SignalTracker.readFrom(
            new DataInputStream(new ByteArrayInputStream(badVersion)), d, DEFAULTS))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version " + (SignalTracker.SNAPSHOT_VERSION + 1));
    // a corrupt embedded baseline surfaces as IOException too
    byte[] badBaseline = RobustBaselineTest.bytes(out -> {
      out.writeByte(1);
      RobustBaselineTest.header(out, 120, 5, T0, T0, 121);
    });
    assertThatThrownBy(() -> SignalTracker.readFrom(
            new DataInputStream(new ByteArrayInputStream(badBaseline)), d, DEFAULTS))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("window count");
    // the same hand-written layout with consistent fields reads fine (the checks above are
    // about the fields, not about the layout)
    byte[] valid = RobustBaselineTest.bytes(out -> {
      out.writeByte(1);
      new RobustBaseline(d, DEFAULTS).writeTo(out);
      fields(false, 1, 2, T0, 0).write(out);
    });
    assertThatCode(() -> SignalTracker.readFrom(
            new DataInputStream(new ByteArrayInputStream(valid)), d, DEFAULTS))
        .doesNotThrowAnyException();
  }

  /**
   * A subtask's barrier delay, 1-12 ms for 600 checkpoints {@code spacingMs} apart (its tail
   * known), then {@code far} far-out checkpoints (6 s and 2 s, then 6 s on) and normal again:
   * whether an anomaly opened.
   */
  private static boolean farOutBlipOpens(long spacingMs, int far) {
    SignalTracker t = mature(Signal.CHECKPOINT_START_DELAY, DEFAULTS);
    long ts = T0;
    for (int i = 0; i < 600; i++, ts += spacingMs) {
      t.observe(ts, 1 + (i * 7) % 12);
    }
    boolean opened = false;
    for (int i = 0; i < far + 5; i++, ts += spacingMs) {
      double v = i < far ? (i == 1 ? 2_000 : 6_000) : 1 + (i * 7) % 12;
      opened |= t.observe(ts, v).transition() == Transition.OPENED;
    }
    return opened;
  }

  @Test
  void twoFarOutCheckpointsAMinuteApartAreOneEventNotAnAnomaly() {
    // a minute of peak load backs up two checkpoints on every subtask of the job
    assertThat(farOutBlipOpens(MINUTE, 2)).isFalse();
  }

  @Test
  void twoFarOutCheckpointsMinutesApartStillOpen() {
    assertThat(farOutBlipOpens(3 * MINUTE, 2)).isTrue();
  }

  @Test
  void threeFarOutCheckpointsAMinuteApartOpen() {
    assertThat(farOutBlipOpens(MINUTE, 3)).isTrue();
  }
}
