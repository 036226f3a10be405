package dev.checkpointdoctor.eval.scenario;

import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The service's detector flags for offline tools, parsed by the service's own parser (handed in as
 * a {@link DetectorFlagParser}) so a replay is tuned exactly as a running service would be. Environment variables are ignored: an offline
 * run should not depend on the shell it happens to run in.
 */
final class DetectorFlags {
  static final Set<String> FLAGS = Set.of("--min-observations", "--window", "--half-life",
      "--band-width", "--open-after", "--resolve-after", "--checkpoint-timeout", "--host-alias");
  static final String HELP = """
        --min-observations N    observations a baseline needs before it may flag (default 20)
        --window N              observations kept per baseline (default 120)
        --half-life DURATION    event-time half-life of observations (default 3d)
        --band-width X          band half-width in robust standard deviations (default 4.0)
        --open-after N          out-of-band observations that open an anomaly (default 3)
        --resolve-after N       in-band observations that resolve it (default 3)
        --checkpoint-timeout D  Flink checkpoint timeout for forecasts (default 10m)
        --host-alias HOST=NODE  join node/container series to a Flink host (repeatable)
      """;

  /** Flags and positional arguments, separated. */
  record Parsed(DetectorSettings settings, List<String> positional) {}

  private DetectorFlags() {}

  /**
   * @param ownFlags flags of the tool itself that take a value; they come back in positional as
   *     {@code flag=value}
   */
  static Parsed parse(List<String> args, Set<String> ownFlags, DetectorFlagParser parser)
      throws UsageException {
    List<String> detectorArgs = new ArrayList<>();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (!a.startsWith("--")) {
        positional.add(a);
        continue;
      }
      int eq = a.indexOf('=');
      String name = eq > 0 ? a.substring(0, eq) : a;
      String value;
      if (eq > 0) {
        value = a.substring(eq + 1);
      } else {
        if (i + 1 >= args.size()) {
          throw new UsageException(name + " needs a value");
        }
        value = args.get(++i);
      }
      if (ownFlags.contains(name)) {
        positional.add(name + "=" + value);
      } else if (FLAGS.contains(name)) {
        detectorArgs.add(name);
        detectorArgs.add(value);
      } else {
        throw new UsageException("unknown option " + name + " (see --help)");
      }
    }
    return new Parsed(parser.parse(detectorArgs), positional);
  }
}
