package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.eval.nab.NabCommands;
import dev.checkpointdoctor.eval.scenario.AccuracyCommand;
import dev.checkpointdoctor.eval.scenario.DetectorFlagParser;
import dev.checkpointdoctor.eval.scenario.ReplayCommand;
import dev.checkpointdoctor.eval.scenario.ScenariosCommand;
import dev.checkpointdoctor.eval.scenario.UsageException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Offline tools in the same jar: {@code java -jar checkpoint-doctor.jar NAME ARGS…}. Without a
 * known name as first argument the jar runs the service. The tools live in the {@code eval}
 * module; they get the service's own parser for the detector flags.
 */
final class Subcommands {
  private Subcommands() {}

  /** A tool: gets the arguments after its name, returns the process exit code. */
  @FunctionalInterface
  interface Subcommand {
    int run(List<String> args);
  }

  /** The service's parser, restricted to the detector flags; environment variables ignored. */
  static final DetectorFlagParser DETECTOR_FLAGS = flags -> {
    try {
      return ServiceSettings.parse(flags, Map.of()).detector();
    } catch (SettingsException e) {
      throw new UsageException(e.getMessage());
    }
  };

  static final Map<String, Subcommand> ALL = Map.of(
      "scenarios", ScenariosCommand::run,
      "replay", args -> ReplayCommand.run(args, DETECTOR_FLAGS),
      "accuracy", args -> AccuracyCommand.run(args, DETECTOR_FLAGS),
      "nab", NabCommands::run,
      "nab-score", NabCommands::score);

  /** One line per tool for {@code --help}, in the order a user meets them. */
  static final Map<String, String> DESCRIPTIONS = descriptions();

  private static Map<String, String> descriptions() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("replay", "run recorded metric histories offline; print anomalies and diagnoses");
    d.put("accuracy", "replay a scenario corpus and report per scenario what was found");
    d.put("scenarios", "generate the scenario corpus (gzip'd recordings and a manifest)");
    d.put("nab", "run the detector over the Numenta Anomaly Benchmark data");
    d.put("nab-score", "score NAB results per profile and category");
    if (!d.keySet().equals(ALL.keySet())) {
      throw new IllegalStateException("every subcommand needs a description");
    }
    return java.util.Collections.unmodifiableMap(d);
  }
}
