package dev.checkpointdoctor.eval.family2;

import static dev.checkpointdoctor.eval.family2.CorpusPlanner.HOUR;
import static dev.checkpointdoctor.eval.family2.CorpusPlanner.MINUTE;

import dev.checkpointdoctor.eval.family2.JobPlan.FaultPlan;
import dev.checkpointdoctor.eval.family2.JobPlan.Lifecycle;

/**
 * The healthy controls: things production jobs do every day that are not faults, each of which
 * moves some signal a naive detector would flag.
 */
final class Controls {
  private Controls() {}

  static void configure(JobDraft d, String control) {
    d.control = control;
    d.expected = "healthy";
    d.endMs = d.startMs + (long) (Noise.uniform(d.rng, 16, 20) * HOUR);
    switch (control) {
      case "daily_cycle" -> {
        d.dailyAmplitude = Noise.uniform(d.rng, 0.35, 0.55);
        d.endMs = d.startMs + 40 * HOUR;
        d.flinkScrape = Math.max(30, d.flinkScrape);
      }
      case "weekly_cycle" -> {
        d.startMs = CorpusPlanner.friday(d.startMs);
        d.endMs = d.startMs + 4 * 24 * HOUR;
        d.weekendFactor = Noise.uniform(d.rng, 0.35, 0.6);
        d.dailyAmplitude = Noise.uniform(d.rng, 0.1, 0.3);
        d.flinkScrape = 60;
        d.nodeScrape = 60;
        d.kubeletScrape = 60;
        if (d.parallelism > 4) {
          d.parallelism(4);
        }
      }
      case "redeploy" -> d.lifecycle.add(new Lifecycle(Lifecycle.Kind.REDEPLOY,
          at(d, 11, 14), 0, 0, (long) (Noise.uniform(d.rng, 40, 150) * 1000)));
      case "rescale" -> {
        int p = d.parallelism <= 8 ? d.parallelism * 2 : d.parallelism / 2;
        d.lifecycle.add(new Lifecycle(Lifecycle.Kind.RESCALE, at(d, 11, 14), p, 0,
            (long) (Noise.uniform(d.rng, 10, 40) * 1000)));
      }
      case "submitted_declined_first" -> {
        d.intervalMs = d.rng.nextBoolean() ? 30_000 : 60_000;
        d.minPauseMs = 0;
        d.lifecycle.add(new Lifecycle(Lifecycle.Kind.SUBMIT, at(d, 1, 3), 0, 0, 0));
      }
      case "unaligned_variance" -> {
        d.unaligned = true;
        d.peakUtilization = Noise.uniform(d.rng, 0.6, 0.75);
        d.sigma = Math.max(d.sigma, 0.08);
        if (d.parallelism < 4) {
          d.parallelism(4);
        }
      }
      case "isolated_slow_checkpoints" -> {
        int n = 2 + d.rng.nextInt(2);
        for (int k = 0; k < n; k++) {
          double severity = k == 0 ? 0.9 : Noise.uniform(d.rng, 0.2, 0.6);
          d.incidents.add(new FaultPlan("incident", at(d, 2, 15), Ramp.STEP, d.intervalMs,
              severity, k == 0 ? "upload_hang" : "slow_upload"));
        }
        d.incidents.sort((a, b) -> Long.compare(a.startMs(), b.startMs()));
      }
      case "slow_drift" -> d.driftPerHour = Noise.uniform(d.rng, 0.003, 0.012);
      case "shorter_interval_that_fits" -> {
        d.intervalMs = (d.rng.nextBoolean() ? 180 : 300) * 1000L;
        d.fixedSeconds = Noise.logUniform(d.rng, 0.2, 1.0);
        d.lifecycle.add(new Lifecycle(Lifecycle.Kind.REDEPLOY, at(d, 11, 13), 0,
            (d.rng.nextBoolean() ? 60 : 90) * 1000L, (long) (Noise.uniform(d.rng, 30, 90)
                * 1000)));
      }
      case "taskmanager_lost" -> {
        if (d.taskManagers < 2) {
          d.parallelism(Math.max(4, d.parallelism));
          d.taskManagers = Math.max(2, d.taskManagers);
          d.nodes = Math.max(d.nodes, 2);
        }
        d.lifecycle.add(new Lifecycle(Lifecycle.Kind.TM_LOST, at(d, 10, 14), 0, 0,
            (long) (Noise.uniform(d.rng, 50, 120) * 1000)));
      }
      case "standalone_layout" -> d.layout = Layout.Kind.K8S_STANDALONE;
      default -> throw new IllegalArgumentException(control);
    }
  }

  private static long at(JobDraft d, double fromHour, double toHour) {
    return d.startMs + (long) (Noise.uniform(d.rng, fromHour, toHour) * 60) * MINUTE;
  }
}
