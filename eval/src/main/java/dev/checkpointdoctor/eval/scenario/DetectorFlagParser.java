package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.util.List;

/**
 * Turns the service's detector flags ({@code --min-observations 5 --half-life 1h …}) into
 * settings. The service hands in its own parser, so an offline replay is tuned exactly as a
 * running service would be and there is one parser for both.
 */
@FunctionalInterface
public interface DetectorFlagParser {
  /**
   * @param flags flag, value, flag, value … (only flags in {@link DetectorFlags#FLAGS})
   * @throws UsageException naming the flag that is wrong
   */
  DetectorSettings parse(List<String> flags) throws UsageException;

  /** Defaults only: for tools and tests that pass no detector flag. */
  static DetectorFlagParser defaultsOnly() {
    return flags -> {
      if (!flags.isEmpty()) {
        throw new UsageException("no detector flags are understood here: " + flags.get(0));
      }
      return DetectorSettings.defaults();
    };
  }
}
