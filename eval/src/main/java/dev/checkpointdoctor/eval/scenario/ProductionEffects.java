package dev.checkpointdoctor.eval.scenario;

import java.util.SplittableRandom;

/**
 * The production traits of one simulated job, as numbers the simulator multiplies in: the load
 * cycle of the day and the week, the state that follows it, compounding growth, the in-flight
 * data of unaligned checkpoints and the odd slow checkpoint. Draws from a random stream of its
 * own so a job without traits is simulated exactly as before.
 */
final class ProductionEffects {
  private static final double DAY_MS = 86_400_000.0;
  private static final double HOUR_MS = 3_600_000.0;
  /** Hours over which the weekend dip fades in before Saturday and out after Sunday. */
  private static final double WEEKEND_RAMP_H = 4;
  /** Share of unaligned checkpoints that hit a burst of in-flight data. */
  private static final double BURST_SHARE = 0.04;

  private final ProductionTraits traits;
  private final SplittableRandom rng;
  private final double inFlightPerSubtask;

  ProductionEffects(ProductionTraits traits, long seed) {
    this.traits = traits;
    this.rng = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
    this.inFlightPerSubtask = 0.3e6 * Math.pow(10, rng.nextDouble());
  }

  ProductionTraits traits() {
    return traits;
  }

  /** Load multiplier of the day and the week at event time {@code t} (mean about 1 on weekdays). */
  double cycle(long t) {
    double hour = (t % (long) DAY_MS) / HOUR_MS;
    double x = 2 * Math.PI * (hour - traits.dailyPeakHour() + 6) / 24;
    // a peak in the working day and a shallower trough at night: two harmonics
    double shape = 0.85 * Math.sin(x) - 0.15 * Math.cos(2 * x);
    if (traits.cycleShape() == HealthStress.Cycle.STEEP) {
      // flattened top and bottom: the morning climb and the evening drop take about 1.5 h
      shape = Math.tanh(6 * shape) / Math.tanh(6);
    }
    double daily = 1 + traits.dailyAmplitude() * shape;
    return daily * (1 - traits.weekendDip() * weekendness(t));
  }

  /** 1 on Saturday and Sunday, 0 Monday to Friday, ramping in between. */
  static double weekendness(long t) {
    double days = Math.floorMod(t, (long) (7 * DAY_MS)) / DAY_MS;
    // the epoch (1970-01-01) was a Thursday: day 2 of the epoch week is Saturday 00:00
    double sinceSaturday = days - 2;
    double hoursIn = sinceSaturday * 24;
    if (hoursIn >= 0 && hoursIn < 48) {
      return 1;
    }
    double before = -hoursIn; // hours until Saturday 00:00
    if (before > 0 && before <= WEEKEND_RAMP_H) {
      return 1 - before / WEEKEND_RAMP_H;
    }
    double after = hoursIn - 48; // hours since Monday 00:00
    if (after >= 0 && after <= WEEKEND_RAMP_H) {
      return 1 - after / WEEKEND_RAMP_H;
    }
    return 0;
  }

  /** Factor on the full state: the cycle it follows, growth since the fault, the redeploy level. */
  double stateFactor(long t, long growthStartMs, boolean redeployed) {
    double f = 1;
    if (traits.stateLoadCoupling() > 0) {
      f *= 1 + traits.stateLoadCoupling() * (cycle(t) - 1);
    }
    if (traits.growthPerHour() > 0 && t >= growthStartMs) {
      f *= Math.pow(1 + traits.growthPerHour(), (t - growthStartMs) / HOUR_MS);
    }
    if (redeployed) {
      f *= traits.levelAfter();
    }
    return f;
  }

  /**
   * In-flight bytes an unaligned checkpoint persists without back-pressure: a few MB that follow
   * the load, log-normal around it, and now and then a burst of tens of times more.
   */
  double inFlight(int parallelism, double load) {
    double v = parallelism * inFlightPerSubtask * Math.pow(load, 1.5)
        * Math.exp(0.6 * gaussian());
    if (rng.nextDouble() < BURST_SHARE) {
      v *= Math.min(40, Math.pow(1 - rng.nextDouble(), -1 / 1.3));
    }
    return v;
  }

  /**
   * The duration of a checkpoint triggered now: now and then one upload is retried and the
   * checkpoint takes several times as long (it still completes).
   */
  double maybeSlow(double durationMs, long intervalMs, long timeoutMs) {
    if (traits.slowCheckpointsPerDay() <= 0) {
      return durationMs;
    }
    double p = traits.slowCheckpointsPerDay() * intervalMs / DAY_MS;
    if (rng.nextDouble() >= p) {
      return durationMs;
    }
    double slow = durationMs * (3 + 5 * rng.nextDouble()) + 5_000 + 25_000 * rng.nextDouble();
    return Math.min(slow, 0.8 * timeoutMs);
  }

  private double gaussian() {
    double u = 1 - rng.nextDouble();
    double v = rng.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
