package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.alerting.AlertPolicy;
import dev.checkpointdoctor.api.alerting.AlertingSettings;
import dev.checkpointdoctor.api.bootstrap.BootstrapSettings;
import dev.checkpointdoctor.api.fleet.FleetSettings;
import dev.checkpointdoctor.api.flinkrest.FlinkRestSettings;
import dev.checkpointdoctor.api.history.InfluxSettings;
import dev.checkpointdoctor.api.http.Credentials;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
    Duration queueWait,
    int detectorThreads,
    DetectorSettings detector,
    IngestLimits limits,
    AccessSettings access,
    AlertingSettings alerting,
    InfluxSettings influx,
    FlinkRestSettings flinkRest,
    DeliverySettings delivery,
    BootstrapSettings bootstrap,
    FleetSettings fleet) {

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
          "Samples that may wait for the detector; beyond this writes wait for room."),
      Option.single("--queue-wait", "CPD_QUEUE_WAIT", "10s",
          "How long a write may wait for room in a full queue before it gets 503 (0s: at once)."),
      Option.single("--detector-threads", "CPD_DETECTOR_THREADS", null,
          "Threads that run the detector, jobs spread over them by job key (default: the "
              + "number of cores)."),
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
      Option.single("--max-delivery-lag", "CPD_MAX_DELIVERY_LAG", "5m",
          "How far (event time) one source or shard may run behind another and still be "
              + "gathered and joined as if sent in order."),
      Option.single("--ha-replica-label", "CPD_HA_REPLICA_LABEL", null,
          "External label telling an HA pair's Prometheus replicas apart (e.g. "
              + "prometheus_replica): learn from one replica per source, fail over to the other."),
      Option.single("--ha-failover-timeout", "CPD_HA_FAILOVER_TIMEOUT", "30s",
          "How long (event time) the elected replica may send nothing before the other is "
              + "elected."),
      Option.single("--job-identity-labels", "CPD_JOB_IDENTITY_LABELS", null,
          "Comma-separated labels that with job_name identify a job (e.g. cluster): jobs of the "
              + "same name in different clusters are kept apart."),
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
      Option.toggle("--alert-unknown", "CPD_ALERT_UNKNOWN",
          "Also alert diagnoses whose cause is unknown while checkpoints still complete "
              + "(failing checkpoints are always alerted)."),
      Option.single("--forecast-horizon", "CPD_FORECAST_HORIZON", "24h",
          "A forecast of checkpoints reaching the timeout within this long makes the alert "
              + "critical."),
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
      Option.single("--bootstrap-url", "CPD_BOOTSTRAP_URL", null,
          "Prometheus-compatible query API (Prometheus, Thanos, Mimir, VictoriaMetrics) to read "
              + "each job's history from at start and when a job first appears; none: jobs "
              + "learn from live samples only."),
      Option.single("--bootstrap-window", "CPD_BOOTSTRAP_WINDOW", "7d",
          "How much history to read (checkpoint series; per-scrape series: the last day of it)."),
      Option.single("--bootstrap-token", "CPD_BOOTSTRAP_TOKEN", null,
          "Bearer token sent to --bootstrap-url."),
      Option.single("--bootstrap-token-file", "CPD_BOOTSTRAP_TOKEN_FILE", null,
          "File holding the bearer token for --bootstrap-url."),
      Option.single("--bootstrap-basic-auth", "CPD_BOOTSTRAP_BASIC_AUTH", null,
          "user:password sent (basic auth) to --bootstrap-url."),
      Option.single("--bootstrap-basic-auth-file", "CPD_BOOTSTRAP_BASIC_AUTH_FILE", null,
          "File holding user:password for --bootstrap-url."),
      Option.single("--bootstrap-ca-file", "CPD_BOOTSTRAP_CA_FILE", null,
          "PEM CA certificate(s) to trust for an https --bootstrap-url."),
      Option.single("--bootstrap-timeout", "CPD_BOOTSTRAP_TIMEOUT", "30s",
          "Longest wait for one answer of --bootstrap-url; slower counts as down."),
      Option.single("--bootstrap-blocks-readiness", "CPD_BOOTSTRAP_BLOCKS_READINESS", "false",
          "true: /readyz answers 503 until the start-up bootstrap is done."),
      Option.single("--bootstrap-hold-samples", "CPD_BOOTSTRAP_HOLD_SAMPLES", "2000000",
          "Most live samples held while their jobs bootstrap; beyond, dropped and counted."),
      Option.single("--shard", "CPD_SHARD", null,
          "This instance's shard I/N, counted from 0: it keeps the jobs whose hashmod of "
              + "--shard-labels is I (as deploy remote-write relabels them); others are counted."),
      Option.single("--shard-labels", "CPD_SHARD_LABELS", "job_name",
          "Comma-separated labels a job's shard is hashed from, as in the Prometheus "
              + "relabelling (e.g. cluster,job_name)."),
      Option.repeatable("--peer", "CPD_PEERS",
          "Base URL of another instance, e.g. http://cpd-1:9877 (env: comma-separated): the "
              + "jobs and anomalies lists merge every instance's."),
      Option.single("--peers-dns", "CPD_PEERS_DNS", null,
          "NAME:PORT of a headless Service: every address NAME resolves to (again every 15s) "
              + "is a peer."),
      Option.single("--peer-timeout", "CPD_PEER_TIMEOUT", "2s",
          "How long a peer may take to answer before the merged lists report it unreachable."),
      Option.repeatable("--flink-rest-url", "CPD_FLINK_REST_URLS",
          "Flink JobManager REST URL, e.g. http://jobmanager:8081, repeatable (env: "
              + "comma-separated); its checkpoint timeout, interval, storage and per-subtask "
              + "checkpoint details join the diagnosis. None: metrics only."),
      Option.single("--flink-rest-interval", "CPD_FLINK_REST_INTERVAL", "30s",
          "How often each JobManager's REST API is read."),
      Option.single("--flink-rest-token", "CPD_FLINK_REST_TOKEN", null,
          "Bearer token sent to the JobManager REST API."),
      Option.single("--flink-rest-token-file", "CPD_FLINK_REST_TOKEN_FILE", null,
          "File holding that bearer token."),
      Option.single("--flink-rest-basic-auth", "CPD_FLINK_REST_BASIC_AUTH", null,
          "user:password sent (basic auth) to the JobManager REST API."),
      Option.single("--flink-rest-basic-auth-file", "CPD_FLINK_REST_BASIC_AUTH_FILE", null,
          "File holding user:password for the JobManager REST API."),
      Option.single("--flink-rest-ca-file", "CPD_FLINK_REST_CA_FILE", null,
          "PEM CA certificate(s) trusted for https JobManager URLs (default: the JVM's)."),
      Option.single("--help", null, null, "Print this help and exit."),
      Option.single("--version", null, null, "Print the version and exit."));

  /** Parses flags over environment over defaults. */
  public static ServiceSettings parse(List<String> args, Map<String, String> env)
      throws SettingsException {
    Values values = new Values();
    for (Option o : OPTIONS) {
      if (o.env() != null && env.containsKey(o.env()) && !env.get(o.env()).isBlank()) {
        String v = env.get(o.env());
        values.put(o.flag(), o.repeatable() ? splitList(v) : new ArrayList<>(List.of(v)),
            o.env());
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
      if (name.equals("-h")) {
        throw new HelpRequested();
      }
      Option o = find(name);
      if (o.flag().equals("--help")) {
        throw new HelpRequested();
      }
      if (o.flag().equals("--version")) {
        throw new VersionRequested();
      }
      if (value == null && o.toggle()) {
        value = "true";
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
    fromFlags.forEach((flag, list) -> values.put(flag, list, flag));
    return build(values);
  }

  /**
   * The values given, by flag, and where each came from: an error about a value set in the
   * environment names the variable, one set on the command line the flag.
   */
  private static final class Values {
    private final Map<String, List<String>> given = new LinkedHashMap<>();
    private final Map<String, String> source = new LinkedHashMap<>();

    void put(String flag, List<String> list, String from) {
      given.put(flag, list);
      source.put(flag, from);
    }

    List<String> all(String flag) {
      return given.getOrDefault(flag, List.of());
    }

    /** The flag, or the environment variable its value came from. */
    String name(String flag) {
      return source.getOrDefault(flag, flag);
    }

    String get(String flag) {
      List<String> list = given.get(flag);
      if (list != null && !list.isEmpty()) {
        return list.get(list.size() - 1).trim();
      }
      return OPTIONS.stream().filter(o -> o.flag().equals(flag)).findFirst().orElseThrow()
          .defaultValue();
    }
  }

  private static Option find(String name) throws SettingsException {
    for (Option o : OPTIONS) {
      if (o.flag().equals(name)) {
        return o;
      }
    }
    throw new SettingsException("unknown option " + name + " (see --help)");
  }

  private static ServiceSettings build(Values v) throws SettingsException {
    Map<String, String> aliases = new LinkedHashMap<>();
    for (String pair : v.all("--host-alias")) {
      int eq = pair.indexOf('=');
      if (eq <= 0 || eq == pair.length() - 1) {
        throw new SettingsException(v.name("--host-alias") + " expects FLINK_HOST=NODE, got \""
            + pair + "\"");
      }
      aliases.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    int minObs = intOf(v, "--min-observations", 3, 100_000);
    int window = intOf(v, "--window", 3, 4096);
    if (window < minObs) {
      throw new SettingsException(v.name("--window") + " (" + window + ") must be at least "
          + v.name("--min-observations") + " (" + minObs + ")");
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
    String dir = v.get("--data-dir");
    if (dir == null || dir.isBlank()) {
      throw new SettingsException(v.name("--data-dir") + " must name a directory");
    }
    Path dataDir = Path.of(dir);
    DeliverySettings delivery = delivery(v);
    FleetSettings fleet = fleetOf(v);
    FleetFlags.checkAgainstDelivery(fleet.shard(), delivery, v::name);
    return new ServiceSettings(v.get("--host"), intOf(v, "--port", 0, 65535), dataDir,
        durationOf(v, "--snapshot-interval"), longOf(v, "--max-body-bytes", 1024, 1L << 30),
        longOf(v, "--max-decompressed-bytes", 1024, Integer.MAX_VALUE - 8),
        intOf(v, "--queue-samples", 1000, 100_000_000), queueWait(v), detectorThreads(v),
        detector, limitsOf(v), accessOf(v), alerting(v), influx(v), flinkRest(v), delivery,
        bootstrap(v), fleet);
  }

  /** Most detector threads: a shard index travels as a byte, and more helps no machine here. */
  static final int MAX_DETECTOR_THREADS = 64;

  private static int detectorThreads(Values v) throws SettingsException {
    if (v.get("--detector-threads") == null) {
      return Math.min(MAX_DETECTOR_THREADS, Runtime.getRuntime().availableProcessors());
    }
    return intOf(v, "--detector-threads", 1, MAX_DETECTOR_THREADS);
  }

  private static Duration queueWait(Values v) throws SettingsException {
    String s = v.get("--queue-wait");
    if (s.trim().matches("0(ms|s|m|h|d)?")) {
      return Duration.ZERO;
    }
    Duration d = durationOf(v, "--queue-wait");
    if (d.compareTo(Duration.ofMinutes(5)) > 0) {
      throw new SettingsException(v.name("--queue-wait") + " must be at most 5m (Prometheus gives "
          + "up on a request after its remote_timeout, 30s by default), got \"" + s + "\"");
    }
    return d;
  }

  private static FleetSettings fleetOf(Values v) throws SettingsException {
    List<URI> peers = new ArrayList<>();
    for (String p : v.all("--peer")) {
      peers.add(httpUrl(v.name("--peer"), p));
    }
    return FleetFlags.parse(v.get("--shard"), v.get("--shard-labels"), peers,
        v.get("--peers-dns"), durationOf(v, "--peer-timeout"), v::name);
  }

  private static final List<String> BOOTSTRAP_DEPENDENT = List.of("--bootstrap-token",
      "--bootstrap-token-file", "--bootstrap-basic-auth", "--bootstrap-basic-auth-file",
      "--bootstrap-ca-file");

  private static BootstrapSettings bootstrap(Values v) throws SettingsException {
    String url = v.get("--bootstrap-url");
    if (url == null || url.isBlank()) {
      for (String flag : BOOTSTRAP_DEPENDENT) {
        if (!v.all(flag).isEmpty()) {
          throw new SettingsException(v.name(flag) + " is set but --bootstrap-url is not");
        }
      }
      return null;
    }
    Path ca = readableFile(v, "--bootstrap-ca-file");
    String blocks = v.get("--bootstrap-blocks-readiness");
    if (!blocks.equalsIgnoreCase("true") && !blocks.equalsIgnoreCase("false")) {
      throw new SettingsException(v.name("--bootstrap-blocks-readiness")
          + " must be true or false, got \"" + blocks + "\"");
    }
    return new BootstrapSettings(httpUrl(v.name("--bootstrap-url"), url),
        durationOf(v, "--bootstrap-window"), credentialsOf(v, "bootstrap"), ca,
        durationOf(v, "--bootstrap-timeout"), Boolean.parseBoolean(blocks),
        longOf(v, "--bootstrap-hold-samples", 1000, 1_000_000_000));
  }

  private static Duration newNormalAfter(Values v) throws SettingsException {
    String after = v.get("--new-normal-after");
    return after.equalsIgnoreCase("off") ? Duration.ZERO
        : parseDuration(v.name("--new-normal-after"), after);
  }

  private static DeliverySettings delivery(Values v) throws SettingsException {
    String replica = v.get("--ha-replica-label");
    String identity = v.get("--job-identity-labels");
    List<String> identityLabels = identity == null ? List.of() : splitList(identity);
    try {
      return new DeliverySettings(durationOf(v, "--max-delivery-lag"),
          replica == null || replica.isBlank() ? null : replica,
          durationOf(v, "--ha-failover-timeout"), identityLabels);
    } catch (IllegalArgumentException e) {
      throw new SettingsException(v.name("--ha-replica-label") + "/"
          + v.name("--job-identity-labels") + ": " + e.getMessage());
    }
  }

  private static IngestLimits limitsOf(Values v) throws SettingsException {
    String age = v.get("--max-sample-age");
    return new IngestLimits(intOf(v, "--max-series-per-request", 1, 10_000_000),
        intOf(v, "--max-labels-per-series", 1, 10_000),
        intOf(v, "--max-label-name-length", 1, 1 << 20),
        intOf(v, "--max-label-value-length", 1, 1 << 24),
        intOf(v, "--max-samples-per-request", 1, 100_000_000),
        intOf(v, "--max-series", 1, 100_000_000), intOf(v, "--max-series-per-job", 1, 100_000_000),
        durationOf(v, "--max-future-skew"),
        age.equalsIgnoreCase("off") ? null : parseDuration(v.name("--max-sample-age"), age));
  }

  private static AccessSettings accessOf(Values v) throws SettingsException {
    return AccessSettings.of(
        credentialsOf(v, "write"), credentialsOf(v, "api"),
        v.get("--tls-cert"), v.get("--tls-key"), v::name);
  }

  private static AlertingSettings alerting(Values v) throws SettingsException {
    List<URI> urls = new ArrayList<>();
    for (String u : v.all("--alertmanager-url")) {
      urls.add(httpUrl(v.name("--alertmanager-url"), u));
    }
    String external = v.get("--external-url");
    if (external != null && !external.isBlank()) {
      external = httpUrl(v.name("--external-url"), external).toString();
    } else {
      external = null;
    }
    return new AlertingSettings(urls, durationOf(v, "--alert-resend-interval"), external,
        new AlertPolicy(booleanOf(v, "--alert-unknown"), durationOf(v, "--forecast-horizon")));
  }

  private static boolean booleanOf(Values v, String flag) throws SettingsException {
    String s = v.get(flag);
    if (s.equalsIgnoreCase("true")) {
      return true;
    }
    if (s.equalsIgnoreCase("false")) {
      return false;
    }
    throw new SettingsException(v.name(flag) + " must be true or false, got \"" + s + "\"");
  }

  private static InfluxSettings influx(Values v) throws SettingsException {
    String url = v.get("--influx-url");
    if (url == null || url.isBlank()) {
      return null;
    }
    String db = v.get("--influx-db");
    if (db == null || db.isBlank() || db.contains("\"") || db.contains("\n")) {
      throw new SettingsException(v.name("--influx-db") + " must be a plain database name, got \""
          + db + "\"");
    }
    return new InfluxSettings(httpUrl(v.name("--influx-url"), url).toString(), db,
        v.get("--influx-user"), v.get("--influx-password"));
  }

  private static FlinkRestSettings flinkRest(Values v) throws SettingsException {
    List<URI> urls = new ArrayList<>();
    for (String u : v.all("--flink-rest-url")) {
      URI uri = httpUrl(v.name("--flink-rest-url"), u);
      if (!urls.contains(uri)) {
        urls.add(uri);
      }
    }
    return new FlinkRestSettings(urls, durationOf(v, "--flink-rest-interval"),
        credentialsOf(v, "flink-rest"), readableFile(v, "--flink-rest-ca-file"));
  }

  /** The --PREFIX-token, -token-file, -basic-auth and -basic-auth-file of one endpoint. */
  private static Credentials credentialsOf(Values v, String prefix)
      throws SettingsException {
    String f = "--" + prefix;
    return AccessSettings.credentials(prefix, v.get(f + "-token"), v.get(f + "-token-file"),
        v.get(f + "-basic-auth"), v.get(f + "-basic-auth-file"), v::name);
  }

  /** The file a flag names, or null when unset; one that cannot be read stops the start. */
  private static Path readableFile(Values v, String flag) throws SettingsException {
    String file = v.get(flag);
    if (file == null || file.isBlank()) {
      return null;
    }
    Path path = Path.of(file);
    if (!java.nio.file.Files.isReadable(path)) {
      throw new SettingsException(v.name(flag) + ": cannot read " + file);
    }
    return path;
  }

  private static URI httpUrl(String name, String s) throws SettingsException {
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
    throw new SettingsException(name + " must be an http(s) URL like http://host:9093, got \""
        + s + "\"");
  }

  private static int intOf(Values v, String flag, int min, int max) throws SettingsException {
    return (int) longOf(v, flag, min, max);
  }

  private static long longOf(Values v, String flag, long min, long max)
      throws SettingsException {
    String s = v.get(flag);
    try {
      long n = Long.parseLong(s);
      if (n < min || n > max) {
        throw new SettingsException(v.name(flag) + " must be between " + min + " and " + max
            + ", got " + s);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new SettingsException(v.name(flag) + " must be a whole number, got \"" + s + "\"");
    }
  }

  private static double doubleOf(Values v, String flag, double min, double max)
      throws SettingsException {
    String s = v.get(flag);
    try {
      double d = Double.parseDouble(s);
      if (!(d >= min && d <= max)) {
        throw new SettingsException(v.name(flag) + " must be between " + min + " and " + max
            + ", got " + s);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new SettingsException(v.name(flag) + " must be a number, got \"" + s + "\"");
    }
  }

  /** A duration in Prometheus syntax ({@link PromDuration}); {@code name} is the flag or env. */
  static Duration parseDuration(String name, String s) throws SettingsException {
    try {
      return PromDuration.parsePositive(s);
    } catch (IllegalArgumentException e) {
      throw new SettingsException(name + " " + e.getMessage());
    }
  }

  private static Duration durationOf(Values v, String flag) throws SettingsException {
    return parseDuration(v.name(flag), v.get(flag));
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
    return ServiceHelp.text(OPTIONS);
  }

  /** Thrown by {@link #parse} when --help is given. */
  public static final class HelpRequested extends RuntimeException {
    HelpRequested() {
      super("help", null, false, false);
    }
  }

  /** Thrown by {@link #parse} when --version is given. */
  public static final class VersionRequested extends RuntimeException {
    VersionRequested() {
      super("version", null, false, false);
    }
  }
}
