package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code accuracy DIR [--write FILE] [detector flags]}: replays every scenario of a corpus
 * offline and reports, per scenario, detection, delay, top cause, confidence and pass/fail as a
 * Markdown section between {@value #BEGIN} and {@value #END}.
 */
public final class AccuracyCommand {
  public static final String BEGIN = "<!-- scenarios:begin -->";
  public static final String END = "<!-- scenarios:end -->";
  static final String USAGE = """
      Usage: checkpoint-doctor accuracy DIR [--write FILE] [OPTIONS]
             checkpoint-doctor accuracy --family NAME [--seeds 1,2] [--threads N] [--per-job]
                                        [--only PREFIX] [--write FILE] [OPTIONS]
                                        [--severity-scale X] [--onset-minutes M]
                                        [--scrape-seconds S] [--interval-seconds I]
                                        [--parallelism P] [--exporter-scrape-seconds E]
                                        [--noise gaussian|heavy|ar|slow] [--load-rise F]
                                        [--aligned-timeout] [--in-flight-wander]

      Replays every scenario listed in DIR/manifest.json through the detector offline and
      prints a Markdown section (between <!-- scenarios:begin --> and <!-- scenarios:end -->):
      per scenario detected, delay from fault start, top cause, confidence, expected cause,
      pass/fail. With --write FILE the section replaces the one in FILE (the rest of FILE is
      kept; the section is appended when FILE has none).

      With --family NAME the scenarios are drawn by a simulator family (%s) for each
      seed and played through the detector in memory, nothing written. Per seed and over all
      seeds it reports, per cause, detected / named first (top-1) / recall; slow state growth
      named within 2 h (with a forecast); healthy controls with an anomaly or an alert; and a
      summary line. Progress goes to stderr. family2 is for validation only (every seed):
      jobs with two faults at once are judged on the root cause, with a column for naming the
      other real fault; `unjoinable_` jobs are counted apart (cause named or missing source
      said), outside top-1 and recall (docs/FAMILY2.md).
        --seeds LIST   comma-separated seeds (default %s; train seeds are %s)
        --threads N    scenarios replayed at once (default 1)
        --per-job      per-job lines for the held-out seeds %s and validation families too
                       (hidden by default)
        --only PREFIX  only the jobs whose names start with PREFIX (train seeds only; not on
                       a validation family)
        --write FILE   the report replaces the part of FILE between <!-- BLOCK:begin --> and
                       <!-- BLOCK:end --> (appended when FILE has none); BLOCK is NAME:train
                       for train seeds only, NAME:held-out for held-out seeds only, else NAME
                       (always NAME for a validation family)
        --severity-scale X  family1 train seeds only, a sensitivity study: every fault job's
                       fault bites X times as hard (severity, a slow store's extra upload
                       time, how much shorter a too-short interval is); 1 = the corpus as is
        --onset-minutes M   family1 train seeds only: every fault reaches its full level
                       linearly over M minutes (a gradual onset); default its drawn ramp
        --scrape-seconds S, --interval-seconds I, --parallelism P   family1 train seeds
                       only: every fault job is scraped every S s, checkpoints every I s or
                       runs P subtasks (on its drawn TaskManagers) instead of as drawn
        --exporter-scrape-seconds E   family1 train seeds only: every fault job's
                       node_exporter and cAdvisor are scraped about every E s (a multiple
                       of its Flink scrape), Flink's reporter as drawn
        --noise MODEL  family1 train seeds only: every fault job's per-sample noise is
                       gaussian (as drawn), heavy (Laplace tails), ar (AR(1) 0.9 per
                       scrape: runs of high or low values) or slow (the load wanders over
                       ~15 min with 45-min regimes)
        --load-rise F  family1 train seeds only: every fault job's input climbs by factor
                       F (>= 1) from an hour before the fault's onset to half an hour after
                       it, and stays (a busier job on top of the fault); 1 = as drawn
        --aligned-timeout  family1 train seeds only: every fault job with unaligned
                       checkpoints starts them aligned and turns them unaligned only
                       under back-pressure (Flink's aligned-checkpoint timeout), so it
                       persists no in-flight data before its trouble
        --in-flight-wander  family1 train seeds only: every fault job with unaligned
                       checkpoints persists in-flight data that wanders with its
                       buffers' fill from one checkpoint to the next (AR(1) 0.95 per
                       checkpoint in log space) instead of an independent draw

      Options (as for the service):
      """.formatted(String.join(", ", Families.names()), seedList(EvaluationSeeds.DEFAULT),
      seedList(EvaluationSeeds.TRAIN),
      seedList(EvaluationSeeds.HELD_OUT)) + DetectorFlags.HELP;

  private AccuracyCommand() {}

  private static String seedList(List<Long> seeds) {
    return seeds.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
  }

  public static int run(List<String> args, DetectorFlagParser flags) {
    if (args.contains("--help") || args.contains("-h")) {
      System.out.print(USAGE);
      return 0;
    }
    if (args.stream().anyMatch(a -> a.equals("--family") || a.startsWith("--family="))) {
      return FamilyAccuracyCommand.run(args, flags);
    }
    Path dir;
    Path write = null;
    DetectorSettings settings;
    try {
      DetectorFlags.Parsed parsed = DetectorFlags.parse(args, Set.of("--write"), flags);
      List<String> dirs = new ArrayList<>();
      for (String p : parsed.positional()) {
        if (p.startsWith("--write=")) {
          write = Path.of(p.substring("--write=".length()));
        } else {
          dirs.add(p);
        }
      }
      if (dirs.size() != 1) {
        throw new UsageException("expected exactly one scenario directory");
      }
      dir = Path.of(dirs.get(0));
      settings = parsed.settings();
    } catch (UsageException e) {
      System.err.println("checkpoint-doctor accuracy: " + e.getMessage());
      System.err.println("Run with --help for usage.");
      return 2;
    }
    try {
      List<ScenarioVerdict> verdicts = evaluate(dir, settings);
      String section = AccuracyReport.section(verdicts, settings);
      if (write == null) {
        System.out.print(section);
      } else {
        String old = Files.exists(write) ? Files.readString(write, StandardCharsets.UTF_8) : "";
        Files.writeString(write, AccuracyReport.splice(old, section), StandardCharsets.UTF_8);
        System.out.printf("%s: %d of %d scenarios pass%n", write, ScenarioVerdict.passed(verdicts),
            verdicts.size());
      }
      return 0;
    } catch (IOException | HistoryFormatException e) {
      System.err.println("checkpoint-doctor accuracy: " + e.getMessage());
      return 1;
    }
  }

  static List<ScenarioVerdict> evaluate(Path dir, DetectorSettings settings)
      throws IOException, HistoryFormatException {
    List<ScenarioVerdict> out = new ArrayList<>();
    List<ScenarioManifest.Entry> entries = ScenarioManifest.read(dir);
    Progress progress = new Progress("accuracy", System.err);
    for (ScenarioManifest.Entry e : entries) {
      OfflineReplay replay = new OfflineReplay(settings);
      replay.replayFiles(List.of(dir.resolve(e.file())));
      out.add(ScenarioVerdict.judge(e, replay));
      progress.say(String.format(Locale.ROOT, "%d of %d: %s done", out.size(), entries.size(),
          e.name()));
    }
    progress.done(ScenarioVerdict.passed(out) + " of " + out.size() + " scenarios pass");
    return out;
  }
}
