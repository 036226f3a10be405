package dev.checkpointdoctor.detector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.cause.UnknownCauseDiagnoser;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.CauseHypothesis;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SignalBookTest {
  private final SignalBook book = new SignalBook(DetectorSettings.defaults(),
      new UnknownCauseDiagnoser(), List.of());

  private int observations(String job, Signal signal, String scope) {
    return book.baselines(job).stream()
        .filter(b -> b.signal() == signal && b.scope().equals(scope))
        .mapToInt(BaselineSummary::observations).findFirst().orElse(0);
  }

  @Test
  void aHintForAnotherJobSignalOrScopeIsNotUsed() {
    String scope = "task:map/0";
    SignalBook.Entry a = book.observe(new Observation("a", Signal.BUSY, scope, 1000, 1), null);
    SignalBook.Entry b = book.observe(new Observation("b", Signal.BUSY, scope, 1000, 1), a);
    SignalBook.Entry c = book.observe(new Observation("b", Signal.BACKPRESSURE, scope, 1000, 1),
        b);
    SignalBook.Entry d = book.observe(new Observation("b", Signal.BACKPRESSURE, "task:map/1",
        1000, 1), c);
    // four entries, each its own object: an entry equals another job's entry of the same signal
    // and scope (it is its own key in its job's map), so identity is what tells them apart
    java.util.Set<SignalBook.Entry> distinct =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    distinct.addAll(List.of(a, b, c, d));
    assertThat(distinct).hasSize(4);
    assertThat(book.observe(new Observation("a", Signal.BUSY, scope, 2000, 1), d)).isSameAs(a);
    assertThat(book.observe(new Observation("b", Signal.BUSY, scope, 2000, 1), b)).isSameAs(b);
    assertThat(observations("a", Signal.BUSY, scope)).isEqualTo(2);
    assertThat(observations("b", Signal.BUSY, scope)).isEqualTo(2);
    assertThat(observations("b", Signal.BACKPRESSURE, scope)).isEqualTo(1);
    assertThat(observations("b", Signal.BACKPRESSURE, "task:map/1")).isEqualTo(1);
    assertThat(book.size()).isEqualTo(4);
  }

  @Test
  void equalStringsThatAreOtherInstancesFindTheSameEntry() {
    String scope = "task:map/0";
    SignalBook.Entry a = book.observe(new Observation("a", Signal.BUSY, scope, 1000, 1), null);
    // equal content, other instances: the hint's reference check fails, the lookup finds it
    String job = new String("a");
    String sameScope = new String(scope);
    assertThat(book.observe(new Observation(job, Signal.BUSY, sameScope, 2000, 1), a))
        .isSameAs(a);
    assertThat(book.observe(new Observation(job, Signal.BUSY, sameScope, 3000, 1), null))
        .isSameAs(a);
    assertThat(observations("a", Signal.BUSY, scope)).isEqualTo(3);
    assertThat(book.size()).isEqualTo(1);
  }

  @Test
  void aDiagnosisSeesHistoriesThatAppearedAfterTheLastOne() {
    // the book keeps the per-signal history lists between diagnoses: a new series must show
    List<List<String>> seen = new ArrayList<>();
    Diagnoser recording = (view, since) -> {
      seen.add(view.history(Signal.BUSY).stream().map(SeriesHistory::scope).toList());
      return new Diagnosis(view.job(), "x", 0.5, since, "busy", false, null,
          List.of(new CauseHypothesis("x", 0.5, List.of(), "", "")));
    };
    SignalBook b = new SignalBook(DetectorSettings.defaults(), recording, List.of());
    long t = 1_796_000_000_000L;
    Random r = new Random(3);
    for (int i = 0; i < 200 && seen.isEmpty(); i++, t += 15_000) {
      b.observe(new Observation("a", Signal.BUSY, "task:b/1", t, 300 + r.nextInt(10)), null);
      b.observe(new Observation("a", Signal.BUSY, "task:a/0", t, 300 + r.nextInt(10)), null);
      b.observe(new Observation("a", Signal.CHECKPOINT_DURATION, "job", t,
          i < 100 ? 5_000 + r.nextInt(500) : 90_000), null);
      b.diagnose(t);
    }
    assertThat(seen).isNotEmpty(); // the duration anomaly opened
    assertThat(seen.get(seen.size() - 1)).containsExactly("task:a/0", "task:b/1");
    b.observe(new Observation("a", Signal.BUSY, "task:a/1", t, 300), null);
    b.diagnose(t);
    assertThat(seen.get(seen.size() - 1)).containsExactly("task:a/0", "task:a/1", "task:b/1");
  }

  /**
   * Feeds a task of three subtasks at 1000 records/s and 300 ms/s busy for 200 minutes, then
   * for 30 minutes each subtask's input times {@code inputs[i]} and busy time times {@code
   * busy[i]}; returns the subtasks whose busy time was judged out long enough to open (one
   * anomaly stands for the task's subtasks; each subtask's own run is what is judged here).
   */
  private static List<String> busyAnomalies(double[] inputs, double[] busy) {
    SignalBook b = new SignalBook(DetectorSettings.defaults(), new UnknownCauseDiagnoser(),
        List.of());
    Random r = new Random(7);
    long t = 1_796_000_000_000L;
    SignalBook.Entry[] entries = new SignalBook.Entry[3];
    for (int i = 0; i < 230; i++, t += 60_000) {
      for (int s = 0; s < 3; s++) {
        String scope = "task:map/" + s;
        double in = i < 200 ? 1 : inputs[s];
        double bz = i < 200 ? 1 : busy[s];
        b.observe(new Observation("a", Signal.RECORDS_IN, scope, t,
            in * (1000 + r.nextInt(40))), null);
        entries[s] = b.observe(new Observation("a", Signal.BUSY, scope, t,
            bz * (300 + r.nextInt(20))), null);
      }
    }
    List<String> open = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      if (entries[s].tracker.open()) {
        open.add("task:map/" + s);
      }
    }
    return open;
  }

  /**
   * Three subtasks of task {@code agg} (and, when {@code otherTask}, one of task {@code sink})
   * run at a start delay of about 10 ms for 300 checkpoints a minute apart; then the subtasks
   * in {@code late} are {@code delayed[i]} checkpoints at 6 s. Returns the opened and resolved
   * anomalies as "opened SCOPE at MINUTE" and "resolved SCOPE at MINUTE", minutes from the
   * delays' start.
   */
  private static List<String> startDelayEvents(int[] delayed, boolean otherTask) {
    List<String> events = new ArrayList<>();
    long t0 = 1_796_000_000_000L;
    long first = t0 + 300 * 60_000L;
    DetectorListener l = new DetectorListener() {
      @Override
      public void anomalyOpened(Anomaly a) {
        events.add("opened " + a.scope() + " at " + (a.startedAtMs() - first) / 60_000);
      }

      @Override
      public void anomalyResolved(Anomaly a) {
        events.add("resolved " + a.scope() + " at " + (a.endedAtMs() - first) / 60_000);
      }
    };
    SignalBook b = new SignalBook(DetectorSettings.defaults(), new UnknownCauseDiagnoser(),
        List.of(l));
    Random r = new Random(11);
    long t = t0;
    for (int i = 0; i < 340; i++, t += 60_000) {
      int k = i - 300;
      for (int s = 0; s < delayed.length; s++) {
        observeDelay(b, r, "task:agg/" + s, t, k >= 0 && k < delayed[s]);
      }
      if (otherTask) {
        observeDelay(b, r, "task:sink/0", t, k >= 0 && k < delayed[0]);
      }
    }
    return events;
  }

  private static void observeDelay(SignalBook b, Random r, String scope, long t, boolean late) {
    double v = late ? 6_000 + r.nextInt(500) : 5 + r.nextInt(10);
    b.observe(new Observation("a", Signal.CHECKPOINT_START_DELAY, scope, t, v), null);
  }

  @Test
  void aDelayOnEverySubtaskOfATaskIsOneAnomalyThatLastsUntilTheLastSubtaskIsBack() {
    // one load peak delays every subtask's barrier: the task's event, not one per subtask
    List<String> events = startDelayEvents(new int[] {10, 10, 16}, false);
    assertThat(events).hasSize(2);
    assertThat(events.get(0)).startsWith("opened task:agg/");
    assertThat(events.get(1)).startsWith("resolved task:agg/");
    // resolved only once subtask 2, out for 16 minutes, is back too
    int resolvedAt = Integer.parseInt(events.get(1).substring(events.get(1).lastIndexOf(' ') + 1));
    assertThat(resolvedAt).isGreaterThanOrEqualTo(16);
  }

  @Test
  void aSubtaskAloneOutOfBandStillOpensItsOwnAndEachTaskHasItsOwn() {
    List<String> alone = startDelayEvents(new int[] {0, 12, 0}, false);
    assertThat(alone).hasSize(2);
    assertThat(alone.get(0)).isEqualTo("opened task:agg/1 at 0");
    assertThat(alone.get(1)).startsWith("resolved task:agg/1 at ");
    List<String> twoTasks = startDelayEvents(new int[] {12, 12, 12}, true);
    assertThat(twoTasks.stream().filter(e -> e.startsWith("opened")).map(e -> e.split(" ")[1]))
        .hasSize(2).anyMatch(s -> s.startsWith("task:agg/")).contains("task:sink/0");
  }

  @Test
  void busyTimeThatRisesWithTheTasksInputIsLoad() {
    assertThat(busyAnomalies(new double[] {2, 2, 2}, new double[] {2, 2, 2})).isEmpty();
  }

  @Test
  void busyTimeThatRisesAtTheUsualInputIsABottleneck() {
    assertThat(busyAnomalies(new double[] {1, 1, 1}, new double[] {2, 2, 2}))
        .containsExactly("task:map/0", "task:map/1", "task:map/2");
  }

  @Test
  void aSubtaskWhoseInputAloneRisesIsNotExcusedByIt() {
    // a hot key: the task's lower-median input did not rise, so its busy time still accuses it
    assertThat(busyAnomalies(new double[] {2, 1, 1}, new double[] {2, 1, 1}))
        .containsExactly("task:map/0");
  }

  @Test
  void busyTimeThatRisesFasterThanTheInputIsStillABottleneck() {
    assertThat(busyAnomalies(new double[] {1.3, 1.3, 1.3}, new double[] {2.5, 2.5, 2.5}))
        .containsExactly("task:map/0", "task:map/1", "task:map/2");
  }
}
