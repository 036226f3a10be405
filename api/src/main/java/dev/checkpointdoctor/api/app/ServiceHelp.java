package dev.checkpointdoctor.api.app;

import java.util.List;

/** The text {@code --help} prints, built from the options so it cannot drift from them. */
final class ServiceHelp {
  private ServiceHelp() {}

  /** How to run the service, where it answers, the offline tools, and every option. */
  static String text(List<Option> options) {
    StringBuilder sb = new StringBuilder();
    sb.append("Checkpoint Doctor: learns each Flink job's normal checkpointing from Prometheus\n")
        .append("remote-write and explains when it goes wrong.\n\n")
        .append("Usage: java -jar checkpoint-doctor.jar [OPTIONS]        run the service\n")
        .append("       java -jar checkpoint-doctor.jar COMMAND [ARGS]   run an offline tool\n\n")
        .append("Once running (defaults: --host 0.0.0.0 --port 9877):\n")
        .append("  web UI        http://HOST:9877/ui/\n")
        .append("  remote-write  http://HOST:9877/api/v1/write (Prometheus remote_write url)\n")
        .append("  API           http://HOST:9877/api/v1/jobs, /api/v1/anomalies\n")
        .append("  metrics       http://HOST:9877/metrics; probes /healthz, /readyz\n\n")
        .append("Commands (each has --help):\n");
    Subcommands.DESCRIPTIONS.forEach((name, what) ->
        sb.append(String.format("  %-11s %s%n", name, what)));
    sb.append("\nOptions (flag, environment variable, default). Durations are written as\n")
        .append("Prometheus writes them: 500ms, 30s, 10m, 1h30m, 3d.\n");
    for (Option o : options) {
      boolean noValue = o.flag().equals("--help") || o.flag().equals("--version")
          || o.toggle();
      sb.append(String.format("  %-28s %s%n", o.flag() + (noValue ? ""
          : o.repeatable() ? " VALUE (repeatable)" : " VALUE"), o.description()));
      if (o.env() != null) {
        sb.append(String.format("  %-28s env %s%s%n", "", o.env(),
            o.defaultValue() == null ? "" : ", default " + o.defaultValue()));
      }
    }
    return sb.toString();
  }
}
