package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;

/** One subtask's start delay or busy time far above the other subtasks of its task. */
final class DataSkewRule implements CauseRule {
  /**
   * Significance for "the peers are busier too" and "the lagging subtask is back-pressured
   * itself", evidence against a hot key: looser than {@link
   * Change#ALPHA}, because it only has to say the task did not stay as it was, and right after
   * the onset there are few recent values.
   */
  static final double PEERS_ALPHA = 0.05;

  @Override
  public Cause cause() {
    return Cause.DATA_SKEW;
  }

  static Skew busySkew(TaskPicture busy) {
    Skew s = Skew.find(busy, 2, 400);
    return s != null && s.value() >= 700 ? s : null;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    Skew delay = Skew.find(TaskPicture.of(job, Signal.CHECKPOINT_START_DELAY), 3, 1000);
    Skew busy = busySkew(TaskPicture.of(job, Signal.BUSY));
    if (delay != null) {
      f.support(0.4, Signal.CHECKPOINT_START_DELAY, delay.scope(), delay.value(), delay.peers(),
          Evidence.HIGHER, Double.NaN, String.format("Checkpoint start delay at task %s subtask %s is %s, its peers' median "
                  + "%s.", JobEvidence.taskName(delay.scope()), JobEvidence.subtask(delay.scope()),
              Fmt.ms(delay.value()), Fmt.ms(delay.peers())));
    }
    if (busy != null) {
      f.support(delay == null || sameTask(delay, busy) ? 0.3 : 0.15, Signal.BUSY, busy.scope(),
          busy.value(), busy.peers(), Evidence.HIGHER, Double.NaN, String.format(
              "Task %s subtask %s is busy %s ms/s while its peers' median is %s ms/s.",
              JobEvidence.taskName(busy.scope()), JobEvidence.subtask(busy.scope()),
              Fmt.num(busy.value()), Fmt.num(busy.peers())));
    }
    if (delay == null && busy == null) {
      return f;
    }
    String lagging = (busy != null ? busy : delay).scope();
    String task = JobEvidence.taskName(lagging);
    if (busy == null) {
      // a hot key keeps its subtask busy; one whose barrier arrives late while it is no busier
      // than its peers waits on something else (a bottleneck downstream filling its buffers)
      TaskPicture busyTimes = TaskPicture.of(job, Signal.BUSY);
      TaskPicture.Subtask own = busyTimes.find(lagging);
      List<TaskPicture.Subtask> peers = busyTimes.byTask().get(task);
      double peerBusy = peers == null ? Double.NaN : TaskPicture.peerMedian(peers, lagging);
      if (own != null && peerBusy >= 0
          && own.recent() < peerBusy + Signal.BUSY.absoluteFloor()) {
        f.against(0.6, Signal.BUSY, lagging, own.recent(), peerBusy, String.format(
            "But task %s subtask %s is no busier than its peers (%s ms/s, their median %s): a "
                + "hot key keeps its subtask busy.", task, JobEvidence.subtask(lagging),
            Fmt.num(own.recent()), Fmt.num(peerBusy)));
      }
    }
    Change pressed = job.change(GcPressureRule.series(job, Signal.BACKPRESSURE, lagging));
    int[] busier = peersBusierThanBefore(job, task, lagging);
    if (pressed.known() && (pressed.now() >= BackpressureRule.PRESSED_MS_PER_S
        || pressed.higherBy(Signal.BACKPRESSURE.absoluteFloor(), PEERS_ALPHA))) {
      // the subtask with the hot key is the bottleneck: busy, not waiting on its outputs
      f.against(0.4, Signal.BACKPRESSURE, lagging, pressed.now(), pressed.before(),
          String.format("But task %s subtask %s is back-pressured "
              + "itself (%s ms/s, was %s): it waits on a task downstream, it is not the hot one.",
          task, JobEvidence.subtask(lagging), Fmt.num(pressed.now()),
          Fmt.num(pressed.before())));
    } else if (busier[1] > 0 && busier[0] * 2 > busier[1]) {
      // a hot key leaves the other subtasks of its task idle or waiting; a task that is slower
      // as a whole is a bottleneck, whose lagging subtask is only the slowest of several
      f.against(0.4, Signal.BUSY, "task:" + task, busier[0], busier[1], String.format(
          "But %d of the other %d subtasks of %s are busier than before as well: the task as a "
              + "whole slowed, not one key.", busier[0], busier[1], task));
    }
    Skew records = Skew.find(TaskPicture.of(job, Signal.RECORDS_IN), 2, 1);
    if (records != null) {
      f.support(0.15, Signal.RECORDS_IN, records.scope(), records.value(), records.peers(),
          Evidence.HIGHER, Double.NaN, String.format("%s receives %s records/s, its peers' median %s.", records.scope(),
              Fmt.num(records.value()), Fmt.num(records.peers())));
    }
    if (job.checkpointTrouble()) {
      CheckpointTrouble.support(f, job, "while one subtask lags");
    }
    return f;
  }

  /**
   * Of the other subtasks of {@code task} (all but {@code scope}), how many are busier than
   * before (one-sided Mann–Whitney at {@link #PEERS_ALPHA}) by at least the signal's floor, and
   * how many were judged.
   */
  private static int[] peersBusierThanBefore(JobEvidence job, String task, String scope) {
    int busier = 0;
    int judged = 0;
    for (SeriesHistory h : job.histories(Signal.BUSY)) {
      if (!h.scope().startsWith("task:") || h.scope().equals(scope)
          || !JobEvidence.taskName(h.scope()).equals(task)) {
        continue;
      }
      Change c = job.change(h);
      if (!c.known()) {
        continue;
      }
      judged++;
      busier += c.higherBy(Signal.BUSY.absoluteFloor(), PEERS_ALPHA) ? 1 : 0;
    }
    return new int[] {busier, judged};
  }

  private static boolean sameTask(Skew a, Skew b) {
    return JobEvidence.taskName(a.scope()).equals(JobEvidence.taskName(b.scope()));
  }
}
