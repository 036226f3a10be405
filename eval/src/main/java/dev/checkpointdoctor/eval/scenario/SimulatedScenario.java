package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.eval.scenario.ProductionCatalog.Drawn;
import io.vertx.core.json.JsonObject;

/**
 * One scenario of family 1 played straight from the simulator: nothing is written or kept, the
 * samples stream out scrape by scrape.
 */
final class SimulatedScenario implements GeneratedScenario {
  private final ScenarioSpec spec;
  private final long startMs;
  private final long simulationSeed;
  private final ScenarioManifest.Entry truth;

  SimulatedScenario(Drawn drawn, long seed) {
    this.spec = drawn.spec();
    this.startMs = drawn.startMs();
    this.simulationSeed = seed * 31 + spec.name().hashCode();
    long faultStart = spec.fault() == null ? -1
        : startMs + (long) (spec.normalHours() * 3_600_000L);
    ProductionTraits t = spec.traits();
    JsonObject shape = ScenarioGenerator.shape(spec)
        .put("kind", drawn.kind().id())
        .put("dailyAmplitude", round(t.dailyAmplitude()))
        .put("dailyPeakHour", round(t.dailyPeakHour()))
        .put("weekendDip", round(t.weekendDip()))
        .put("growthPerHour", Math.rint(t.growthPerHour() * 1e6) / 1e6) // 1.99 %/h is not 2
        .put("redeployAtHours", t.redeploys() ? round(t.redeployAtHours()) : null)
        .put("parallelismAfter", t.parallelismAfter() > 0 ? t.parallelismAfter() : null)
        .put("intervalAfterSeconds",
            t.intervalAfterSeconds() > 0 ? t.intervalAfterSeconds() : null)
        .put("levelAfter", t.levelAfter() != 1 ? t.levelAfter() : null)
        .put("declinedAtStart", t.declinedAtStart())
        .put("slowCheckpointsPerDay", round(t.slowCheckpointsPerDay()))
        .put("rampMinutes", round(t.rampMinutes()))
        .put("demandRiseAtMs", demandRise(spec, faultStart, simulationSeed));
    this.truth = new ScenarioManifest.Entry(spec.name(), "", spec.name(), spec.expected(),
        faultStart, startMs, startMs + spec.durationMs(), spec.description(), shape);
  }

  @Override
  public ScenarioManifest.Entry truth() {
    return truth;
  }

  ScenarioSpec spec() {
    return spec;
  }

  @Override
  public void play(SampleSink sink) {
    StreamingSamples out = new StreamingSamples(sink);
    new ScenarioSimulator(spec, startMs, simulationSeed, out).run();
    out.finish();
  }

  /**
   * When a burst-credit disk's extra demand began to drain it, or null for other faults and for
   * the corpus' simpler switches.
   */
  private static Long demandRise(ScenarioSpec spec, long faultStart, long simulationSeed) {
    FaultPhysics physics = FaultPhysics.drawn(spec, faultStart, simulationSeed);
    return physics == null || spec.fault() != ScenarioSpec.Fault.DISK_THROTTLING ? null
        : physics.demandRiseAtMs;
  }

  private static double round(double v) {
    return Math.rint(v * 1000) / 1000;
  }
}
