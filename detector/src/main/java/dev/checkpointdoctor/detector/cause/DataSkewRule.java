package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.Signal;

/** One subtask's start delay or busy time far above the other subtasks of its task. */
final class DataSkewRule implements CauseRule {
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

  private static boolean sameTask(Skew a, Skew b) {
    return JobEvidence.taskName(a.scope()).equals(JobEvidence.taskName(b.scope()));
  }
}
