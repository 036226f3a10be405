package dev.checkpointdoctor.eval.scenario;

import java.nio.file.Path;
import java.util.List;

/** {@code scenarios --out DIR [--seed N] [--only NAME]}: writes the scenario corpus. */
public final class ScenariosCommand {
  static final String USAGE = """
      Usage: checkpoint-doctor scenarios --out DIR [--seed N] [--only NAME]

      Generates the scenario corpus: one gzip'd Prometheus text recording (millisecond
      timestamps) per scenario and DIR/manifest.json with each scenario's expected cause
      (or "healthy") and fault start. The same seed gives the same bytes.

        --out DIR     directory to write (created if missing)
        --seed N      random seed (default 1)
        --only NAME   generate one scenario only (the manifest then lists only it)
      """;

  private ScenariosCommand() {}

  public static int run(List<String> args) {
    Path out = null;
    long seed = 1;
    String only = null;
    try {
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        switch (a) {
          case "--help", "-h" -> {
            System.out.print(USAGE);
            return 0;
          }
          case "--out" -> out = Path.of(value(args, ++i, a));
          case "--seed" -> seed = Long.parseLong(value(args, ++i, a));
          case "--only" -> only = value(args, ++i, a);
          default -> throw new IllegalArgumentException("unknown argument " + a);
        }
      }
      if (out == null) {
        throw new IllegalArgumentException("--out DIR is required");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("checkpoint-doctor scenarios: " + e.getMessage());
      System.err.print(USAGE);
      return 2;
    }
    try {
      // one line per scenario as it is written: progress, on stderr
      Progress progress = new Progress("scenarios", System.err);
      List<ScenarioManifest.Entry> written = ScenarioGenerator.generate(out, seed, only,
          System.err);
      progress.done(written.size() + " scenarios written");
      System.out.println("wrote " + written.size() + " scenarios and "
          + out.resolve(ScenarioManifest.FILE));
      return 0;
    } catch (java.io.IOException e) {
      System.err.println("checkpoint-doctor scenarios: " + e.getMessage());
      return 1;
    }
  }

  static String value(List<String> args, int i, String flag) {
    if (i >= args.size()) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args.get(i);
  }
}
