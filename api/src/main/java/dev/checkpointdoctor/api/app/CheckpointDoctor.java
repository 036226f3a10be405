package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.alerting.AlertNotifier;
import dev.checkpointdoctor.api.bootstrap.Bootstrap;
import dev.checkpointdoctor.api.bootstrap.HistoryFilter;
import dev.checkpointdoctor.api.fleet.FleetSettings;
import dev.checkpointdoctor.api.fleet.FleetView;
import dev.checkpointdoctor.api.fleet.PeerClient;
import dev.checkpointdoctor.api.fleet.PeerDirectory;
import dev.checkpointdoctor.api.flinkrest.FlinkFactsStore;
import dev.checkpointdoctor.api.flinkrest.FlinkRestPoller;
import dev.checkpointdoctor.api.history.InfluxHistory;
import dev.checkpointdoctor.api.http.HttpService;
import dev.checkpointdoctor.api.ingest.DetectorWorker;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.api.series.SeriesFeed;
import dev.checkpointdoctor.api.series.SeriesStore;
import dev.checkpointdoctor.api.shard.ShardSpec;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.facts.MountTable;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.pipeline.DetectorState;
import dev.checkpointdoctor.detector.pipeline.ShardedDetector;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import dev.checkpointdoctor.detector.model.JobSummary;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The running service: wiring of catalog, detector, worker, HTTP and snapshots. {@link #start}
 * returns once it listens; {@link #stop} drains what was accepted and snapshots it.
 */
public final class CheckpointDoctor implements AutoCloseable {
  private static final Logger logger = Logger.getLogger(CheckpointDoctor.class.getName());

  private final ServiceSettings settings;
  private final SnapshotStore snapshots;
  private final ShardedDetector detector;
  private final DetectorWorker worker;
  private final SeriesFeed seriesFeed;
  private final Vertx vertx;
  private final Listeners server;
  private final long snapshotTimer;
  private final AlertNotifier alerts;
  private final InfluxHistory history;
  private final Bootstrap bootstrap;
  private final FlinkRestPoller poller;
  private volatile boolean stopped;

  private CheckpointDoctor(ServiceSettings settings, SnapshotStore snapshots,
      ShardedDetector detector,
      DetectorWorker worker, SeriesFeed seriesFeed, Vertx vertx, Listeners server,
      long snapshotTimer, AlertNotifier alerts, InfluxHistory history, Bootstrap bootstrap,
      FlinkRestPoller poller) {
    this.settings = settings;
    this.snapshots = snapshots;
    this.detector = detector;
    this.worker = worker;
    this.seriesFeed = seriesFeed;
    this.vertx = vertx;
    this.server = server;
    this.snapshotTimer = snapshotTimer;
    this.alerts = alerts;
    this.history = history;
    this.bootstrap = bootstrap;
    this.poller = poller;
  }

  public static CheckpointDoctor start(ServiceSettings settings, Clock clock) throws Exception {
    SnapshotStore snapshots = new SnapshotStore(settings.dataDir(), clock);
    SnapshotStore.Loaded loaded = snapshots.load();
    SignalCatalog catalog = SignalCatalog.defaults();
    // Flink REST facts (empty unless --flink-rest-url) and node_exporter's mounts reach the
    // cause ranker at diagnosis time
    FlinkFactsStore facts = new FlinkFactsStore();
    MountTable mounts = new MountTable();
    ShardedDetector detector;
    int threads = settings.detectorThreads();
    java.util.function.Supplier<dev.checkpointdoctor.detector.pipeline.Diagnoser> rankers =
        () -> new CauseRanker(settings.detector(), facts, mounts);
    try {
      detector = loaded.state() == null
          ? new ShardedDetector(catalog, settings.detector(), settings.delivery(), rankers,
              threads)
          : new ShardedDetector(catalog, settings.detector(), settings.delivery(), rankers,
              threads, loaded.state());
    } catch (RuntimeException e) {
      logger.log(Level.WARNING, "snapshot could not be restored (" + e.getMessage()
          + "); starting empty");
      detector = new ShardedDetector(catalog, settings.detector(), settings.delivery(), rankers,
          threads);
      loaded = new SnapshotStore.Loaded(null, "snapshot not restorable (" + e.getMessage()
          + "), starting empty");
    }
    detector.limitSeries(settings.limits().maxSeries(), settings.limits().maxSeriesPerJob());
    detector.recordMountsIn(mounts);
    SeriesStore series = new SeriesStore();
    SeriesFeed seriesFeed = new SeriesFeed(series);
    detector.addListener(seriesFeed);
    DetectorWorker worker = new DetectorWorker(detector, settings.queueSamples(),
        settings.queueWait());
    ServiceMetrics metrics = new ServiceMetrics();
    metrics.bindDetector(detector, worker::queuedSamples, worker::busyNanos,
        settings.fleet().shard().sharded());
    metrics.bindSnapshots(snapshots::savedCount, snapshots::failedCount,
        snapshots::lastSuccessMs);
    Bootstrap bootstrap = null;
    java.util.Set<String> restoredJobs = new java.util.TreeSet<>();
    // by job_name: a bootstrap reads and holds a job_name's series (of every cluster with
    // --job-identity-labels), so a name restored in any cluster is not read again
    for (JobSummary j : detector.jobs()) {
      restoredJobs.add(detector.jobIdentity().jobName(j.job()));
    }
    if (settings.bootstrap() != null) {
      bootstrap = new Bootstrap(settings.bootstrap(), settings.detector(), catalog, clock,
          detector, worker, metrics, restoredJobs, seriesFeed::busy);
      metrics.bindBootstrap(bootstrap, Bootstrap.problemReasons());
    }
    InfluxHistory history = null;
    if (settings.influx() != null) {
      history = new InfluxHistory(settings.influx(), metrics, Duration.ofSeconds(1),
          InfluxHistory.BUFFER_POINTS, detector.jobIdentity(),
          settings.alerting().policy().forecastHorizon());
      detector.addListener(bootstrap == null ? history
          : HistoryFilter.liveOnly(history, detector));
    }
    AlertNotifier alerts = null;
    if (settings.alerting().enabled()) {
      ShardedDetector source = detector;
      alerts = new AlertNotifier(settings.alerting(), clock, source::diagnosis,
          d -> source.anomalies(d.job(), true, Long.MIN_VALUE).stream()
              .mapToLong(Anomaly::startedAtMs).min().orElse(d.sinceMs()), metrics,
          detector.jobIdentity());
      ShardSpec shard = settings.fleet().shard();
      int notOwned = 0;
      java.util.Set<String> announced = new java.util.HashSet<>();
      for (JobSummary job : detector.jobs()) {
        // A job that moved to another shard (N changed) is alerted there once it is learned;
        // its frozen diagnosis here would otherwise be re-sent for ever.
        if (shard.shardOfJob(job.job(), detector.jobIdentity()).orElse(shard.index())
            != shard.index()) {
          notOwned++;
          continue;
        }
        java.util.Optional<dev.checkpointdoctor.detector.model.Diagnosis> d =
            detector.diagnosis(job.job());
        if (d.isPresent()) {
          alerts.restored(d.get());
          announced.add(job.job());
        }
      }
      if (notOwned > 0) {
        logger.info(notOwned + " restored jobs belong to other shards now (--shard "
            + shard.label() + "); their alerts are left to those shards");
      }
      detector.addListener(bootstrap == null ? alerts
          : HistoryFilter.liveAlerts(alerts, detector, announced));
    }
    Vertx vertx = Vertx.vertx();
    FleetSettings fleetSettings = settings.fleet();
    PeerDirectory peers = null;
    PeerClient peerClient = null;
    if (fleetSettings.hasPeers()) {
      peers = PeerDirectory.system(fleetSettings, Listener.scheme(settings));
      peerClient = new PeerClient(vertx, fleetSettings.peerTimeout(), settings.access().api(),
          settings.access().tlsCert());
    }
    FleetView fleet = new FleetView(fleetSettings.shard().label(), peers, peerClient);
    DecodeLimits limits = settings.limits().decodeLimits(settings.maxBodyBytes(),
        settings.maxDecompressedBytes());
    Listeners server;
    Bootstrap b = bootstrap;
    if (bootstrap != null) {
      bootstrap.start(); // holds live samples from the first one on
    }
    try {
      server = Listeners.listen(vertx, Listener.options(settings),
          HttpService.router(vertx, detector, worker, metrics, limits, catalog, series,
              snapshots::problem, b == null ? () -> null : b::progress,
              b == null ? () -> false : b::blocksReadiness, Listener.policy(settings, clock),
              fleet, facts, settings.alerting().policy()),
          Listeners.defaultCount());
    } catch (Exception e) {
      if (bootstrap != null) {
        bootstrap.close();
      }
      worker.close();
      seriesFeed.close();
      if (alerts != null) {
        alerts.close();
      }
      if (history != null) {
        history.close();
      }
      vertx.close();
      throw new IOException("cannot listen on " + settings.host() + ":" + settings.port() + ": "
          + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
    }
    ShardedDetector d = detector;
    String scheme = Listener.scheme(settings);
    // Bound to every address, the UI is reached under the machine's name, not 0.0.0.0.
    String reach = settings.alerting().externalUrl() != null ? settings.alerting().externalUrl()
        : defaultExternalUrl(settings.host(), server.port()).replaceFirst("^http:", scheme + ":");
    fleet.listening(reach);
    if (peers != null) {
      startPeerDiscovery(vertx, peers, settings.host(), server.port());
    }
    if (history != null) {
      logger.info("writing history to " + settings.influx().url() + " database "
          + settings.influx().database());
    }
    if (alerts != null) {
      String external = settings.alerting().externalUrl() != null
          ? settings.alerting().externalUrl() : defaultExternalUrl(settings.host(),
              server.port());
      alerts.start(external);
      logger.info("sending alerts to " + settings.alerting().alertmanagers() + " every "
          + PromDuration.format(settings.alerting().resendInterval()) + "; links under "
          + external);
    }
    FlinkRestPoller poller = null;
    if (settings.flinkRest().enabled()) {
      metrics.bindFlinkRest(facts::size);
      poller = new FlinkRestPoller(vertx, settings.flinkRest(), facts, metrics, clock,
          settings.fleet().shard()::mayHoldJobName);
      poller.start();
      logger.info("reading Flink REST " + settings.flinkRest().endpoints() + " every "
          + PromDuration.format(settings.flinkRest().interval()));
    }
    long timer = vertx.setPeriodic(settings.snapshotInterval().toMillis(),
        id -> vertx.executeBlocking(() -> snapshotLogged(snapshots, d), false));
    String base = scheme + "://" + settings.host() + ":" + server.port();
    logger.info("Checkpoint Doctor listening on " + base + " (web UI " + reach + "/ui/, "
        + "remote-write /api/v1/write, API /api/v1, metrics /metrics); loaded "
        + loaded.description() + "; snapshots every "
        + PromDuration.format(settings.snapshotInterval()) + " to " + snapshots.file()
        + "; baselines ready after " + settings.detector().minObservations()
        + " observations (--min-observations); " + threads + " detector thread(s)"
        + " (--detector-threads)" + (bootstrap == null ? ""
            : "; learning from " + PromDuration.format(settings.bootstrap().window())
                + " of history at " + settings.bootstrap().url()
                + (settings.bootstrap().blocksReadiness() ? " (/readyz 503 until done)" : "")));
    return new CheckpointDoctor(settings, snapshots, detector, worker, seriesFeed, vertx, server,
        timer, alerts, history, bootstrap, poller);
  }

  /** How often the --peers-dns name is resolved again (pods come and go). */
  static final long PEER_DNS_REFRESH_MS = 15_000;

  private static void startPeerDiscovery(Vertx vertx, PeerDirectory peers, String host,
      int port) {
    peers.listensOn(host, port);
    if (peers.dnsName() == null) {
      logger.info("peers: " + peers.peers());
      return;
    }
    peers.refresh();
    logger.info("peers: " + peers.peers() + " (" + peers.dnsName() + " resolved again every "
        + PEER_DNS_REFRESH_MS / 1000 + "s)");
    vertx.setPeriodic(PEER_DNS_REFRESH_MS, id -> vertx.executeBlocking(() -> {
      peers.refresh();
      return null;
    }, false));
  }

  /**
   * One periodic snapshot. A failure is logged with its reason when it starts and when it ends,
   * not every interval; meanwhile /readyz fails and /metrics counts the failures.
   */
  private static Void snapshotLogged(SnapshotStore snapshots, ShardedDetector detector) {
    boolean wasFailing = snapshots.problem() != null;
    try {
      snapshots.save(detector.snapshot());
      if (wasFailing) {
        logger.info("snapshots work again: " + snapshots.file());
      }
    } catch (IOException | RuntimeException e) {
      if (!wasFailing) {
        logger.warning(snapshots.problem() + "; /readyz answers 503 until a snapshot succeeds");
      }
    }
    return null;
  }

  /** Like Prometheus: the host as configured, or this machine's name when bound to any. */
  static String defaultExternalUrl(String host, int port) {
    String h = host;
    if (h.equals("0.0.0.0") || h.equals("::") || h.isBlank()) {
      try {
        h = InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        h = "localhost";
      }
    }
    if (h.contains(":") && !h.startsWith("[")) {
      h = "[" + h + "]";
    }
    return "http://" + h + ":" + port;
  }

  public int port() {
    return server.port();
  }

  public ShardedDetector detector() {
    return detector;
  }

  public DetectorWorker worker() {
    return worker;
  }

  /** The bootstrap from history, or null without --bootstrap-url. */
  public Bootstrap bootstrap() {
    return bootstrap;
  }

  public ServiceSettings settings() {
    return settings;
  }

  /** Stops listening, processes everything already accepted, then snapshots. Idempotent. */
  public synchronized void stop() throws Exception {
    if (stopped) {
      return;
    }
    stopped = true;
    vertx.cancelTimer(snapshotTimer);
    if (poller != null) {
      poller.close();
    }
    server.close();
    if (bootstrap != null) {
      bootstrap.close(); // releases held live samples into the worker before it drains
    }
    worker.close();
    seriesFeed.close();
    if (alerts != null) {
      alerts.close();
    }
    if (history != null) {
      history.close();
    }
    DetectorState state = detector.snapshot();
    long bytes = snapshots.save(state);
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    int jobs = state.lastSeenMs().size();
    logger.info(String.format(java.util.Locale.ROOT, "stopped; saved %d baselines of %d job%s, "
            + "%d open and %d resolved anomalies (%,d bytes) to %s", state.trackers().size(),
        jobs, jobs == 1 ? "" : "s", state.trackers().stream()
            .filter(t -> t.openAnomaly() != null).count(), state.resolved().size(), bytes,
        snapshots.file()));
  }

  @Override
  public void close() throws Exception {
    stop();
  }
}
