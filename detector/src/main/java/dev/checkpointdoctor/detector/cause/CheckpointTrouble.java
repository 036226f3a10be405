package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/** The consequence every cause shares: checkpoints slower, older or failing, with its numbers. */
final class CheckpointTrouble {
  private CheckpointTrouble() {}

  /** Adds the checkpoint sign that shows the trouble, quoting what it is and was. */
  static void support(Finding f, JobEvidence job, String whileWhat) {
    for (Signal s : new Signal[] {Signal.CHECKPOINT_FAILURES, Signal.CHECKPOINT_DURATION,
        Signal.CHECKPOINT_AGE}) {
      if (!job.isOpen(s)) {
        continue;
      }
      SeriesHistory h = job.jobSeries(s);
      Change c = job.change(h);
      if (c.known() && c.now() > c.before()) {
        f.consequence(0.1, new Evidence(s.id(), "job", c.now(), c.before(), Evidence.HIGHER,
            Double.NaN, c.confidenceHigher(), -1, String.format("Checkpoint %s is %s, was %s, %s.",
                what(s), amount(s, c.now()), amount(s, c.before()), whileWhat)));
        return;
      }
      if (s == Signal.CHECKPOINT_FAILURES && job.failuresNow() > 0) {
        f.consequence(0.1, new Evidence(s.id(), "job", job.failuresNow(), 0, Evidence.HIGHER,
            Double.NaN, Double.NaN, -1, String.format("%s checkpoints failed in the last %d min, "
                + "%s.", Fmt.num(job.failuresNow()), job.settings().failureWindow().toMinutes(),
                whileWhat)));
        return;
      }
    }
  }

  private static String what(Signal s) {
    return switch (s) {
      case CHECKPOINT_FAILURES -> "failures";
      case CHECKPOINT_AGE -> "age";
      default -> "duration";
    };
  }

  private static String amount(Signal s, double v) {
    return switch (s) {
      case CHECKPOINT_FAILURES -> Fmt.num(v);
      case CHECKPOINT_AGE -> Fmt.ms(v * 1000);
      default -> Fmt.ms(v);
    };
  }
}
