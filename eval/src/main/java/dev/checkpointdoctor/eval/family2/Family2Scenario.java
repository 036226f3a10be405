package dev.checkpointdoctor.eval.family2;

import dev.checkpointdoctor.eval.family2.JobPlan.FaultPlan;
import dev.checkpointdoctor.eval.scenario.GeneratedScenario;
import dev.checkpointdoctor.eval.scenario.ScenarioManifest;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.SplittableRandom;

/**
 * One family-2 job, played on demand. Its truth is known before it is played, except for a
 * burst-credit disk, whose fault starts when the credits run out: that moment is found by
 * running the physics alone (no scraping) until the bucket of a volume is empty, which gives
 * the same instant as the played history since the physics does not depend on the scrapes.
 */
final class Family2Scenario implements GeneratedScenario {
  private final JobDraft draft;
  private String description;
  private JobPlan plan;
  private long faultStartMs = Long.MIN_VALUE;

  /** Built lazily: drawing the corpus is cheap, sizing a job needs a pilot run. */
  Family2Scenario(JobDraft draft) {
    this.draft = draft;
  }

  /** The scenario's name, known without building it. */
  String name() {
    return draft.name;
  }

  /** The Flink job_name, known without building it. */
  String jobName() {
    return draft.jobName;
  }

  JobPlan plan() {
    resolve();
    return plan;
  }

  @Override
  public ScenarioManifest.Entry truth() {
    resolve();
    return new ScenarioManifest.Entry(plan.name(), "", plan.jobName(), plan.expected(),
        faultStartMs, plan.startMs(), plan.endMs(), description, Shape.of(plan, faultStartMs));
  }

  @Override
  public void play(SampleSink sink) {
    play(sink, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * Plays the whole history but hands over only the samples stamped within [fromMs, toMs]: the
   * physics still runs from the start (a slice has the state it would have in the full history).
   */
  void play(SampleSink sink, long fromMs, long toMs) {
    resolve();
    JobPhysics job = new JobPhysics(plan);
    new Scraper(job, new SplittableRandom(plan.seed() ^ 0x5CA1AB1EL)).play(sink, fromMs, toMs);
  }

  private synchronized void resolve() {
    if (plan != null) {
      return;
    }
    JobPlan planned = draft.build();
    description = Descriptions.of(draft);
    FaultPlan primary = planned.primary();
    if (primary == null) {
      plan = planned;
      faultStartMs = -1;
      return;
    }
    if (!primary.cause().equals(Faults.DISK)) {
      plan = planned;
      faultStartMs = primary.startMs();
      return;
    }
    placeDemandRise(planned, primary);
  }

  /**
   * A burst-credit disk fault is planned by when the credits should run out ({@code
   * primary.startMs()}); the demand has to rise earlier, by as long as the bucket lasts. The
   * rise is placed by a first guess, then corrected by the error of the exhaustion the physics
   * gives (the physics before the rise does not depend on when it comes, so the exhaustion moves
   * with it), at most four times.
   */
  private void placeDemandRise(JobPlan planned, FaultPlan primary) {
    // aim a little after the planned start: within the tolerance, never before it
    long target = primary.startMs() + 12 * 60_000L;
    long earliest = planned.startMs() + 3_600_000L;
    JobPhysics probe = new JobPhysics(planned);
    long rise = Math.max(earliest, target - probe.sizing.drainEstimateMs(primary.severity())
        - primary.rampMs() / 2);
    JobPlan candidate = withPrimaryStart(planned, rise);
    long exhausted = creditsRunOut(candidate);
    for (int i = 0; i < 4 && Math.abs(target - exhausted) > 10 * 60_000L; i++) {
      long next = Math.max(earliest, rise + (target - exhausted));
      if (next == rise) {
        break;
      }
      rise = next;
      candidate = withPrimaryStart(planned, rise);
      exhausted = creditsRunOut(candidate);
    }
    long faultLength = planned.endMs() - primary.startMs();
    plan = new JobPlan(candidate.name(), candidate.jobName(), candidate.expected(),
        candidate.control(), candidate.seed(), candidate.startMs(), exhausted + faultLength,
        candidate.cluster(), candidate.workload(), candidate.checkpointing(), candidate.scrape(),
        candidate.noise(), candidate.faults(), candidate.incidents(), candidate.lifecycle());
    faultStartMs = exhausted;
  }

  private static JobPlan withPrimaryStart(JobPlan p, long startMs) {
    java.util.List<FaultPlan> faults = new java.util.ArrayList<>(p.faults());
    FaultPlan f = faults.get(0);
    faults.set(0, new FaultPlan(f.cause(), startMs, f.ramp(), f.rampMs(), f.severity(),
        f.variant()));
    return new JobPlan(p.name(), p.jobName(), p.expected(), p.control(), p.seed(), p.startMs(),
        p.endMs(), p.cluster(), p.workload(), p.checkpointing(), p.scrape(), p.noise(), faults,
        p.incidents(), p.lifecycle());
  }

  /** First tick, after the demand started rising, at which a data volume has no credit left. */
  static long creditsRunOut(JobPlan plan) {
    JobPhysics job = new JobPhysics(plan);
    long rise = plan.primary().startMs();
    long limit = plan.endMs() + 48 * 3_600_000L;
    while (job.now < limit) {
      job.advanceTo(job.now + JobPhysics.TICK_MS);
      if (job.now < rise) {
        continue;
      }
      for (DiskVolume v : job.data) {
        if (v.bursts() && v.credits() <= 0) {
          return job.now;
        }
      }
    }
    throw new IllegalStateException(plan.name() + ": the volume never ran out of credits");
  }

  /** The manifest's {@code shape}: what a reader needs to know about how the job was built. */
  static final class Shape {
    private Shape() {}

    static JsonObject of(JobPlan p, long faultStartMs) {
      JobPlan.Cluster c = p.cluster();
      JsonObject o = new JsonObject()
          .put("family", "family2")
          .put("flinkVersion", c.version().id)
          .put("layout", c.layout().name().toLowerCase(java.util.Locale.ROOT))
          .put("kubernetes", c.layout().kubernetes())
          .put("diskJoinable", c.layout().diskJoinable())
          .put("containerJoinable", c.layout().containerJoinable())
          .put("stateBackend", c.backend().name().toLowerCase(java.util.Locale.ROOT))
          .put("rocksdbMetrics", c.rocksShape().name().toLowerCase(java.util.Locale.ROOT))
          .put("parallelism", c.parallelism())
          .put("taskManagers", c.taskManagers())
          .put("nodes", c.nodes())
          .put("volume", c.volumeKind().name().toLowerCase(java.util.Locale.ROOT))
          .put("scrapeIntervalSeconds", p.scrape().flinkSeconds())
          .put("nodeScrapeIntervalSeconds", p.scrape().nodeSeconds())
          .put("kubeletScrapeIntervalSeconds", p.scrape().kubeletSeconds())
          .put("checkpointIntervalSeconds", p.checkpointing().intervalMs() / 1000)
          .put("incremental", p.checkpointing().incremental())
          .put("unaligned", p.checkpointing().unaligned())
          .put("recordsPerSecond", Math.round(p.workload().recordsPerSecond()))
          .put("stateBytes", Math.round(p.workload().stateBytes()))
          .put("dailyAmplitude", round(p.workload().dailyAmplitude()))
          .put("noise", new JsonObject()
              .put("model", "AR(1) with Student-t innovations, regime shifts, scrape failures")
              .put("sigma", round(p.noise().sigma()))
              .put("correlationSeconds", Math.round(p.noise().correlationSeconds()))
              .put("studentNu", p.noise().nu())
              .put("regimesPerHour", round(p.noise().regimesPerHour()))
              .put("failedScrapeRate", p.scrape().failedScrapeRate()));
      if (p.control() != null) {
        o.put("control", p.control());
      }
      if (!p.faults().isEmpty()) {
        FaultPlan f = p.primary();
        o.put("ramp", f.ramp().id())
            .put("rampMinutes", f.rampMs() / 60_000)
            .put("severity", round(f.severity()))
            .put("mechanism", f.variant());
        if (f.cause().equals(Faults.DISK)) {
          o.put("faultMeaning", "the volume's burst credits ran out (IOPS at the baseline)")
              .put("demandRiseAt", Instant.ofEpochMilli(f.startMs()).toString());
        }
        if (p.faults().size() > 1) {
          FaultPlan s = p.faults().get(1);
          o.put("alsoPresent", s.cause())
              .put("alsoPresentStart", Instant.ofEpochMilli(s.startMs()).toString())
              .put("alsoPresentMechanism", s.variant());
        }
      }
      io.vertx.core.json.JsonArray events = new io.vertx.core.json.JsonArray();
      for (JobPlan.Lifecycle l : p.lifecycle()) {
        JsonObject e = new JsonObject()
            .put("kind", l.kind().name().toLowerCase(java.util.Locale.ROOT))
            .put("at", Instant.ofEpochMilli(l.atMs()).toString());
        if (l.parallelism() > 0) {
          e.put("parallelism", l.parallelism());
        }
        if (l.intervalMs() > 0) {
          e.put("checkpointIntervalSeconds", l.intervalMs() / 1000);
        }
        events.add(e);
      }
      if (!events.isEmpty()) {
        o.put("lifecycle", events);
      }
      return o;
    }

    private static double round(double v) {
      return Math.round(v * 1000) / 1000.0;
    }
  }
}
