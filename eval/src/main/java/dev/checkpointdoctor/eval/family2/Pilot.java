package dev.checkpointdoctor.eval.family2;

import java.util.ArrayList;
import java.util.List;

/** A short run of the healthy job to measure what its checkpoints take. */
final class Pilot {
  static final long RUN_MS = 90 * 60_000L;

  private Pilot() {}

  /**
   * What the pilot measured.
   *
   * @param medianDurationSeconds median checkpoint duration
   * @param dataVolumeIops mean I/O demand on the busiest node's data volume
   * @param dataVolumeBytesShare peak bytes/s demand on a data volume / the volume's throughput
   *     ceiling
   */
  record Result(double medianDurationSeconds, double dataVolumeIops,
      double dataVolumeBytesShare) {}

  /** Runs the healthy job for 90 minutes (after the warm-up). */
  static Result run(JobPlan plan) {
    JobPlan quiet = new JobPlan(plan.name(), plan.jobName(), plan.expected(), plan.control(),
        plan.seed(), plan.startMs(), plan.startMs() + RUN_MS, plan.cluster(), plan.workload(),
        plan.checkpointing(), plan.scrape(), plan.noise(), List.of(), List.of(), List.of());
    JobPhysics job = new JobPhysics(quiet);
    List<Double> durations = new ArrayList<>();
    double[] demand = new double[job.data.length];
    double bytesShare = 0;
    long ticks = 0;
    long seenId = Long.MIN_VALUE;
    while (job.now < quiet.endMs()) {
      job.advanceTo(job.now + JobPhysics.TICK_MS);
      ticks++;
      for (int n = 0; n < demand.length; n++) {
        demand[n] += job.data[n].demandIops;
        bytesShare = Math.max(bytesShare, job.data[n].demandBytes / job.data[n].bytesCeiling);
      }
      CheckpointCoordinator c = job.coordinator;
      if (c.lastCompletedId != seenId && c.lastDuration >= 0) {
        seenId = c.lastCompletedId;
        durations.add(c.lastDuration / 1000.0);
      }
    }
    double busiest = 0;
    for (double d : demand) {
      busiest = Math.max(busiest, d / Math.max(1, ticks));
    }
    return new Result(durations.isEmpty() ? Double.MAX_VALUE / 8
        : Probe.quantile(durations, 0.5), busiest, bytesShare);
  }
}
