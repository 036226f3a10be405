package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.time.Instant;
import java.util.List;

/**
 * A developer's look at family 1 jobs of a train seed: the truth, then every timeline event from
 * an hour (or {@code --lookback-hours H}) before the fault on, evidence included. For tuning the
 * cause rules on the train seeds; the held-out seeds are refused.
 *
 * <pre>java -cp api/target/checkpoint-doctor.jar dev.checkpointdoctor.eval.scenario.Family1Replay
 *     --seed 1 --only disk_throttling_a[,...] [--severity-scale X] [--onset-minutes M]
 *     [--scrape-seconds S] [--interval-seconds I] [--parallelism P]
 *     [--exporter-scrape-seconds E] [--noise gaussian|heavy|ar|slow] [--load-rise F] [--aligned-timeout]
 *     [--in-flight-wander] [--lookback-hours H]</pre>
 *
 * <p>{@code --severity-scale}, {@code --onset-minutes}, {@code --scrape-seconds},
 * {@code --interval-seconds}, {@code --parallelism}, {@code --exporter-scrape-seconds},
 * {@code --noise}, {@code --load-rise}, {@code --aligned-timeout} and
 * {@code --in-flight-wander} stress the fault jobs as {@code accuracy} does ({@link FaultStress}).
 */
public final class Family1Replay {
  private Family1Replay() {}

  public static void main(String[] args) {
    long seed = 1;
    List<String> only = List.of();
    String probe = null;
    double scale = 1;
    double onset = 0;
    int scrape = 0;
    int interval = 0;
    int parallelism = 0;
    int exporterScrape = 0;
    HealthStress.Noise noise = HealthStress.Noise.GAUSSIAN;
    double loadRise = 1;
    boolean alignedTimeout = false;
    boolean wanderingInFlight = false;
    double lookbackHours = 1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--only" -> only = List.of(args[++i].split(","));
        case "--probe" -> probe = args[++i];
        case "--severity-scale" -> scale = Double.parseDouble(args[++i]);
        case "--onset-minutes" -> onset = Double.parseDouble(args[++i]);
        case "--scrape-seconds" -> scrape = Integer.parseInt(args[++i]);
        case "--interval-seconds" -> interval = Integer.parseInt(args[++i]);
        case "--parallelism" -> parallelism = Integer.parseInt(args[++i]);
        case "--exporter-scrape-seconds" -> exporterScrape = Integer.parseInt(args[++i]);
        case "--noise" -> noise = HealthStress.noise(args[++i]);
        case "--load-rise" -> loadRise = Double.parseDouble(args[++i]);
        case "--aligned-timeout" -> alignedTimeout = true;
        case "--in-flight-wander" -> wanderingInFlight = true;
        case "--lookback-hours" -> lookbackHours = Double.parseDouble(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (!EvaluationSeeds.TRAIN.contains(seed)) {
      throw new IllegalArgumentException("seed " + seed + " is not a train seed");
    }
    for (GeneratedScenario s : new Family1(new FaultStress(scale, onset, scrape, interval,
        parallelism, exporterScrape, noise, loadRise, alignedTimeout, wanderingInFlight))
        .scenarios(seed)) {
      String name = s.truth().name();
      if (!only.isEmpty() && only.stream().noneMatch(name::startsWith)) {
        continue;
      }
      ScenarioManifest.Entry t = s.truth();
      System.out.printf("== %s expected=%s fault=%s%n   %s%n", name, t.expected(),
          t.faultStartMs() < 0 ? "-" : Instant.ofEpochMilli(t.faultStartMs()), t.description());
      if (probe != null) {
        String name0 = probe;
        long[] next = {0};
        s.play((labels, ts, value) -> {
          if (labels.get("__name__").startsWith(name0) && ts >= t.faultStartMs() - 4 * 3_600_000L
              && ts <= t.faultStartMs() + 3_600_000L) {
            System.out.println(Instant.ofEpochMilli(ts) + " " + labels + " " + value);
          }
        });
        continue;
      }
      OfflineReplay replay = new OfflineReplay(DetectorSettings.defaults());
      replay.replay(s);
      long from = t.faultStartMs() < 0 ? Long.MIN_VALUE
          : t.faultStartMs() - (long) (lookbackHours * 3_600_000L);
      for (TimelineEvent e : replay.events()) {
        if (e.atMs() >= from) {
          TimelinePrinter.print(e, System.out);
        }
      }
    }
  }
}
