package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.alerting.AlertingSettings;
import dev.checkpointdoctor.api.history.InfluxSettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Typed, validated settings of the service. Sources, later wins: defaults, environment
 * variables, command-line flags. Unknown flags and bad values fail start-up with a message that
 * names the flag.
 */
public record ServiceSettings(
    String host,
    int port,
    Path dataDir,
    Duration snapshotInterval,
    long maxBodyBytes,
    long maxDecompressedBytes,
    int queueSamples,
    DetectorSettings detector,
    IngestLimits limits,
    AccessSettings access,
    AlertingSettings alerting,
    InfluxSettings influx) {

  static final List<Option> OPTIONS = List.of(
      Option.single("--host", "CPD_HOST", "0.0.0.0", "Address to listen on."),
      Option.single("--port", "CPD_PORT", "9877",
          "HTTP port for everything: remote-write, API and /metrics."),
      Option.single("--data-dir", "CPD_DATA_DIR", "./data",
          "Where baselines and anomalies are snapshotted and restored from."),
      Option.single("--snapshot-interval", "CPD_SNAPSHOT_INTERVAL", "60s",
          "How often state is snapshotted (also on SIGTERM)."),
      Option.single("--max-body-bytes", "CPD_MAX_BODY_BYTES", "8388608",
          "Largest compressed remote-write body accepted (413 above)."),
      Option.single("--max-decompressed-bytes", "CPD_MAX_DECOMPRESSED_BYTES", "67108864",
          "Largest declared decompressed size accepted (413 above)."),
      Option.single("--queue-samples", "CPD_QUEUE_SAMPLES", "1000000",
          "Samples that may wait for the detector; beyond this writes get 503 and are retried."),
      Option.single("--min-observations", "CPD_MIN_OBSERVATIONS", "20",
          "Observations a baseline needs before it may flag anomalies (lower for a lab)."),
      Option.single("--window", "CPD_WINDOW", "120",
          "Observations kept per baseline."),
      Option.single("--half-life", "CPD_HALF_LIFE", "3d",
          "Event-time age at which an observation weighs half in the baseline."),
      Option.single("--band-width", "CPD_BAND_WIDTH", "4.0",
          "Normal band half-width in robust standard deviations."),
      Option.single("--open-after", "CPD_OPEN_AFTER", "3",
          "Consecutive out-of-band observations that open an anomaly."),
      Option.single("--resolve-after", "CPD_RESOLVE_AFTER", "3",
          "Consecutive in-band observations that resolve it."),
      Option.single("--new-normal-after", "CPD_NEW_NORMAL_AFTER", "6h",
          "How long a departure must hold as one stable level to become the new normal "
              + "(off: never)."),
      Option.single("--checkpoint-timeout", "CPD_CHECKPOINT_TIMEOUT", "10m",
          "Flink checkpoint timeout assumed for forecasts."),
      Option.repeatable("--host-alias", "CPD_HOST_ALIASES",
          "FLINK_HOST=NODE: joins node_exporter/cAdvisor series to TaskManagers when labels "
              + "do not (env: comma-separated)."),
      Option.single("--max-samples-per-request", "CPD_MAX_SAMPLES_PER_REQUEST", "1000000",
          "Most samples in one remote-write request (413 above)."),
      Option.single("--max-series-per-request", "CPD_MAX_SERIES_PER_REQUEST", "100000",
          "Most series in one remote-write request (400 above)."),
      Option.single("--max-labels-per-series", "CPD_MAX_LABELS_PER_SERIES", "64",
          "Most labels on one series (400 above)."),
      Option.single("--max-label-name-length", "CPD_MAX_LABEL_NAME_LENGTH", "256",
          "Longest label name in bytes (400 above)."),
      Option.single("--max-label-value-length", "CPD_MAX_LABEL_VALUE_LENGTH", "4096",
          "Longest label value in bytes (400 above)."),
      Option.single("--max-series", "CPD_MAX_SERIES", "500000",
          "Most series tracked in total; samples of further new series are dropped and counted."),
      Option.single("--max-series-per-job", "CPD_MAX_SERIES_PER_JOB", "50000",
          "Most series tracked per job_name (or Prometheus job); further new ones are dropped."),
      Option.single("--max-future-skew", "CPD_MAX_FUTURE_SKEW", "10m",
          "Samples further ahead of this clock are dropped and counted (future_timestamp)."),
      Option.single("--max-sample-age", "CPD_MAX_SAMPLE_AGE", "off",
          "Samples older than this are dropped and counted (too_old); off keeps backfill."),
      Option.single("--write-token", "CPD_WRITE_TOKEN", null,
          "Bearer token required on the write endpoint."),
      Option.single("--write-token-file", "CPD_WRITE_TOKEN_FILE", null,
          "File holding the write bearer token."),
      Option.single("--write-basic-auth", "CPD_WRITE_BASIC_AUTH", null,
          "user:password required (basic auth) on the write endpoint."),
      Option.single("--write-basic-auth-file", "CPD_WRITE_BASIC_AUTH_FILE", null,
          "File holding user:password for the write endpoint."),
      Option.single("--api-token", "CPD_API_TOKEN", null,
          "Bearer token required on the API and /metrics (not /healthz, /readyz)."),
      Option.single("--api-token-file", "CPD_API_TOKEN_FILE", null,
          "File holding the API bearer token."),
      Option.single("--api-basic-auth", "CPD_API_BASIC_AUTH", null,
          "user:password required (basic auth) on the API and /metrics."),
      Option.single("--api-basic-auth-file", "CPD_API_BASIC_AUTH_FILE", null,
          "File holding user:password for the API."),
      Option.single("--tls-cert", "CPD_TLS_CERT", null,
          "PEM certificate (chain) to serve HTTPS with; needs --tls-key."),
      Option.single("--tls-key", "CPD_TLS_KEY", null,
          "PEM private key (PKCS#8 or PKCS#1) of --tls-cert."),
      Option.repeatable("--alertmanager-url", "CPD_ALERTMANAGER_URLS",
          "Alertmanager base URL, e.g. http://am:9093; every URL gets every alert, as Prometheus "
              + "does for an HA pair (env: comma-separated). No URL: no alerts."),
      Option.single("--alert-resend-interval", "CPD_ALERT_RESEND_INTERVAL", "1m",
          "How often firing alerts are re-sent; they carry endsAt = now + 4 x this."),
      Option.single("--external-url", "CPD_EXTERNAL_URL", null,
          "URL under which users reach this service (alert generatorURL and runbook_url); "
              + "default http://<host>:<port>."),
      Option.single("--influx-url", "CPD_INFLUX_URL", null,
          "InfluxDB 1.x URL, e.g. http://influx:8086; history is written only when set."),
      Option.single("--influx-db", "CPD_INFLUX_DB", "checkpoint_doctor",
          "InfluxDB database for history (created on start when missing)."),
      Option.single("--influx-user", "CPD_INFLUX_USER", null, "InfluxDB user (optional)."),
      Option.single("--influx-password", "CPD_INFLUX_PASSWORD", null,
          "InfluxDB password (optional; prefer the environment variable)."),
      Option.single("--help", null, null, "Print this help and exit."));

  /** Parses flags over environment over defaults. */
  public static ServiceSettings parse(List<String> args, Map<String, String> env)
      throws SettingsException {
    Map<String, List<String>> values = new LinkedHashMap<>();
    for (Option o : OPTIONS) {
      if (o.env() != null && env.containsKey(o.env()) && !env.get(o.env()).isBlank()) {
        String v = env.get(o.env());
        values.put(o.flag(), o.repeatable() ? splitList(v) : new ArrayList<>(List.of(v)));
      }
    }
    Map<String, List<String>> fromFlags = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      Option o = find(name);
      if (o.flag().equals("--help")) {
        throw new HelpRequested();
      }
      if (value == null) {
        if (i + 1 >= args.size()) {
          throw new SettingsException(name + " needs a value");
        }
        value = args.get(++i);
      }
      List<String> list = fromFlags.computeIfAbsent(o.flag(), k -> new ArrayList<>());
      if (!o.repeatable() && !list.isEmpty()) {
        throw new SettingsException(name + " given more than once");
      }
      list.add(value);
    }
    values.putAll(fromFlags);
    return build(values);
  }

  private static Option find(String name) throws SettingsException {
    for (Option o : OPTIONS) {
      if (o.flag().equals(name)) {
        return o;
      }
    }
    throw new SettingsException("unknown option " + name + " (see --help)");
  }

  private static ServiceSettings build(Map<String, List<String>> v) throws SettingsException {
    Map<String, String> aliases = new LinkedHashMap<>();
    for (String pair : v.getOrDefault("--host-alias", List.of())) {
      int eq = pair.indexOf('=');
      if (eq <= 0 || eq == pair.length() - 1) {
        throw new SettingsException("--host-alias expects FLINK_HOST=NODE, got \"" + pair + "\"");
      }
      aliases.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    int minObs = intOf(v, "--min-observations", 3, 100_000);
    int window = intOf(v, "--window", 3, 4096);
    if (window < minObs) {
      throw new SettingsException("--window (" + window + ") must be at least --min-observations ("
          + minObs + ")");
    }
    DetectorSettings defaults = DetectorSettings.defaults();
    DetectorSettings detector;
    try {
      detector = new DetectorSettings(minObs, window, durationOf(v, "--half-life"),
          doubleOf(v, "--band-width", 0.5, 100), defaults.relativeFloor(),
          intOf(v, "--open-after", 1, 1000), intOf(v, "--resolve-after", 1, 1000),
          newNormalAfter(v), defaults.failureWindow(), durationOf(v, "--checkpoint-timeout"), aliases);
    } catch (IllegalArgumentException e) {
      throw new SettingsException(e.getMessage());
    }
    Path dataDir = Path.of(value(v, "--data-dir"));
    return new ServiceSettings(value(v, "--host"), intOf(v, "--port", 0, 65535), dataDir,
        durationOf(v, "--snapshot-interval"), longOf(v, "--max-body-bytes", 1024, 1L << 30),
        longOf(v, "--max-decompressed-bytes", 1024, Integer.MAX_VALUE - 8),
        intOf(v, "--queue-samples", 1000, 100_000_000), detector, limitsOf(v), accessOf(v),
        alerting(v), influx(v));
  }

  private static Duration newNormalAfter(Map<String, List<String>> v) throws SettingsException {
    String after = value(v, "--new-normal-after");
    return after.equalsIgnoreCase("off") ? Duration.ZERO
        : parseDuration("--new-normal-after", after);
  }

  private static IngestLimits limitsOf(Map<String, List<String>> v) throws SettingsException {
    String age = value(v, "--max-sample-age");
    return new IngestLimits(intOf(v, "--max-series-per-request", 1, 10_000_000),
        intOf(v, "--max-labels-per-series", 1, 10_000),
        intOf(v, "--max-label-name-length", 1, 1 << 20),
        intOf(v, "--max-label-value-length", 1, 1 << 24),
        intOf(v, "--max-samples-per-request", 1, 100_000_000),
        intOf(v, "--max-series", 1, 100_000_000), intOf(v, "--max-series-per-job", 1, 100_000_000),
        durationOf(v, "--max-future-skew"),
        age.equalsIgnoreCase("off") ? null : parseDuration("--max-sample-age", age));
  }

  private static AccessSettings accessOf(Map<String, List<String>> v) throws SettingsException {
    return AccessSettings.of(
        AccessSettings.credentials("write", value(v, "--write-token"),
            value(v, "--write-token-file"), value(v, "--write-basic-auth"),
            value(v, "--write-basic-auth-file")),
        AccessSettings.credentials("api", value(v, "--api-token"), value(v, "--api-token-file"),
            value(v, "--api-basic-auth"), value(v, "--api-basic-auth-file")),
        value(v, "--tls-cert"), value(v, "--tls-key"));
  }

  private static AlertingSettings alerting(Map<String, List<String>> v)
      throws SettingsException {
    List<URI> urls = new ArrayList<>();
    for (String u : v.getOrDefault("--alertmanager-url", List.of())) {
      urls.add(httpUrl("--alertmanager-url", u));
    }
    String external = value(v, "--external-url");
    if (external != null && !external.isBlank()) {
      external = httpUrl("--external-url", external).toString();
    } else {
      external = null;
    }
    return new AlertingSettings(urls, durationOf(v, "--alert-resend-interval"), external);
  }

  private static InfluxSettings influx(Map<String, List<String>> v) throws SettingsException {
    String url = value(v, "--influx-url");
    if (url == null || url.isBlank()) {
      return null;
    }
    String db = value(v, "--influx-db");
    if (db == null || db.isBlank() || db.contains("\"") || db.contains("\n")) {
      throw new SettingsException("--influx-db must be a plain database name, got \"" + db
          + "\"");
    }
    return new InfluxSettings(httpUrl("--influx-url", url).toString(), db,
        value(v, "--influx-user"), value(v, "--influx-password"));
  }

  private static URI httpUrl(String flag, String s) throws SettingsException {
    String trimmed = s.trim();
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    try {
      URI uri = new URI(trimmed);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null) {
        return uri;
      }
    } catch (java.net.URISyntaxException e) {
      // reported below with the flag's name
    }
    throw new SettingsException(flag + " must be an http(s) URL like http://host:9093, got \""
        + s + "\"");
  }

  private static String value(Map<String, List<String>> v, String flag) {
    List<String> given = v.get(flag);
    if (given != null && !given.isEmpty()) {
      return given.get(given.size() - 1).trim();
    }
    return OPTIONS.stream().filter(o -> o.flag().equals(flag)).findFirst().orElseThrow()
        .defaultValue();
  }

  private static int intOf(Map<String, List<String>> v, String flag, int min, int max)
      throws SettingsException {
    return (int) longOf(v, flag, min, max);
  }

  private static long longOf(Map<String, List<String>> v, String flag, long min, long max)
      throws SettingsException {
    String s = value(v, flag);
    try {
      long n = Long.parseLong(s);
      if (n < min || n > max) {
        throw new SettingsException(flag + " must be between " + min + " and " + max + ", got "
            + s);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new SettingsException(flag + " must be a whole number, got \"" + s + "\"");
    }
  }

  private static double doubleOf(Map<String, List<String>> v, String flag, double min,
      double max) throws SettingsException {
    String s = value(v, flag);
    try {
      double d = Double.parseDouble(s);
      if (!(d >= min && d <= max)) {
        throw new SettingsException(flag + " must be between " + min + " and " + max + ", got "
            + s);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new SettingsException(flag + " must be a number, got \"" + s + "\"");
    }
  }

  private static final java.util.regex.Pattern DURATION =
      java.util.regex.Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

  /** Durations as Prometheus writes them: 500ms, 30s, 10m, 2h, 3d. */
  static Duration parseDuration(String flag, String s) throws SettingsException {
    java.util.regex.Matcher m = DURATION.matcher(s.trim().toLowerCase(Locale.ROOT));
    if (m.matches() && Long.parseLong(m.group(1)) > 0) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    throw new SettingsException(flag + " must be a positive duration like 30s, 10m or 2h, got \""
        + s + "\"");
  }

  private static Duration durationOf(Map<String, List<String>> v, String flag)
      throws SettingsException {
    return parseDuration(flag, value(v, flag));
  }

  private static List<String> splitList(String s) {
    List<String> out = new ArrayList<>();
    for (String part : s.split(",")) {
      if (!part.isBlank()) {
        out.add(part.trim());
      }
    }
    return out;
  }

  /** The text of {@code --help}. */
  public static String help() {
    StringBuilder sb = new StringBuilder();
    sb.append("Checkpoint Doctor: learns each Flink job's normal checkpointing from Prometheus\n")
        .append("remote-write and explains when it goes wrong.\n\n")
        .append("Usage: java -jar checkpoint-doctor.jar [OPTIONS]\n\nOptions (flag, env):\n");
    for (Option o : OPTIONS) {
      sb.append(String.format("  %-28s %s%n", o.flag() + (o.flag().equals("--help") ? ""
          : o.repeatable() ? " VALUE (repeatable)" : " VALUE"), o.description()));
      if (o.env() != null) {
        sb.append(String.format("  %-28s env %s%s%n", "", o.env(),
            o.defaultValue() == null ? "" : ", default " + o.defaultValue()));
      }
    }
    return sb.toString();
  }

  /** Thrown by {@link #parse} when --help is given. */
  public static final class HelpRequested extends RuntimeException {
    HelpRequested() {
      super("help", null, false, false);
    }
  }
}
