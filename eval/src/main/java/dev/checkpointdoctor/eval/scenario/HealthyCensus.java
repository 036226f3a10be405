package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A developer's census of what healthy family 1 jobs of the train seeds open: one line per
 * anomaly with what an operator would ask first (which signal and scope, how old the job and its
 * deployment were, the time of day and week, how far out, how it ended), to sort them by cause.
 * The held-out seeds are refused.
 *
 * <p>{@code --scrape-seconds S}, {@code --interval-seconds I},
 * {@code --noise gaussian|heavy|ar|slow} and {@code --cycle sine|steep} stress the healthy controls ({@link HealthStress}); without them
 * the default corpus is drawn.
 *
 * <pre>java -cp api/target/checkpoint-doctor.jar dev.checkpointdoctor.eval.scenario.HealthyCensus
 *     --seeds 1,2,3 [--only healthy_redeploy] [--scrape-seconds 30] [--noise heavy]</pre>
 */
public final class HealthyCensus {
  private static final double HOUR = 3_600_000.0;
  private static final String USAGE = """
      usage: HealthyCensus [--seeds 1,2,...] [--only PREFIX] [--trace SIGNAL@SCOPE --from ISO --to ISO]
                           [--scrape-seconds S] [--interval-seconds I]
                           [--noise gaussian|heavy|ar|slow] [--cycle sine|steep]
      Counts the anomalies family 1's healthy controls open (train seeds 1-80 only); the stress
      options redraw the controls with another scrape, checkpoint interval, noise or daily cycle.""";

  private HealthyCensus() {}

  public static void main(String[] args) {
    List<Long> seeds = List.of(1L);
    String only = "healthy";
    String trace = null;
    long from = Long.MIN_VALUE;
    long to = Long.MAX_VALUE;
    int scrape = 0;
    int interval = 0;
    HealthStress.Noise noise = HealthStress.Noise.GAUSSIAN;
    HealthStress.Cycle cycle = HealthStress.Cycle.SINE;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seeds" -> seeds = java.util.Arrays.stream(args[++i].split(","))
            .map(Long::parseLong).toList();
        case "--only" -> only = args[++i];
        case "--trace" -> trace = args[++i];
        case "--from" -> from = Instant.parse(args[++i]).toEpochMilli();
        case "--to" -> to = Instant.parse(args[++i]).toEpochMilli();
        case "--scrape-seconds" -> scrape = Integer.parseInt(args[++i]);
        case "--interval-seconds" -> interval = Integer.parseInt(args[++i]);
        case "--noise" -> noise = HealthStress.noise(args[++i]);
        case "--cycle" -> cycle = HealthStress.cycle(args[++i]);
        case "--help", "-h" -> {
          System.out.println(USAGE);
          return;
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "\n" + USAGE);
      }
    }
    Family1 family = new Family1(FaultStress.NONE,
        new HealthStress(scrape, interval, noise, cycle));
    int jobs = 0;
    int withAnomaly = 0;
    int anomalies = 0;
    for (long seed : seeds) {
      if (!EvaluationSeeds.TRAIN.contains(seed)) {
        throw new IllegalArgumentException("seed " + seed + " is not a train seed");
      }
      for (GeneratedScenario s : family.scenarios(seed)) {
        String name = s.truth().name();
        if (!name.startsWith(only) || !s.truth().healthy()) {
          continue;
        }
        jobs++;
        int n = census(seed, s, trace, from, to);
        anomalies += n;
        withAnomaly += n > 0 ? 1 : 0;
      }
    }
    System.out.printf(Locale.ROOT, "TOTAL healthy jobs with an anomaly %d/%d (%d anomalies)%n",
        withAnomaly, jobs, anomalies);
  }

  /**
   * @param trace {@code signal@scope-prefix} whose evaluations between {@code from} and {@code
   *     to} are printed, or null
   */
  private static int census(long seed, GeneratedScenario s, String trace, long from, long to) {
    OfflineReplay replay = new OfflineReplay(DetectorSettings.defaults());
    List<long[]> starts = new ArrayList<>(); // {time, deployed}
    replay.detector().addListener(new DetectorListener() {
      @Override
      public void evaluated(Evaluation e) {
        if (trace != null && e.timestampMs() >= from && e.timestampMs() <= to
            && (e.signal().id() + "@" + e.scope()).startsWith(trace)) {
          System.out.printf(Locale.ROOT, "   %s %s@%s obs=%.4g exp=%.4g band=[%.4g,%.4g] %s%n",
              Instant.ofEpochMilli(e.timestampMs()), e.signal().id(), e.scope(), e.observed(),
              e.expected(), e.lower(), e.upper(), e.outside() ? "OUT" : "");
        }
        if (e.signal() == Signal.RESTARTS && e.observed() > 0) {
          starts.add(new long[] {e.timestampMs(), Signal.START_SCOPE.equals(e.scope()) ? 1 : 0});
        }
      }
    });
    replay.replay(s);
    long first = replay.firstTimestampMs();
    List<Anomaly> opened = new ArrayList<>();
    List<Anomaly> ended = new ArrayList<>();
    List<Long> openedAt = new ArrayList<>();
    for (TimelineEvent e : replay.events()) {
      if (e.kind() == TimelineEvent.Kind.ANOMALY_OPENED) {
        opened.add(e.anomaly());
        openedAt.add(e.atMs());
      } else if (e.kind() == TimelineEvent.Kind.ANOMALY_RESOLVED) {
        ended.add(e.anomaly());
      }
    }
    System.out.printf(Locale.ROOT, "== seed %d %s: %d anomalies; %s%n", seed, s.truth().name(),
        opened.size(), s.truth().description());
    StringBuilder st = new StringBuilder();
    for (long[] x : starts) {
      st.append(String.format(Locale.ROOT, " %.1fh%s", (x[0] - first) / HOUR,
          x[1] == 1 ? "(deploy)" : "(restart)"));
    }
    if (!starts.isEmpty()) {
      System.out.println("   starts at job age:" + st);
    }
    for (int i = 0; i < opened.size(); i++) {
      Anomaly a = opened.get(i);
      long at = a.startedAtMs();
      long lastStart = Long.MIN_VALUE;
      for (long[] x : starts) {
        if (x[0] <= at) {
          lastStart = Math.max(lastStart, x[0]);
        }
      }
      Anomaly end = null;
      for (Anomaly r : ended) {
        if (r.id() == a.id()) {
          end = r;
        }
      }
      ZonedDateTime z = Instant.ofEpochMilli(at).atZone(ZoneOffset.UTC);
      System.out.printf(Locale.ROOT,
          "   #%d %s@%s age=%.1fh sinceStart=%s %s %02d:%02d open-delay=%.0fmin obs=%.4g "
              + "exp=%.4g band=[%.4g,%.4g] score=%.1f %s%n",
          a.id(), a.signal().id(), a.scope(), (at - first) / HOUR,
          lastStart == Long.MIN_VALUE ? "-" : String.format(Locale.ROOT, "%.2fh",
              (at - lastStart) / HOUR),
          z.getDayOfWeek().toString().substring(0, 3), z.getHour(), z.getMinute(),
          (openedAt.get(i) - at) / 60_000.0, a.observed(), a.expected(), a.lower(), a.upper(),
          a.score(),
          end == null ? "still open" : String.format(Locale.ROOT, "%s after %.0fmin",
              end.resolution().id(), (end.endedAtMs() - at) / 60_000.0));
    }
    return opened.size();
  }
}
