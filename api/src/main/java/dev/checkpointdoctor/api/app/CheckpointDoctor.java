package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.alerting.AlertNotifier;
import dev.checkpointdoctor.api.history.InfluxHistory;
import dev.checkpointdoctor.api.http.HttpService;
import dev.checkpointdoctor.api.ingest.DetectorWorker;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.api.series.SeriesFeed;
import dev.checkpointdoctor.api.series.SeriesStore;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.pipeline.Detector;
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
  private volatile boolean stopped;

  private CheckpointDoctor(ServiceSettings settings, SnapshotStore snapshots, Detector detector,
      DetectorWorker worker, SeriesFeed seriesFeed, Vertx vertx, Listeners server,
      long snapshotTimer, AlertNotifier alerts, InfluxHistory history) {
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
  }

  public static CheckpointDoctor start(ServiceSettings settings, Clock clock) throws Exception {
    SnapshotStore snapshots = new SnapshotStore(settings.dataDir(), clock);
    SnapshotStore.Loaded loaded = snapshots.load();
    SignalCatalog catalog = SignalCatalog.defaults();
    Detector detector;
    try {
      detector = new Detector(catalog, settings.detector(), new CauseRanker(settings.detector()),
          loaded.state());
    } catch (RuntimeException e) {
      logger.log(Level.WARNING, "snapshot could not be restored (" + e.getMessage()
          + "); starting empty");
      detector = new Detector(catalog, settings.detector(), new CauseRanker(settings.detector()));
      loaded = new SnapshotStore.Loaded(null, "snapshot not restorable (" + e.getMessage()
          + "), starting empty");
    }
    detector.limitSeries(settings.limits().maxSeries(), settings.limits().maxSeriesPerJob());
    SeriesStore series = new SeriesStore();
    SeriesFeed seriesFeed = new SeriesFeed(series);
    detector.addListener(seriesFeed);
    DetectorWorker worker = new DetectorWorker(detector, settings.queueSamples());
    ServiceMetrics metrics = new ServiceMetrics();
    metrics.bindDetector(detector, worker::queuedSamples);
    InfluxHistory history = null;
    if (settings.influx() != null) {
      history = new InfluxHistory(settings.influx(), metrics, Duration.ofSeconds(1),
          InfluxHistory.BUFFER_POINTS, settings.alerting().policy().forecastHorizon());
      detector.addListener(history);
    }
    AlertNotifier alerts = null;
    if (settings.alerting().enabled()) {
      alerts = new AlertNotifier(settings.alerting(), clock, detector::diagnosis, metrics);
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
              () -> true, Listener.policy(settings, clock)), Listeners.defaultCount());
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
          + settings.alerting().resendInterval() + "; links under " + external);
    }
    long timer = vertx.setPeriodic(settings.snapshotInterval().toMillis(),
        id -> vertx.executeBlocking(() -> {
          snapshots.save(d.snapshot());
          return null;
        }, false).onFailure(e -> logger.log(Level.WARNING, "snapshot failed", e)));
    logger.info(String.format("Checkpoint Doctor listening on " + Listener.scheme(settings)
            + "://%s:%d (remote-write %s, "
            + "API /api/v1, metrics /metrics); loaded %s; %d catalog metrics",
        settings.host(), server.port(), "/api/v1/write", loaded.description(),
        catalog.exactNames().size()));
    return new CheckpointDoctor(settings, snapshots, detector, worker, seriesFeed, vertx, server,
        timer, alerts, history);
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
    server.close();
    worker.close();
    seriesFeed.close();
    if (alerts != null) {
      alerts.close();
    }
    if (history != null) {
      history.close();
    }
    snapshots.save(detector.snapshot());
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    logger.info("stopped; state saved to " + snapshots.file());
  }

  @Override
  public void close() throws Exception {
    stop();
  }
}
