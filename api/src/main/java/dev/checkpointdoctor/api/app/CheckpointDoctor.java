package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.alerting.AlertNotifier;
import dev.checkpointdoctor.api.flinkrest.FlinkFactsStore;
import dev.checkpointdoctor.api.flinkrest.FlinkRestPoller;
import dev.checkpointdoctor.api.history.InfluxHistory;
import dev.checkpointdoctor.api.http.HttpService;
import dev.checkpointdoctor.api.ingest.DetectorWorker;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.api.series.SeriesFeed;
import dev.checkpointdoctor.api.series.SeriesStore;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.facts.MountTable;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorState;
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
  private final Detector detector;
  private final DetectorWorker worker;
  private final SeriesFeed seriesFeed;
  private final Vertx vertx;
  private final Listeners server;
  private final long snapshotTimer;
  private final AlertNotifier alerts;
  private final InfluxHistory history;
  private final FlinkRestPoller poller;
  private volatile boolean stopped;

  private CheckpointDoctor(ServiceSettings settings, SnapshotStore snapshots, Detector detector,
      DetectorWorker worker, SeriesFeed seriesFeed, Vertx vertx, Listeners server,
      long snapshotTimer, AlertNotifier alerts, InfluxHistory history, FlinkRestPoller poller) {
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
    Detector detector;
    try {
      detector = new Detector(catalog, settings.detector(), settings.delivery(),
          new CauseRanker(settings.detector(), facts, mounts), loaded.state());
    } catch (RuntimeException e) {
      logger.log(Level.WARNING, "snapshot could not be restored (" + e.getMessage()
          + "); starting empty");
      detector = new Detector(catalog, settings.detector(), settings.delivery(),
          new CauseRanker(settings.detector(), facts, mounts));
      loaded = new SnapshotStore.Loaded(null, "snapshot not restorable (" + e.getMessage()
          + "), starting empty");
    }
    detector.limitSeries(settings.limits().maxSeries(), settings.limits().maxSeriesPerJob());
    detector.recordMountsIn(mounts);
    SeriesStore series = new SeriesStore();
    SeriesFeed seriesFeed = new SeriesFeed(series);
    detector.addListener(seriesFeed);
    DetectorWorker worker = new DetectorWorker(detector, settings.queueSamples());
    ServiceMetrics metrics = new ServiceMetrics();
    metrics.bindDetector(detector, worker::queuedSamples);
    metrics.bindSnapshots(snapshots::savedCount, snapshots::failedCount,
        snapshots::lastSuccessMs);
    InfluxHistory history = null;
    if (settings.influx() != null) {
      history = new InfluxHistory(settings.influx(), metrics, Duration.ofSeconds(1),
          InfluxHistory.BUFFER_POINTS, detector.jobIdentity());
      detector.addListener(history);
    }
    AlertNotifier alerts = null;
    if (settings.alerting().enabled()) {
      Detector source = detector;
      alerts = new AlertNotifier(settings.alerting(), clock, source::diagnosis,
          d -> source.anomalies(d.job(), true, Long.MIN_VALUE).stream()
              .mapToLong(Anomaly::startedAtMs).min().orElse(d.sinceMs()), metrics,
          detector.jobIdentity());
      for (JobSummary job : detector.jobs()) {
        detector.diagnosis(job.job()).ifPresent(alerts::restored);
      }
      detector.addListener(alerts);
    }
    Vertx vertx = Vertx.vertx();
    DecodeLimits limits = settings.limits().decodeLimits(settings.maxBodyBytes(),
        settings.maxDecompressedBytes());
    Listeners server;
    try {
      server = Listeners.listen(vertx, Listener.options(settings),
          HttpService.router(vertx, detector, worker, metrics, limits, catalog, series,
              snapshots::problem, Listener.policy(settings, clock), facts),
          Listeners.defaultCount());
    } catch (Exception e) {
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
    Detector d = detector;
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
      poller = new FlinkRestPoller(vertx, settings.flinkRest(), facts, metrics, clock);
      poller.start();
      logger.info("reading Flink REST " + settings.flinkRest().endpoints() + " every "
          + PromDuration.format(settings.flinkRest().interval()));
    }
    long timer = vertx.setPeriodic(settings.snapshotInterval().toMillis(),
        id -> vertx.executeBlocking(() -> snapshotLogged(snapshots, d), false));
    String scheme = Listener.scheme(settings);
    String base = scheme + "://" + settings.host() + ":" + server.port();
    // Bound to every address, the UI is reached under the machine's name, not 0.0.0.0.
    String reach = settings.alerting().externalUrl() != null ? settings.alerting().externalUrl()
        : defaultExternalUrl(settings.host(), server.port()).replaceFirst("^http:", scheme + ":");
    logger.info("Checkpoint Doctor listening on " + base + " (web UI " + reach + "/ui/, "
        + "remote-write /api/v1/write, API /api/v1, metrics /metrics); loaded "
        + loaded.description() + "; snapshots every "
        + PromDuration.format(settings.snapshotInterval()) + " to " + snapshots.file()
        + "; baselines ready after " + settings.detector().minObservations()
        + " observations (--min-observations)");
    return new CheckpointDoctor(settings, snapshots, detector, worker, seriesFeed, vertx, server,
        timer, alerts, history, poller);
  }

  /**
   * One periodic snapshot. A failure is logged with its reason when it starts and when it ends,
   * not every interval; meanwhile /readyz fails and /metrics counts the failures.
   */
  private static Void snapshotLogged(SnapshotStore snapshots, Detector detector) {
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

  public Detector detector() {
    return detector;
  }

  public DetectorWorker worker() {
    return worker;
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
