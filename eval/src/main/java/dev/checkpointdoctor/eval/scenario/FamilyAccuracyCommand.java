package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code accuracy --family NAME [--seeds 1,2] [--threads N] [--per-job] [--write FILE]
 * [detector flags]}: see {@link AccuracyCommand#USAGE}.
 */
final class FamilyAccuracyCommand {
  private static final String PER_JOB = "--per-job";
  private static final String ALIGNED_TIMEOUT = "--aligned-timeout";
  private static final String WANDERING_IN_FLIGHT = "--in-flight-wander";
  private static final String STRESS = "--severity-scale, --onset-minutes, --scrape-seconds, "
      + "--interval-seconds, --parallelism, --exporter-scrape-seconds, --noise, --load-rise, "
      + "--aligned-timeout and --in-flight-wander";

  private FamilyAccuracyCommand() {}

  static int run(List<String> args, DetectorFlagParser flags) {
    ScenarioFamily family;
    List<Long> seeds = EvaluationSeeds.DEFAULT;
    int threads = 1;
    Path write = null;
    String only = null;
    double severityScale = 1;
    double onsetMinutes = 0;
    int scrape = 0;
    int interval = 0;
    int parallelism = 0;
    int exporterScrape = 0;
    HealthStress.Noise noise = HealthStress.Noise.GAUSSIAN;
    double loadRise = 1;
    boolean perJob = args.contains(PER_JOB);
    boolean alignedTimeout = args.contains(ALIGNED_TIMEOUT);
    boolean wanderingInFlight = args.contains(WANDERING_IN_FLIGHT);
    DetectorSettings settings;
    try {
      List<String> rest = new ArrayList<>(args);
      rest.removeIf(a -> a.equals(PER_JOB) || a.equals(ALIGNED_TIMEOUT)
          || a.equals(WANDERING_IN_FLIGHT));
      DetectorFlags.Parsed parsed = DetectorFlags.parse(rest,
          Set.of("--family", "--seeds", "--threads", "--write", "--only",
              "--severity-scale", "--onset-minutes", "--scrape-seconds", "--interval-seconds",
              "--parallelism", "--exporter-scrape-seconds", "--noise", "--load-rise"), flags);
      String name = null;
      for (String p : parsed.positional()) {
        int eq = p.indexOf('=');
        String flag = eq < 0 ? p : p.substring(0, eq);
        String value = eq < 0 ? "" : p.substring(eq + 1);
        switch (flag) {
          case "--family" -> name = value;
          case "--seeds" -> seeds = seeds(value);
          case "--threads" -> threads = threads(value);
          case "--write" -> write = Path.of(value);
          case "--only" -> only = value;
          case "--severity-scale" -> severityScale = positive(flag, value);
          case "--onset-minutes" -> onsetMinutes = positive(flag, value);
          case "--scrape-seconds" -> scrape = whole(flag, value);
          case "--interval-seconds" -> interval = whole(flag, value);
          case "--parallelism" -> parallelism = whole(flag, value);
          case "--exporter-scrape-seconds" -> exporterScrape = whole(flag, value);
          case "--noise" -> noise = noiseModel(value);
          case "--load-rise" -> loadRise = positive(flag, value);
          default -> throw new UsageException("unexpected argument " + p
              + " (a scenario directory and --family exclude each other)");
        }
      }
      family = Families.get(name);
      if (family == null) {
        throw new UsageException("unknown family " + name + " (known: "
            + String.join(", ", Families.names()) + ")");
      }
      if (severityScale != 1 || onsetMinutes != 0 || scrape != 0 || interval != 0
          || parallelism != 0 || exporterScrape != 0 || noise != HealthStress.Noise.GAUSSIAN
          || loadRise != 1 || alignedTimeout || wanderingInFlight) {
        if (!Family1.NAME.equals(family.name())) {
          throw new UsageException(STRESS + " stress family1's train faults only");
        }
        if (!seeds.stream().allMatch(EvaluationSeeds::train)) {
          throw new UsageException(STRESS + ": train seeds only " + EvaluationSeeds.TRAIN);
        }
        try {
          family = new Family1(new FaultStress(severityScale, onsetMinutes, scrape, interval,
              parallelism, exporterScrape, noise, loadRise, alignedTimeout, wanderingInFlight));
        } catch (IllegalArgumentException e) {
          throw new UsageException(e.getMessage());
        }
      }
      if (only != null && family.validationOnly()) {
        throw new UsageException("--only: " + family.name() + " is for validation only: "
            + "it is judged as a whole, never job by job");
      }
      if (only != null && !seeds.stream().allMatch(EvaluationSeeds::train)) {
        throw new UsageException("--only picks jobs of train seeds only " + EvaluationSeeds.TRAIN
            + ": held-out seeds are judged as a whole");
      }
      if (only != null) {
        family = new Subset(family, only);
      }
      settings = parsed.settings();
    } catch (UsageException e) {
      System.err.println("checkpoint-doctor accuracy: " + e.getMessage());
      System.err.println("Run with --help for usage.");
      return 2;
    }
    try {
      Map<Long, List<JobResult>> results = FamilyAccuracy.run(family, seeds, settings, threads,
          System.err);
      String report = FamilyReport.render(family.name(), family.validationOnly(), results,
          perJob);
      if (write == null) {
        System.out.print(report);
      } else {
        String block = block(family.name(), family.validationOnly(), seeds);
        String begin = "<!-- " + block + ":begin -->";
        String end = "<!-- " + block + ":end -->";
        String old = Files.exists(write) ? Files.readString(write, StandardCharsets.UTF_8) : "";
        Files.writeString(write, AccuracyReport.splice(old, begin + "\n" + report + end + "\n",
            begin, end), StandardCharsets.UTF_8);
        System.out.println(write + ": " + family.name() + " report written");
      }
      return 0;
    } catch (IOException e) {
      System.err.println("checkpoint-doctor accuracy: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  /** The jobs of a family whose names start with a prefix (iterating on a few train jobs). */
  private record Subset(ScenarioFamily family, String prefix) implements ScenarioFamily {
    @Override
    public String name() {
      return family.name();
    }

    @Override
    public List<GeneratedScenario> scenarios(long seed) {
      return family.scenarios(seed).stream()
          .filter(s -> s.truth().name().startsWith(prefix)).toList();
    }
  }

  /**
   * The name of the report's block in a --write file: train and held-out figures have blocks of
   * their own so each is regenerated by its own command.
   */
  static String block(String family, boolean validation, List<Long> seeds) {
    if (validation) {
      return family;
    }
    if (seeds.stream().allMatch(EvaluationSeeds::train)) {
      return family + ":train";
    }
    if (seeds.stream().allMatch(EvaluationSeeds::heldOut)) {
      return family + ":held-out";
    }
    return family;
  }

  static List<Long> seeds(String list) throws UsageException {
    List<Long> out = new ArrayList<>();
    for (String s : list.split(",")) {
      try {
        long seed = Long.parseLong(s.trim());
        if (!out.contains(seed)) {
          out.add(seed);
        }
      } catch (NumberFormatException e) {
        throw new UsageException("--seeds: not a seed: '" + s + "' (e.g. --seeds 1,2)");
      }
    }
    return out;
  }

  private static double positive(String flag, String v) throws UsageException {
    try {
      double d = Double.parseDouble(v);
      if (d > 0 && Double.isFinite(d)) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(flag + ": expected a positive number, got '" + v + "'");
  }

  private static HealthStress.Noise noiseModel(String v) throws UsageException {
    try {
      return HealthStress.noise(v);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--noise: expected gaussian, heavy, ar or slow, got '" + v + "'");
    }
  }

  private static int whole(String flag, String v) throws UsageException {
    try {
      int n = Integer.parseInt(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(flag + ": expected a positive whole number, got '" + v + "'");
  }

  private static int threads(String v) throws UsageException {
    try {
      int n = Integer.parseInt(v);
      if (n >= 1 && n <= 64) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--threads: expected 1 to 64, got '" + v + "'");
  }
}
