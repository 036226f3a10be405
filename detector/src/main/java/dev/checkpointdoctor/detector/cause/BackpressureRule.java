package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;

/**
 * Back-pressure delaying barriers: subtasks back-pressured more than before (each judged against
 * its own earlier values), checkpoint start delay up across subtasks, and a bottleneck task that
 * is busier than before with little back-pressure of its own.
 */
final class BackpressureRule implements CauseRule {
  /** Back-pressure that holds a subtask for most of each second, whatever it did before. */
  static final double PRESSED_MS_PER_S = 500;
  /** A subtask busy this much has no headroom left. */
  static final double BUSY_MS_PER_S = 800;

  @Override
  public Cause cause() {
    return Cause.BACKPRESSURE;
  }

  /** Subtasks back-pressured more than before, by at least the signal's floor. */
  static List<Change> pressed(JobEvidence job) {
    List<Change> out = new ArrayList<>();
    for (SeriesHistory h : job.histories(Signal.BACKPRESSURE)) {
      if (!h.scope().startsWith("task:")) {
        continue;
      }
      Change c = job.change(h);
      if (c.higherBy(Signal.BACKPRESSURE.absoluteFloor())) {
        out.add(c);
      }
    }
    return out;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    List<Change> pressed = pressed(job);
    if (pressed.isEmpty()) {
      return f;
    }
    Change worst = pressed.get(0);
    for (Change c : pressed) {
      worst = c.now() > worst.now() ? c : worst;
    }
    int all = 0;
    for (SeriesHistory h : job.histories(Signal.BACKPRESSURE)) {
      all += h.scope().startsWith("task:") ? 1 : 0;
    }
    f.support(worst.now() >= PRESSED_MS_PER_S ? 0.35 : 0.3, worst, true, String.format(
        "%d of %d subtasks are more back-pressured than before; %s at %s ms/s, was %s (%s).",
        pressed.size(), all, worst.scope(), Fmt.num(worst.now()), Fmt.num(worst.before()),
        worst.test(true)));
    TaskPicture delay = TaskPicture.of(job, Signal.CHECKPOINT_START_DELAY);
    List<Change> late = new ArrayList<>();
    for (SeriesHistory h : job.histories(Signal.CHECKPOINT_START_DELAY)) {
      Change c = job.change(h);
      if (h.scope().startsWith("task:")
          && c.higherBy(Signal.CHECKPOINT_START_DELAY.absoluteFloor())) {
        late.add(c);
      }
    }
    if (late.size() >= 2 && late.size() * 2 >= delay.all().size()) {
      double[] now = late.stream().mapToDouble(Change::now).toArray();
      double[] before = late.stream().mapToDouble(Change::before).toArray();
      double n = Stats.median(now);
      double b = Stats.median(before);
      f.support(0.25, Signal.CHECKPOINT_START_DELAY, "job", n, b, Evidence.HIGHER, Double.NaN,
          String.format("Barriers travel slowly: checkpoint start delay is up at %d of %d "
              + "subtasks, median %s (was %s).", late.size(), delay.all().size(), Fmt.ms(n),
              Fmt.ms(b)));
    }
    Change bottleneck = null;
    for (SeriesHistory h : job.histories(Signal.BUSY)) {
      if (!h.scope().startsWith("task:")) {
        continue;
      }
      Change busy = job.change(h);
      if (!(busy.higher() || busy.now() >= BUSY_MS_PER_S)) {
        continue;
      }
      Change own = job.change(GcPressureRule.series(job, Signal.BACKPRESSURE, h.scope()));
      boolean free = !own.known() || own.now() < Signal.BACKPRESSURE.absoluteFloor() * 2;
      if (free && (bottleneck == null || busy.now() > bottleneck.now())) {
        bottleneck = busy;
      }
    }
    if (bottleneck != null && bottleneck.now() > bottleneck.before()) {
      Change own = job.change(GcPressureRule.series(job, Signal.BACKPRESSURE,
          bottleneck.scope()));
      f.support(0.2, bottleneck, true, String.format("Bottleneck: task %s subtask %s is busy %s "
              + "ms/s (was %s) with %s back-pressure of its own.",
          JobEvidence.taskName(bottleneck.scope()), JobEvidence.subtask(bottleneck.scope()),
          Fmt.num(bottleneck.now()), Fmt.num(bottleneck.before()),
          own.known() ? Fmt.num(own.now()) + " ms/s" : "no"));
    }
    if (job.checkpointTrouble()) {
      CheckpointTrouble.support(f, job, "while the job is back-pressured");
    }
    return f;
  }
}
