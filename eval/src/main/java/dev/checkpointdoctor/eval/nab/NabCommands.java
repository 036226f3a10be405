package dev.checkpointdoctor.eval.nab;

import dev.checkpointdoctor.eval.scenario.Progress;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The {@code nab} and {@code nab-score} subcommands. */
public final class NabCommands {
  private NabCommands() {}

  /** {@code nab --data DIR --out DIR [--labels FILE]}: runs the default detector, writes results. */
  public static int run(List<String> args) {
    return guarded("nab", args, List.of("--data", "--out"), a -> {
      Path data = Path.of(a.get("--data"));
      Path labels = Path.of(a.getOrDefault("--labels",
          data.resolveSibling("labels").resolve("combined_windows.json").toString()));
      Map<String, List<long[]>> windows =
          Files.isRegularFile(labels) ? NabCorpus.windows(labels) : Map.of();
      Progress progress = new Progress("nab", System.err);
      Path root = NabRun.run(new NabDetector(DetectorSettings.defaults()), data, windows,
          Path.of(a.get("--out")), progress);
      progress.done("done");
      System.out.println("results: " + root + (windows.isEmpty() ? " (no labels: label 0)" : ""));
      return 0;
    });
  }

  /**
   * {@code nab-score --data DIR --labels FILE --results DIR [--profiles FILE]}: NAB scores of
   * one detector's results folder, per profile and per category.
   */
  public static int score(List<String> args) {
    return guarded("nab-score", args, List.of("--data", "--labels", "--results"), a -> {
      Path data = Path.of(a.get("--data"));
      Path profiles = Path.of(a.getOrDefault("--profiles",
          data.resolveSibling("config").resolve("profiles.json").toString()));
      List<NabFile> files =
          NabCorpus.load(data, Path.of(a.get("--labels")), Path.of(a.get("--results")));
      print(System.out, files, NabCorpus.profiles(profiles));
      return 0;
    });
  }

  static void print(PrintStream out, List<NabFile> files, List<NabProfile> profiles) {
    out.println("profile              threshold        raw    score  windows detected fp_rows");
    List<NabScorer.Result> results = profiles.stream().map(p -> NabScorer.score(files, p)).toList();
    for (NabScorer.Result r : results) {
      NabScorer.Total t = r.total();
      out.printf(Locale.ROOT, "%-20s %9.6f %10.4f %8.2f %8d %8d %7d%n", r.profile().name(),
          r.threshold(), t.raw(), r.normalised(), t.windows(), t.detectedWindows(),
          t.falsePositiveRows());
    }
    out.println();
    out.print(String.format(Locale.ROOT, "%-22s", "category"));
    results.forEach(r -> out.printf(Locale.ROOT, " %20s", r.profile().name()));
    out.println("  windows detected fp_rows (" + results.get(0).profile().name() + ")");
    for (String category : results.get(0).byCategory().keySet()) {
      out.printf(Locale.ROOT, "%-22s", category);
      for (NabScorer.Result r : results) {
        NabScorer.Total t = r.byCategory().get(category);
        double n = t.normalised(r.profile());
        out.print(Double.isNaN(n)
            ? String.format(Locale.ROOT, " %20s", String.format(Locale.ROOT, "raw %.2f", t.raw()))
            : String.format(Locale.ROOT, " %20.2f", n));
      }
      NabScorer.Total t = results.get(0).byCategory().get(category);
      out.printf(Locale.ROOT, "  %7d %8d %7d%n", t.windows(), t.detectedWindows(),
          t.falsePositiveRows());
    }
  }

  @FunctionalInterface
  private interface Body {
    int run(Map<String, String> args) throws IOException;
  }

  static final String NAB_USAGE = """
      Usage: checkpoint-doctor nab --data DIR --out DIR [--labels FILE]

      Runs the detector (default settings) over every file of NAB's data folder and writes
      OUT/checkpointDoctor/<category>/checkpointDoctor_<file>.csv. --labels (default
      DATA/../labels/combined_windows.json) fills the label column, never seen by the detector.
      Progress goes to stderr.
      """;
  static final String SCORE_USAGE = """
      Usage: checkpoint-doctor nab-score --data DIR --labels FILE --results DIR [--profiles FILE]

      Scores a results folder in NAB's layout per profile (--profiles, default
      DATA/../config/profiles.json) and per category, with NAB's published rules.
      """;

  private static int guarded(String name, List<String> args, List<String> required, Body body) {
    if (args.contains("--help") || args.contains("-h")) {
      System.out.print(name.equals("nab") ? NAB_USAGE : SCORE_USAGE);
      return 0;
    }
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String flag = args.get(i);
      if (!flag.startsWith("--") || i + 1 >= args.size()) {
        System.err.println(name + ": expected --flag value pairs, got " + flag);
        return 2;
      }
      a.put(flag, args.get(++i));
    }
    for (String r : required) {
      if (!a.containsKey(r)) {
        System.err.println(name + ": missing " + r + " (needs " + String.join(", ", required)
            + ")");
        return 2;
      }
    }
    try {
      return body.run(a);
    } catch (IOException | RuntimeException e) {
      System.err.println(name + ": " + e.getMessage());
      return 1;
    }
  }
}
