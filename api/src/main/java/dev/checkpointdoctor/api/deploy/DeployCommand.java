package dev.checkpointdoctor.api.deploy;

import dev.checkpointdoctor.api.app.ServiceSettings;
import dev.checkpointdoctor.api.app.SettingsException;
import dev.checkpointdoctor.api.shard.ShardSpec;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code deploy remote-write|k8s}: prints the Prometheus {@code remote_write} section or the
 * Kubernetes manifests for N shards, so both are regenerated, not edited by hand, when N changes.
 */
public final class DeployCommand {
  static final String DEFAULT_NAMESPACE = "monitoring";
  static final String DEFAULT_IMAGE = "registry.example.com/checkpoint-doctor:0.1.0";
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:,=@+-]+");

  private DeployCommand() {}

  static final String USAGE = """
      Usage:
        java -jar checkpoint-doctor.jar deploy remote-write --shards N [--replicas R]
            [--url-template URL] [--shard-labels job_name] [--namespace NS]
        java -jar checkpoint-doctor.jar deploy k8s --shards N [--replicas R] [--namespace NS]
            [--image IMAGE] [--shard-labels job_name] [--job-identity-labels L,...]
            [--ha-replica-label LABEL]

      remote-write  the Prometheus remote_write section: one entry per instance (shard I,
                    replica R) keeping the jobs whose hashmod of --shard-labels is I, and every
                    series without job_name. --url-template has {shard} and {replica}; default
                    the pods of 'deploy k8s': %s
      k8s           a StatefulSet and PodDisruptionBudget per shard, a headless Service (pod
                    names, --peers-dns) and a Service for the UI and API. --shard-labels,
                    --job-identity-labels and --ha-replica-label are set on every pod (the
                    service's options of the same names; checked as it checks them).

      --replicas defaults to 2 (an HA pair per shard), --namespace to %s.
      """.formatted(KubernetesManifests.urlTemplate("NS"), DEFAULT_NAMESPACE);

  /** Runs with the arguments after {@code deploy}; returns the exit code. */
  public static int run(List<String> args) {
    return run(args, System.out, System.err);
  }

  public static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
      (args.isEmpty() ? err : out).print(USAGE);
      return args.isEmpty() ? 2 : 0;
    }
    String what = args.get(0);
    try {
      Map<String, String> flags = flags(args.subList(1, args.size()), what.equals("k8s")
          ? List.of("--shards", "--replicas", "--namespace", "--image", "--shard-labels",
              "--job-identity-labels", "--ha-replica-label")
          : List.of("--shards", "--replicas", "--url-template", "--shard-labels", "--namespace"));
      if (!flags.containsKey("--shards")) {
        throw new IllegalArgumentException("--shards N is required");
      }
      int shards = number(flags, "--shards", null);
      int replicas = number(flags, "--replicas", "2");
      String namespace = flags.getOrDefault("--namespace", DEFAULT_NAMESPACE);
      String command = "java -jar checkpoint-doctor.jar deploy " + quoted(args);
      switch (what) {
        case "remote-write" -> out.print(RemoteWriteShards.yaml(shards, replicas,
            flags.getOrDefault("--url-template", KubernetesManifests.urlTemplate(namespace)),
            ShardSpec.parseLabels(flags.getOrDefault("--shard-labels", ShardSpec.JOB_NAME)),
            SignalCatalog.defaults().keepRegex(), command));
        case "k8s" -> out.print(KubernetesManifests.yaml(shards, replicas, namespace,
            flags.getOrDefault("--image", DEFAULT_IMAGE), podSettings(flags, shards), command));
        default -> throw new IllegalArgumentException("unknown deploy target \"" + what
            + "\"; use remote-write or k8s");
      }
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("deploy: " + e.getMessage());
      err.print(USAGE);
      return 2;
    }
  }

  /**
   * The service options given to {@code deploy k8s} as the pods' environment, checked as the
   * service checks them at start-up (a shard label that is not an identity label fails here, not
   * in every pod).
   */
  private static Map<String, String> podSettings(Map<String, String> flags, int shards) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String[] f : new String[][] {{"--shard-labels", "CPD_SHARD_LABELS"},
        {"--job-identity-labels", "CPD_JOB_IDENTITY_LABELS"},
        {"--ha-replica-label", "CPD_HA_REPLICA_LABEL"}}) {
      if (flags.containsKey(f[0])) {
        env.put(f[1], flags.get(f[0]).replace(" ", ""));
      }
    }
    Map<String, String> check = new LinkedHashMap<>(env);
    check.put("CPD_SHARD", (shards - 1) + "/" + shards);
    try {
      ServiceSettings.parse(List.of(), check);
    } catch (SettingsException e) {
      throw new IllegalArgumentException(e.getMessage().replace("CPD_SHARD_LABELS",
          "--shard-labels").replace("CPD_JOB_IDENTITY_LABELS", "--job-identity-labels")
          .replace("CPD_HA_REPLICA_LABEL", "--ha-replica-label"));
    }
    return env;
  }

  private static Map<String, String> flags(List<String> args, List<String> known) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String name = args.get(i);
      String value = null;
      int eq = name.indexOf('=');
      if (name.startsWith("--") && eq > 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown option " + name + " (this target takes "
            + String.join(", ", known) + ")");
      }
      if (value == null) {
        if (i + 1 >= args.size()) {
          throw new IllegalArgumentException(name + " needs a value");
        }
        value = args.get(++i);
      }
      if (out.put(name, value) != null) {
        throw new IllegalArgumentException(name + " given more than once");
      }
    }
    return out;
  }

  private static int number(Map<String, String> flags, String flag, String fallback) {
    String v = flags.getOrDefault(flag, fallback);
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " must be a whole number, got \"" + v + "\"");
    }
  }

  private static String quoted(List<String> args) {
    StringBuilder b = new StringBuilder();
    for (String a : args) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(PLAIN.matcher(a).matches() ? a : "'" + a.replace("'", "'\\''") + "'");
    }
    return b.toString();
  }
}
