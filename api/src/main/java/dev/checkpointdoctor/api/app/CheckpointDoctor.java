package dev.checkpointdoctor.api.app;

import dev.checkpointdoctor.api.http.HttpService;
import dev.checkpointdoctor.api.ingest.DetectorWorker;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.IOException;
import java.time.Clock;
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
  private final Vertx vertx;
  private final HttpServer server;
  private final long snapshotTimer;
  private volatile boolean stopped;

  private CheckpointDoctor(ServiceSettings settings, SnapshotStore snapshots, Detector detector,
      DetectorWorker worker, Vertx vertx, HttpServer server, long snapshotTimer) {
    this.settings = settings;
    this.snapshots = snapshots;
    this.detector = detector;
    this.worker = worker;
    this.vertx = vertx;
    this.server = server;
    this.snapshotTimer = snapshotTimer;
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
    DetectorWorker worker = new DetectorWorker(detector, settings.queueSamples());
    ServiceMetrics metrics = new ServiceMetrics();
    metrics.bindDetector(detector, worker::queuedSamples);
    Vertx vertx = Vertx.vertx();
    DecodeLimits limits = new DecodeLimits((int) settings.maxBodyBytes(),
        (int) settings.maxDecompressedBytes(), DecodeLimits.defaults().maxSeriesPerRequest(),
        DecodeLimits.defaults().maxLabelsPerSeries(), DecodeLimits.defaults().maxLabelNameLength(),
        DecodeLimits.defaults().maxLabelValueLength());
    HttpServer server;
    try {
      server = vertx.createHttpServer(new HttpServerOptions().setHost(settings.host())
              .setPort(settings.port()).setDecompressionSupported(false))
          .requestHandler(HttpService.router(vertx, detector, worker, metrics, limits, catalog,
              () -> true))
          .listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      worker.close();
      vertx.close();
      throw new IOException("cannot listen on " + settings.host() + ":" + settings.port() + ": "
          + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
    }
    Detector d = detector;
    long timer = vertx.setPeriodic(settings.snapshotInterval().toMillis(),
        id -> vertx.executeBlocking(() -> {
          snapshots.save(d.snapshot());
          return null;
        }, false).onFailure(e -> logger.log(Level.WARNING, "snapshot failed", e)));
    logger.info(String.format("Checkpoint Doctor listening on http://%s:%d (remote-write %s, "
            + "API /api/v1, metrics /metrics); loaded %s; %d catalog metrics",
        settings.host(), server.actualPort(), "/api/v1/write", loaded.description(),
        catalog.exactNames().size()));
    return new CheckpointDoctor(settings, snapshots, detector, worker, vertx, server, timer);
  }

  public int port() {
    return server.actualPort();
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
    server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    worker.close();
    snapshots.save(detector.snapshot());
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    logger.info("stopped; state saved to " + snapshots.file());
  }

  @Override
  public void close() throws Exception {
    stop();
  }

  /**
   * A detector wired as the service wires it (same catalog and diagnosis), for offline replay of
   * recorded histories.
   */
  public static Detector offlineDetector(DetectorSettings settings) {
    return new Detector(SignalCatalog.defaults(), settings, new CauseRanker(settings));
  }
}
