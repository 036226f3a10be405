package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.JobPlan.FaultPlan;
import java.util.Locale;

/** One sentence per job for the manifest: what happens to it, in an operator's words. */
final class Descriptions {
  private Descriptions() {}

  static String of(JobDraft d) {
    String job = String.format(Locale.ROOT, "Flink %s, %s, %s, parallelism %d on %d TaskManager(s)",
        d.version.id, d.layout.name().toLowerCase(Locale.ROOT), d.backend.name().toLowerCase(
            Locale.ROOT), d.parallelism, d.taskManagers);
    if (d.faults.isEmpty()) {
      return job + (d.control == null ? ": healthy."
          : ": healthy control (" + d.control.replace('_', ' ') + ").");
    }
    StringBuilder b = new StringBuilder(job).append(": ").append(fault(d.faults.get(0)));
    if (d.faults.size() > 1) {
      b.append("; later also ").append(fault(d.faults.get(1)));
    }
    return b.append('.').toString();
  }

  private static String fault(FaultPlan f) {
    String how = f.ramp() == Ramp.STEP ? "suddenly"
        : String.format(Locale.ROOT, "%s over %d min", f.ramp().id().replace('_', ' '),
            f.rampMs() / 60_000);
    String what = switch (f.cause()) {
      case Faults.DISK -> "the gp2 data volume runs out of burst credits ("
          + f.variant().replace('_', ' ') + " raised the I/O demand above its baseline) and "
          + "serves its baseline IOPS only";
      case Faults.STATE -> "keyed state grows without bound (" + f.variant().replace('_', ' ')
          + ")";
      case Faults.BACKPRESSURE -> f.variant().equals("slow_lookup")
          ? "an external lookup slows down and back-pressures the sources"
          : "the sink's external system slows down and back-pressures the job";
      case Faults.UNALIGNED -> "the sink slows down under unaligned checkpoints: in-flight data"
          + " is persisted with every checkpoint";
      case Faults.ROCKSDB -> f.variant().equals("write_burst")
          ? "state writes per record multiply and compaction falls behind"
          : "compaction gets CPU-heavier (TTL filter, compression) and falls behind";
      case Faults.GC -> "the heap fills (" + f.variant().replace('_', ' ')
          + ") and garbage collection takes over";
      case Faults.STORAGE -> "checkpoint storage gets slow (" + f.variant() + ")";
      case Faults.SKEW -> "a hot key moves much of the keyed input onto one subtask"
          + (f.variant().equals("mild") ? " (without saturating it)" : "");
      case Faults.CPU -> "the TaskManager containers hit their CFS CPU quota ("
          + f.variant().replace('_', ' ') + ")";
      case Faults.INTERVAL -> "a redeploy shortens the checkpoint interval below the checkpoint"
          + " duration";
      default -> f.cause();
    };
    return what + ", coming in " + how;
  }
}
