package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.JobGraph.Role;
import dev.checkpointdoctor.eval.family2.JobGraph.Vertex;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Steady-state flow through a pipeline with credit-based back-pressure, one tick at a time: the
 * job moves as many records as its tightest subtask allows ({@code capacity / share}); that
 * subtask is busy all the time, every task upstream of it waits for buffers (back-pressured) and
 * its input queues are full, everything downstream idles. Below saturation queues are nearly
 * empty and back-pressure is only the short bursts of a nearly busy pipeline.
 */
final class Flow {
  /** Share of the way to its target the buffer fill goes in one tick (15 s time constant). */
  static final double FILL_ALPHA = 1 - Math.exp(-JobPhysics.TICK_S / 15);

  private Flow() {}

  /**
   * Solves one tick and fills the deployment's flow arrays.
   *
   * @param offered records per second the sources would read (load plus catch-up)
   * @param jitter per-vertex multiplicative noise on the utilization (busy time)
   * @return records per second the sources actually read
   */
  static double solve(Deployment d, List<Vertex> graph, double offered, double[] jitter,
      SplittableRandom rng) {
    int vertices = graph.size();
    int p = d.parallelism;
    double x = offered;
    int bv = -1;
    int bi = -1;
    for (int v = 0; v < vertices; v++) {
      Vertex vx = graph.get(v);
      for (int i = 0; i < p; i++) {
        double demandPerRecord = d.share[v][i] * vx.selectivity();
        if (demandPerRecord <= 0) {
          continue;
        }
        double limit = d.capacity[v][i] / demandPerRecord;
        if (limit < x) {
          x = limit;
          bv = v;
          bi = i;
        }
      }
    }
    double maxU = 0;
    int mv = 0;
    for (int v = 0; v < vertices; v++) {
      for (int i = 0; i < p; i++) {
        double u = d.capacity[v][i] > 0
            ? x * d.share[v][i] * graph.get(v).selectivity() / d.capacity[v][i] : 1;
        d.utilization[v][i] = Math.min(1, u);
        if (u > maxU) {
          maxU = u;
          mv = v;
        }
      }
    }
    if (bv < 0) {
      bv = mv;
    }
    // binding: the bottleneck is saturated and holds the sources back; near saturation the
    // pipeline is back-pressured in bursts
    double binding = x < offered * 0.995 ? 1 : smooth((maxU - 0.9) / 0.1) * 0.35;
    for (int v = 0; v < vertices; v++) {
      Vertex vx = graph.get(v);
      for (int i = 0; i < p; i++) {
        double u = d.utilization[v][i];
        double busy = Math.min(1000, Math.max(0, 1000 * u * jitter[v]
            + 6 * Noise.studentT(rng, 4)));
        boolean saturated = v == bv && (i == bi || u >= 0.97);
        if (saturated && binding >= 1) {
          busy = Math.max(busy, 985 + 15 * rng.nextDouble());
        }
        d.busy[v][i] = busy;
        double bp;
        if (v < bv) {
          bp = binding * (1000 - busy) * (0.94 + 0.05 * rng.nextDouble());
        } else {
          bp = 0;
        }
        bp += Math.abs(3 * Noise.studentT(rng, 3)) * (0.2 + u);
        d.backpressure[v][i] = Math.min(1000 - Math.min(busy, 999), Math.max(0, bp));
        d.recordsIn[v][i] = vx.role() == Role.SOURCE ? 0 : x * d.share[v][i] * vx.selectivity();
        double base = 0.01 + 0.12 * u * u * u + 0.01 * rng.nextDouble();
        double full;
        if (v == 0) {
          full = 0;
        } else if (v < bv) {
          full = binding;
        } else if (v == bv) {
          full = saturated ? binding : 0;
        } else {
          full = 0;
        }
        // buffers fill and drain over seconds, not at once: a blip does not fill them
        double target = Math.min(1, Math.max(base, full * (0.9 + 0.1 * rng.nextDouble())));
        d.fill[v][i] += (target - d.fill[v][i]) * FILL_ALPHA;
      }
    }
    return x;
  }

  /** Records per second the job would move with these capacities (no side effects). */
  static double limit(Deployment d, List<Vertex> graph, double offered) {
    double x = offered;
    for (int v = 0; v < graph.size(); v++) {
      double sel = graph.get(v).selectivity();
      for (int i = 0; i < d.parallelism; i++) {
        double perRecord = d.share[v][i] * sel;
        if (perRecord > 0) {
          x = Math.min(x, d.capacity[v][i] / perRecord);
        }
      }
    }
    return x;
  }

  private static double smooth(double z) {
    double c = Math.max(0, Math.min(1, z));
    return c * c * (3 - 2 * c);
  }
}
