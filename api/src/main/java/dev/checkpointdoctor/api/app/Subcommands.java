package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.nab.NabCommands;
import dev.checkpointdoctor.api.scenario.AccuracyCommand;
import dev.checkpointdoctor.api.scenario.ReplayCommand;
import dev.checkpointdoctor.api.scenario.ScenariosCommand;
import java.util.List;
import java.util.Map;

/**
 * Offline tools in the same jar: {@code java -jar checkpoint-doctor.jar NAME ARGS…}. Without a
 * known name as first argument the jar runs the service.
 */
final class Subcommands {
  private Subcommands() {}

  /** A tool: gets the arguments after its name, returns the process exit code. */
  @FunctionalInterface
  interface Subcommand {
    int run(List<String> args);
  }

  static final Map<String, Subcommand> ALL = Map.of(
      "scenarios", ScenariosCommand::run,
      "replay", ReplayCommand::run,
      "accuracy", AccuracyCommand::run,
      "nab", NabCommands::run,
      "nab-score", NabCommands::score);
}
