package dev.checkpointdoctor.api.history;

import dev.checkpointdoctor.api.alerting.AlertPolicy;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.Evaluation;
import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import okhttp3.OkHttpClient;
import org.influxdb.InfluxDB;
import org.influxdb.InfluxDBException;
import org.influxdb.InfluxDBFactory;
import org.influxdb.dto.BatchPoints;
import org.influxdb.dto.Point;
import org.influxdb.dto.Query;
import org.influxdb.dto.QueryResult;

/**
 * Writes the detector's evaluations, anomalies and diagnoses to InfluxDB 1.x in batches from its
 * own thread. The detector thread only offers to a bounded buffer: when InfluxDB is down the
 * buffer fills while one batch is retried with backoff, and what does not fit is dropped and
 * counted (newest first, so the history up to the outage stays complete).
 */
public final class InfluxHistory implements DetectorListener, AutoCloseable {
  private static final Logger logger = Logger.getLogger(InfluxHistory.class.getName());
  public static final int BUFFER_POINTS = 200_000;
  static final int BATCH_POINTS = 5_000;
  private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  private final InfluxDB influx;
  private final String database;
  private final ServiceMetrics metrics;
  private final JobIdentity identity;
  private final Duration flushInterval;
  private final Duration forecastHorizon;
  // Events, not Points: building line-protocol points is the writer's work, not the detector's.
  private final BlockingQueue<Supplier<Point>> buffer;
  private final Thread writer;
  private volatile boolean closed;
  private boolean databaseReady;
  private boolean failing;

  public InfluxHistory(InfluxSettings settings, ServiceMetrics metrics, Duration flushInterval,
      int bufferPoints) {
    this(settings, metrics, flushInterval, bufferPoints, JobIdentity.jobNameOnly(),
        AlertPolicy.defaults().forecastHorizon());
  }

  /**
   * @param identity what a job key is made of: points are tagged with its labels
   * @param forecastHorizon what makes a diagnosis' severity tag critical, as in alerts
   */
  public InfluxHistory(InfluxSettings settings, ServiceMetrics metrics, Duration flushInterval,
      int bufferPoints, JobIdentity identity, Duration forecastHorizon) {
    this.identity = identity;
    this.forecastHorizon = forecastHorizon;
    this.database = settings.database();
    this.metrics = metrics;
    this.flushInterval = flushInterval;
    this.buffer = new ArrayBlockingQueue<>(bufferPoints);
    OkHttpClient.Builder http = new OkHttpClient.Builder()
        .connectTimeout(5, TimeUnit.SECONDS).readTimeout(15, TimeUnit.SECONDS)
        .writeTimeout(15, TimeUnit.SECONDS);
    this.influx = settings.user() == null
        ? InfluxDBFactory.connect(settings.url(), http)
        : InfluxDBFactory.connect(settings.url(), settings.user(),
            settings.password() == null ? "" : settings.password(), http);
    this.writer = new Thread(this::run, "influx-history");
    writer.setDaemon(true);
    writer.start();
  }

  @Override
  public void evaluated(Evaluation e) {
    offer(() -> HistoryPoints.of(e, identity));
  }

  @Override
  public void anomalyOpened(Anomaly a) {
    offer(() -> HistoryPoints.of(a, identity));
  }

  @Override
  public void anomalyResolved(Anomaly a) {
    offer(() -> HistoryPoints.of(a, identity));
  }

  @Override
  public void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long eventTimeMs) {
    offer(() -> HistoryPoints.of(job, before, after, eventTimeMs, identity, forecastHorizon));
  }

  private void offer(Supplier<Point> p) {
    if (closed || !buffer.offer(p)) {
      metrics.historyDropped(closed ? "shutdown" : "buffer_full", 1);
    }
  }

  public int buffered() {
    return buffer.size();
  }

  private void run() {
    List<Point> batch = new ArrayList<>(BATCH_POINTS);
    Duration backoff = FIRST_BACKOFF;
    try {
      createDatabase();
    } catch (RuntimeException e) {
      // Not fatal: InfluxDB may come later; the first write tries again.
      noteFailure(e.toString());
    }
    while (true) {
      try {
        if (batch.isEmpty() && !fill(batch)) {
          return;
        }
        if (write(batch)) {
          batch.clear();
          backoff = FIRST_BACKOFF;
        } else {
          Thread.sleep(backoff.toMillis());
          backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF
              : backoff.multipliedBy(2);
        }
      } catch (InterruptedException e) {
        dropUnwritten(batch);
        return;
      }
    }
  }

  /** Waits up to one flush interval for a first point, then takes whatever else is there. */
  private boolean fill(List<Point> batch) throws InterruptedException {
    Supplier<Point> first = buffer.poll(flushInterval.toMillis(), TimeUnit.MILLISECONDS);
    if (first == null) {
      return !closed;
    }
    long deadline = System.nanoTime() + flushInterval.toNanos() / 4;
    add(batch, first);
    while (batch.size() < BATCH_POINTS) {
      Supplier<Point> next = buffer.poll();
      if (next == null) {
        if (System.nanoTime() >= deadline || closed) {
          break;
        }
        next = buffer.poll(Math.max(1, (deadline - System.nanoTime()) / 1_000_000),
            TimeUnit.MILLISECONDS);
        if (next == null) {
          break;
        }
      }
      add(batch, next);
    }
    return true;
  }

  private void add(List<Point> batch, Supplier<Point> p) {
    try {
      batch.add(p.get());
    } catch (RuntimeException e) {
      metrics.historyDropped("rejected", 1);
      logger.log(Level.WARNING, "history point could not be built", e);
    }
  }

  private boolean write(List<Point> batch) {
    if (batch.isEmpty()) {
      return true;
    }
    try {
      if (!databaseReady) {
        createDatabase();
      }
      influx.write(BatchPoints.database(database).precision(TimeUnit.MILLISECONDS)
          .points(batch).build());
      metrics.historyWritten(batch.size());
      if (failing) {
        failing = false;
        logger.info("InfluxDB reachable again; buffered history written");
      }
      return true;
    } catch (InfluxDBException e) {
      String msg = String.valueOf(e.getMessage());
      if (msg.contains("database not found")) {
        databaseReady = false;
      } else if (!e.isRetryWorth() || msg.contains("partial write")
          || msg.contains("unable to parse") || msg.contains("field type conflict")) {
        // The points themselves are bad; retrying them cannot succeed.
        metrics.historyDropped("rejected", batch.size());
        logger.warning("InfluxDB rejected " + batch.size() + " history points: " + msg);
        return true;
      }
      noteFailure(msg);
    } catch (RuntimeException e) {
      noteFailure(e.toString());
    }
    metrics.historyWriteFailed();
    return false;
  }

  /** Idempotent in InfluxDB 1.x; also recreates a database dropped while we ran. */
  private void createDatabase() {
    QueryResult r = influx.query(new Query("CREATE DATABASE \"" + database + "\"", null, true));
    if (r.hasError()) {
      throw new InfluxDBException(r.getError());
    }
    databaseReady = true;
  }

  private void noteFailure(String why) {
    if (!failing) {
      failing = true;
      logger.warning("cannot write history to InfluxDB (" + why + "); buffering up to "
          + (buffer.size() + buffer.remainingCapacity()) + " points and retrying");
    }
  }

  private void dropUnwritten(List<Point> batch) {
    int left = batch.size() + buffer.size();
    buffer.clear();
    if (left > 0) {
      metrics.historyDropped("shutdown", left);
      logger.warning(left + " history points not written before shutdown");
    }
  }

  /** Writes what is buffered for up to a few seconds, then stops. */
  @Override
  public void close() {
    closed = true;
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    try {
      writer.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    writer.interrupt();
    try {
      writer.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    influx.close();
  }
}
