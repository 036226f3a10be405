package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;

/**
 * Back-pressure delaying barriers: upstream subtasks back-pressured, checkpoint start delay up
 * across subtasks, and a bottleneck task that is busy with little back-pressure of its own.
 */
final class BackpressureRule implements CauseRule {
  static final double PRESSED_MS_PER_S = 500;
  static final double BUSY_MS_PER_S = 800;

  @Override
  public Cause cause() {
    return Cause.BACKPRESSURE;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    TaskPicture bp = TaskPicture.of(job, Signal.BACKPRESSURE);
    TaskPicture busy = TaskPicture.of(job, Signal.BUSY);
    TaskPicture delay = TaskPicture.of(job, Signal.CHECKPOINT_START_DELAY);
    List<TaskPicture.Subtask> pressed = bp.atLeast(PRESSED_MS_PER_S);
    if (pressed.isEmpty()) {
      return f;
    }
    TaskPicture.Subtask worst = pressed.get(0);
    for (TaskPicture.Subtask s : pressed) {
      worst = s.recent() > worst.recent() ? s : worst;
    }
    f.support(0.35, Signal.BACKPRESSURE, worst.scope(), worst.recent(), worst.earlier(),
        String.format("%d of %d subtasks are back-pressured (≥ %s ms/s); %s at %s ms/s, was %s.",
            pressed.size(), bp.all().size(), Fmt.num(PRESSED_MS_PER_S), worst.scope(),
            Fmt.num(worst.recent()), Fmt.num(worst.earlier())));
    int up = 0;
    double[] upNow = new double[delay.all().size()];
    double[] upBefore = new double[delay.all().size()];
    for (TaskPicture.Subtask s : delay.all()) {
      double before = Double.isNaN(s.earlier()) ? 0 : s.earlier();
      if (s.recent() >= 1000 && s.recent() >= 3 * before) {
        upNow[up] = s.recent();
        upBefore[up] = before;
        up++;
      }
    }
    if (up >= 2 && up * 2 >= delay.all().size()) {
      double now = Stats.median(java.util.Arrays.copyOf(upNow, up));
      double before = Stats.median(java.util.Arrays.copyOf(upBefore, up));
      f.support(0.25, Signal.CHECKPOINT_START_DELAY, "job", now, before, String.format(
          "Barriers travel slowly: checkpoint start delay is up at %d of %d subtasks, median %s "
              + "(was %s).", up, delay.all().size(), Fmt.ms(now), Fmt.ms(before)));
    }
    TaskPicture.Subtask bottleneck = null;
    for (TaskPicture.Subtask s : busy.atLeast(BUSY_MS_PER_S)) {
      TaskPicture.Subtask own = bp.find(s.scope());
      if ((own == null || own.recent() < 200)
          && (bottleneck == null || s.recent() > bottleneck.recent())) {
        bottleneck = s;
      }
    }
    if (bottleneck != null) {
      TaskPicture.Subtask own = bp.find(bottleneck.scope());
      f.support(0.2, Signal.BUSY, bottleneck.scope(), bottleneck.recent(), bottleneck.earlier(),
          String.format("Bottleneck: task %s subtask %s is busy %s ms/s with %s ms/s "
                  + "back-pressure of its own.", JobEvidence.taskName(bottleneck.scope()),
              JobEvidence.subtask(bottleneck.scope()), Fmt.num(bottleneck.recent()),
              own == null ? "no" : Fmt.num(own.recent())));
    }
    if (job.checkpointTrouble()) {
      f.support(0.1, Signal.CHECKPOINT_DURATION, "job", 0, 0,
          "Checkpoints are slower or failing while the job is back-pressured.");
    }
    Skew skew = DataSkewRule.busySkew(busy);
    if (skew != null) {
      f.against(0.6, Signal.BUSY, skew.scope(), skew.value(), skew.peers(), String.format(
          "But only %s is busy (%s ms/s against %s for its peers): that is skew.", skew.scope(),
          Fmt.num(skew.value()), Fmt.num(skew.peers())));
    }
    JobEvidence.Peak persisted = job.highestRecentMedian(Signal.CHECKPOINT_PERSISTED_DATA, "job");
    if (persisted != null && UnalignedInflationRule.inflated(persisted)) {
      f.against(0.7, Signal.CHECKPOINT_PERSISTED_DATA, "job", persisted.value(),
          persisted.before(), "Checkpoints persist " + Fmt.bytes(persisted.value())
              + " of in-flight data: the back-pressure's main cost is unaligned checkpoint size.");
    }
    return f;
  }
}
