package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.eval.scenario.ScenarioSpec.Control;
import dev.checkpointdoctor.eval.scenario.ScenarioSpec.Fault;
import dev.checkpointdoctor.eval.scenario.ScenarioSpec.RocksDbShape;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Family 1 at production time scale: per seed two jobs per cause (12 h normal, then the fault
 * for 4-6 h), slow compounding state growth at 1-5 %/h, healthy controls over 14 days (daily
 * and weekly load cycles, redeploys, a rescale, a healthy level shift, unaligned checkpoints with
 * heavy tails) and over 16 h at 15 s scrapes, and a job minutes old whose checkpoints become 20
 * times slower in one step. Every deployment shape is drawn from the seed: Flink 1.20.3 or 2.3.0,
 * RocksDB name shape, Kubernetes or bare metal, parallelism 2-16 on 2-4 TaskManagers, scrapes
 * 15-60 s, checkpoint intervals 30 s-5 min.
 */
final class ProductionCatalog {
  static final double NORMAL_HOURS = 12;
  static final double LONG_CONTROL_HOURS = 14 * 24;
  /** 14 days at 15 s replay too slowly for an evaluation run; see docs/ACCURACY.md. */
  static final int LONG_CONTROL_SCRAPE_S = 60;
  private static final long HOUR_MS = 3_600_000L;
  private static final int[] PARALLELISM = {2, 3, 4, 4, 6, 8};
  private static final int[] WIDE = {12, 16};
  private static final int[] SCRAPES = {15, 15, 30, 30, 60};
  private static final int[] INTERVALS = {30, 60, 60, 120, 180, 300};

  /** One drawn scenario: what it simulates, what it tests, when it starts (event time). */
  record Drawn(ScenarioSpec spec, ScenarioKind kind, long startMs) {}

  private final SplittableRandom rng;
  private final FaultStress stress;
  private final HealthStress health;
  private final List<Drawn> out = new ArrayList<>();

  private ProductionCatalog(long seed, FaultStress stress, HealthStress health) {
    this.rng = new SplittableRandom(seed * 0x5DEECE66DL + 11);
    this.stress = stress;
    this.health = health;
  }

  static List<Drawn> all(long seed) {
    return all(seed, FaultStress.NONE);
  }

  /**
   * The corpus of one seed with the fault jobs made milder or slower; every draw is made as for
   * {@link FaultStress#NONE}, so each job keeps its shape and only its fault changes.
   */
  static List<Drawn> all(long seed, FaultStress stress) {
    return all(seed, stress, HealthStress.NONE);
  }

  /**
   * The corpus of one seed with the fault jobs and the healthy controls stressed; every draw is
   * made as for the defaults, so each job keeps its shape and only the stressed part changes.
   */
  static List<Drawn> all(long seed, FaultStress stress, HealthStress health) {
    ProductionCatalog c = new ProductionCatalog(seed, stress, health);
    c.faults();
    c.growth();
    c.controls();
    c.newUser();
    return c.out;
  }

  private void faults() {
    for (Fault f : Fault.values()) {
      for (int v = 0; v < 2; v++) {
        fault(f, v == 0 ? "a" : "b");
      }
    }
  }

  private void fault(Fault f, String variant) {
    boolean b = variant.equals("b");
    Layout l = layout().stressed(stress); // after every draw of the layout: later draws stay put
    boolean k8s = f == Fault.CPU_THROTTLING || l.k8s;
    RocksDbShape shape = f == Fault.GC_PRESSURE && !b ? RocksDbShape.NONE : l.shape;
    boolean unaligned = f == Fault.UNALIGNED_CHECKPOINT_INFLATION;
    boolean incremental = shape != RocksDbShape.NONE && rng.nextDouble() < 0.7;
    double severity = switch (f) {
      case CHECKPOINT_STORAGE_SLOW -> b ? 0.7 : 1.5; // partial: some complete; stuck: none does
      case CPU_THROTTLING -> b ? 0.9 : 1.2; // one TaskManager throttled, or all of them
      default -> uniform(0.95, 1.15);
    } * uniform(0.9, 1.1) * stress.severityScale();
    ProductionTraits traits = everyday(unaligned, 0.25, 0);
    double ramp = rampMinutes(f); // drawn whatever the stress, so later draws stay put
    traits = traits.withRamp(stress.onsetMinutes() > 0 ? stress.onsetMinutes() : ramp);
    if (!stress.none()) {
      traits = traits.withFaultScale(stress.severityScale());
    }
    int interval = l.interval;
    String what = f.causeId().replace('_', ' ');
    if (f == Fault.STATE_GROWTH) {
      incremental = false;
      double rate = uniform(0.02, 0.05);
      interval = Math.max(120, interval);
      traits = everyday(false, 0.15, 0, 0.2).withGrowth(rate)
          .withStorage(0, uniform(0.1, 0.35) * interval);
      what = String.format(java.util.Locale.ROOT, "state grows %.1f %%/h (compounding, full "
          + "snapshots, duration follows the size)", rate * 100);
    }
    if (f == Fault.CHECKPOINT_INTERVAL_TOO_SHORT) {
      // Redeployed (new job_id, savepoint restore) with an interval shorter than its checkpoints
      // take (their duration / 1.5-2.5): they run back to back. Nothing else changes: storage,
      // disk and load are as before. Checkpoints that take a good share of the old interval
      // are the ones an operator shortens it for.
      interval = Math.max(b ? 180 : 120, interval);
      double normal = Math.max(15, uniform(0.15, 0.45) * interval);
      double ratio = uniform(1.5, 2.5);
      ratio = stress.none() ? ratio : 1 + (ratio - 1) * stress.severityScale();
      int shorter = (int) Math.max(10, Math.rint(normal / ratio));
      incremental = false; // full snapshots: a checkpoint takes as long whatever the interval
      traits = traits.withStorage(0, normal).withRedeploy(NORMAL_HOURS, 0, shorter, 1);
      what = "redeployed with a " + shorter + " s interval (was " + interval
          + " s; checkpoints take ~" + Math.round(normal) + " s)";
    }
    double faultHours = f == Fault.STATE_GROWTH ? 8 : uniform(4, 6);
    if (stress.noise() != HealthStress.Noise.GAUSSIAN) {
      traits = traits.withHealthStress(stress.noise(), traits.cycleShape());
    }
    if (stress.loadRise() != 1) {
      traits = traits.withLoadRise(stress.loadRise());
    }
    if (stress.alignedTimeout() && unaligned) {
      traits = traits.withAlignedTimeout();
    }
    if (stress.wanderingInFlight() && unaligned) {
      traits = traits.withWanderingInFlight();
    }
    if (stress.exporterScrapeSeconds() > 0) {
      traits = traits.withExporterEvery(
          (int) Math.max(1, Math.round(stress.exporterScrapeSeconds() / (double) l.scrape)));
    }
    add(f.causeId() + "_" + variant, f.causeId(), f, what, l, k8s, shape, l.scrape, interval,
        incremental, unaligned, NORMAL_HOURS, faultHours, severity, traits, ScenarioKind.FAULT,
        startOfDay());
  }

  /**
   * How long a fault takes to bite fully. Burst credits run out and a CPU limit is hit within
   * minutes; a heap fills, a compaction debt builds and a sink slows down over longer spans.
   */
  private double rampMinutes(Fault f) {
    return switch (f) {
      case DISK_THROTTLING -> uniform(1, 3);
      case GC_PRESSURE -> uniform(10, 40);
      case ROCKSDB_WRITE_STALL -> uniform(5, 20);
      case CPU_THROTTLING -> uniform(1, 10);
      case BACKPRESSURE, UNALIGNED_CHECKPOINT_INFLATION -> uniform(1, 20);
      case DATA_SKEW -> uniform(1, 15);
      case CHECKPOINT_INTERVAL_TOO_SHORT, CHECKPOINT_STORAGE_SLOW -> uniform(2, 10);
      case STATE_GROWTH -> 0;
    };
  }

  /** Slow growth across 1-5 %/h, one job per percent band. */
  private void growth() {
    for (int band = 1; band <= 4; band++) {
      Layout l = layout();
      double rate = (band + rng.nextDouble()) / 100;
      int interval = Math.max(120, l.interval);
      boolean incremental = band == 3 && l.shape != RocksDbShape.NONE;
      ProductionTraits traits = everyday(false, 0.15, 0, 0.2).withGrowth(rate)
          .withStorage(0, uniform(0.1, 0.35) * interval);
      String what = String.format(java.util.Locale.ROOT, "state grows %.1f %%/h (compounding, "
          + "%s snapshots, duration follows the size)", rate * 100,
          incremental ? "incremental" : "full");
      add("growth_" + band + "pct", Fault.STATE_GROWTH.causeId(), Fault.STATE_GROWTH, what, l,
          l.k8s, l.shape, l.scrape, interval, incremental, false, NORMAL_HOURS, 8, 1, traits,
          ScenarioKind.GROWTH, startOfDay());
    }
  }

  private void controls() {
    long monday = ScenarioGenerator.START_MS;
    double days = LONG_CONTROL_HOURS / 24;
    int p0;
    // daily and weekly cycle, an isolated slow checkpoint now and then
    Layout l = layout();
    control("healthy_cycle", l, false, everyday(false, 0.5, uniform(0.3, 0.5)),
        "daily (+-" + "30-50 %) and weekly load cycle, weekend lower", LONG_CONTROL_HOURS,
        LONG_CONTROL_SCRAPE_S, monday);
    l = layout();
    control("healthy_redeploy", l, false, everyday(false, 0.5, uniform(0.2, 0.5))
            .withRedeploy(uniform(4, days - 4) * 24, 0, 0, 1),
        "resubmitted under a new job_id mid-run, load cycles", LONG_CONTROL_HOURS,
        LONG_CONTROL_SCRAPE_S, monday);
    l = layout();
    p0 = l.p;
    int p1 = p0 <= 3 ? p0 * 2 : Math.max(2, p0 / 2);
    control("healthy_rescale", l, false, everyday(false, 0.5, uniform(0.2, 0.5))
            .withRedeploy(uniform(4, days - 4) * 24, p1, 0, 1),
        "redeployed with parallelism " + p0 + " -> " + p1 + ", load cycles",
        LONG_CONTROL_HOURS, LONG_CONTROL_SCRAPE_S, monday);
    l = layout();
    control("healthy_new_normal", l, false, everyday(false, 0.5, uniform(0.2, 0.5))
            .withRedeploy(uniform(3, days - 5) * 24, 0, 0, 1.4),
        "after a redeploy state and duration settle 40 % higher and stay (new normal)",
        LONG_CONTROL_HOURS, LONG_CONTROL_SCRAPE_S, monday);
    l = layout();
    control("healthy_unaligned", l, true, everyday(true, 0.5, uniform(0.2, 0.5)),
        "unaligned checkpoints: in-flight data varies naturally with heavy tails, load cycles",
        LONG_CONTROL_HOURS, LONG_CONTROL_SCRAPE_S, monday);
    // the independent evaluation's shape: 16 h at 15 s
    l = layout();
    control("healthy_declined_start", l, false, everyday(false, 0.4, 0).withRedeploy(
            uniform(6, 10), 0, 0, 1).withStart(2 + rng.nextInt(2), 2, false),
        "first checkpoints declined at start and after a redeploy mid-run, daily cycle",
        16, 15, startOfDay());
    l = layout();
    control("healthy_unaligned_15s", l, true, everyday(true, 0.4, 0),
        "unaligned checkpoints with heavy-tailed in-flight data, daily cycle", 16, 15,
        startOfDay());
  }

  private void control(String name, Layout l, boolean unaligned, ProductionTraits traits,
      String what, double hours, int scrape, long startMs) {
    boolean incremental = l.shape != RocksDbShape.NONE && rng.nextDouble() < 0.7;
    if (!health.none()) {
      scrape = health.scrapeSeconds() > 0 ? health.scrapeSeconds() : scrape;
      traits = traits.withHealthStress(health.noise(), health.cycle());
    }
    int interval = health.intervalSeconds() > 0 ? health.intervalSeconds() : l.interval;
    add(name, ScenarioManifest.HEALTHY, null, what, l, l.k8s, l.shape,
        scrape, interval, incremental, unaligned, hours, 0, 1, traits, ScenarioKind.HEALTHY,
        startMs);
  }

  /**
   * A new user's first look: checkpoints become 20 times slower in one step (uploads, size
   * flat) two minutes after the job's first start, and again for a job 30-45 minutes old (old
   * enough for baselines, younger than any long evidence window). The right answer is not
   * state growth, and no evidence may quote a window older than the job.
   */
  private void newUser() {
    youngJob("new_user_step", 2.0 / 60, "a 2-minute-old job");
    youngJob("young_job_step", uniform(0.5, 0.75), "a job 30-45 minutes old");
  }

  private void youngJob(String name, double normalHours, String who) {
    Layout l = layout();
    int interval = 30 + 30 * rng.nextInt(2);
    ProductionTraits traits = ProductionTraits.NONE.withStorage(20, uniform(3, 15));
    add(name, Fault.CHECKPOINT_STORAGE_SLOW.causeId(), Fault.CHECKPOINT_STORAGE_SLOW, who
            + " whose checkpoints become 20x slower in one step (storage), size flat: not state "
            + "growth", l, l.k8s, l.shape, 15, interval, true, false, normalHours, 4, 1, traits,
        ScenarioKind.NEW_USER, startOfDay());
  }

  /**
   * What every production job has: a daily cycle the state partly follows, an occasional slow
   * checkpoint, often a few checkpoints declined at start.
   */
  private ProductionTraits everyday(boolean unaligned, double maxAmplitude, double weekendDip) {
    return everyday(unaligned, maxAmplitude, weekendDip, 0.6);
  }

  /**
   * @param maxCoupling how much of the load cycle the state may follow at most (growth jobs keep
   *     it small: a state swinging with the day has hours of "growth" every morning)
   */
  private ProductionTraits everyday(boolean unaligned, double maxAmplitude, double weekendDip,
      double maxCoupling) {
    double amplitude = maxAmplitude <= 0.25 ? uniform(0, maxAmplitude)
        : uniform(0.3, maxAmplitude);
    int declined = rng.nextDouble() < 0.5 ? 1 + rng.nextInt(3) : 0;
    return ProductionTraits.NONE
        .withCycle(amplitude, uniform(10, 20), weekendDip, uniform(0, maxCoupling))
        .withStart(declined, uniform(0.5, 3), unaligned);
  }

  private void add(String name, String expected, Fault fault, String description, Layout l,
      boolean k8s, RocksDbShape shape, int scrape, int interval, boolean incremental,
      boolean unaligned, double normalHours, double faultHours, double severity,
      ProductionTraits traits, ScenarioKind kind, long startMs) {
    String text = String.format(java.util.Locale.ROOT, "%s; Flink %s, %s, %s, parallelism %d on "
            + "%d TaskManagers, scrape %d s, interval %d s", description, l.version,
        shape == RocksDbShape.NONE ? "heap state backend"
            : shape == RocksDbShape.COLUMN_FAMILY_LABEL ? "RocksDB column_family label"
            : "RocksDB per-state names", k8s ? "Kubernetes" : "bare metal", l.p,
        (l.p + l.slots - 1) / l.slots, scrape, interval);
    ScenarioSpec spec = new ScenarioSpec(name, expected, fault, text, l.version, shape,
        k8s, l.p, l.slots, scrape, interval, l.stateBytes, l.records, l.noise, incremental,
        unaligned, normalHours, faultHours, severity, Control.NONE, traits);
    out.add(new Drawn(spec, kind, startMs));
  }

  /** A start on the first Monday at a random minute, so faults begin at any time of day. */
  private long startOfDay() {
    return ScenarioGenerator.START_MS + rng.nextInt(24 * 60) * 60_000L;
  }

  private double uniform(double lo, double hi) {
    return lo + (hi - lo) * rng.nextDouble();
  }

  private Layout layout() {
    return new Layout(rng);
  }

  /** A deployment shape drawn from the seed. */
  private static final class Layout {
    final String version;
    final RocksDbShape shape;
    final boolean k8s;
    final int p;
    final int slots;
    final int scrape;
    final int interval;
    final double stateBytes;
    final double records;
    final double noise;

    private Layout(Layout o, int scrape, int interval, int p, int slots) {
      version = o.version;
      shape = o.shape;
      k8s = o.k8s;
      this.p = p;
      this.slots = slots;
      this.scrape = scrape;
      this.interval = interval;
      stateBytes = o.stateBytes;
      records = o.records;
      noise = o.noise;
    }

    /** This shape with a fault stress' scrape, interval and parallelism where it sets them. */
    Layout stressed(FaultStress s) {
      if (s.scrapeSeconds() == 0 && s.intervalSeconds() == 0 && s.parallelism() == 0) {
        return this;
      }
      int p = s.parallelism() > 0 ? s.parallelism() : this.p;
      int tms = Math.min(p, (this.p + slots - 1) / slots);
      return new Layout(this, s.scrapeSeconds() > 0 ? s.scrapeSeconds() : scrape,
          s.intervalSeconds() > 0 ? s.intervalSeconds() : interval, p, (p + tms - 1) / tms);
    }

    Layout(SplittableRandom rng) {
      version = rng.nextBoolean() ? "1.20.3" : "2.3.0";
      shape = rng.nextBoolean() ? RocksDbShape.COLUMN_FAMILY_LABEL : RocksDbShape.PER_STATE_NAME;
      k8s = rng.nextBoolean();
      p = rng.nextDouble() < 0.15 ? WIDE[rng.nextInt(WIDE.length)]
          : PARALLELISM[rng.nextInt(PARALLELISM.length)];
      int tms = Math.min(p, 2 + rng.nextInt(3));
      slots = (p + tms - 1) / tms;
      scrape = SCRAPES[rng.nextInt(SCRAPES.length)];
      interval = INTERVALS[rng.nextInt(INTERVALS.length)];
      stateBytes = Math.pow(10, 8.5 + 2 * rng.nextDouble());
      records = Math.rint(Math.pow(10, 3 + 2 * rng.nextDouble()));
      noise = 0.03 + 0.1 * rng.nextDouble();
    }
  }
}
