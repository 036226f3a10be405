package dev.checkpointdoctor.api.alerting;

import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.JobIdentity;
import dev.checkpointdoctor.detector.pipeline.DetectorListener;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Announces diagnoses to Alertmanager the way Prometheus announces rule alerts: sent when a
 * diagnosis opens, re-sent every resend interval while it holds, resolved when it closes, and
 * sent to every configured Alertmanager. Detector events are only queued here; the book and the
 * network live on other threads, so ingest never waits for Alertmanager.
 */
public final class AlertNotifier implements DetectorListener, AutoCloseable {
  private static final Logger logger = Logger.getLogger(AlertNotifier.class.getName());
  static final int CHANGE_QUEUE = 10_000;
  static final int PENDING_PER_ALERTMANAGER = 10_000;

  private record Change(String job, Diagnosis after) {}

  private final BlockingQueue<Change> changes = new ArrayBlockingQueue<>(CHANGE_QUEUE);
  private volatile AlertBook book;
  private final Clock clock;
  private final Duration resendInterval;
  private final AlertPolicy policy;
  private final Function<String, Optional<Diagnosis>> currentDiagnosis;
  private final ToLongFunction<Diagnosis> troubleStart;
  private final ServiceMetrics metrics;
  private final JobIdentity identity;
  private final List<AlertmanagerTarget> targets = new ArrayList<>();
  private final Thread loop;
  private volatile boolean closed;

  /**
   * @param currentDiagnosis reads a job's diagnosis now (takes the detector's lock briefly, on
   *     this notifier's thread, never the detector's)
   */
  public AlertNotifier(AlertingSettings settings, Clock clock,
      Function<String, Optional<Diagnosis>> currentDiagnosis, ServiceMetrics metrics) {
    this(settings, clock, currentDiagnosis, Diagnosis::sinceMs, metrics,
        JobIdentity.jobNameOnly());
  }

  /**
   * @param troubleStart when a diagnosed job's trouble began (its earliest open anomaly), for
   *     the alert's link; read on this notifier's thread like {@code currentDiagnosis}
   * @param identity what a job key is made of: alerts carry its labels beside job_name
   */
  public AlertNotifier(AlertingSettings settings, Clock clock,
      Function<String, Optional<Diagnosis>> currentDiagnosis,
      ToLongFunction<Diagnosis> troubleStart, ServiceMetrics metrics, JobIdentity identity) {
    this.troubleStart = troubleStart;
    this.identity = identity;
    this.clock = clock;
    this.resendInterval = settings.resendInterval();
    this.policy = settings.policy();
    this.currentDiagnosis = currentDiagnosis;
    this.metrics = metrics;
    // HTTP/1.1 outright: Alertmanager answers plain-text HTTP/2 upgrades with HTTP/1.1 anyway
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    Duration maxBackoff = resendInterval.compareTo(Duration.ofSeconds(30)) < 0 ? resendInterval
        : Duration.ofSeconds(30);
    Duration requestTimeout = Duration.ofSeconds(10);
    for (URI url : settings.alertmanagers()) {
      targets.add(new AlertmanagerTarget(url, client, metrics, PENDING_PER_ALERTMANAGER,
          maxBackoff, requestTimeout));
    }
    loop = new Thread(this::run, "alert-notifier");
    loop.setDaemon(true);
  }

  /**
   * Starts announcing. Separate from construction because the links in alerts need the port the
   * server actually bound, while changes must already be queued from the first sample on.
   */
  public void start(String externalUrl) {
    book = new AlertBook(new AlertMapper(externalUrl, resendInterval, troubleStart,
        identity, policy));
    loop.start();
  }

  @Override
  public void diagnosisChanged(String job, Diagnosis before, Diagnosis after, long eventTimeMs) {
    enqueue(new Change(job, after));
  }

  /** Diagnoses restored from a snapshot: announced again, as nothing else would re-send them. */
  public void restored(Diagnosis d) {
    enqueue(new Change(d.job(), d));
  }

  private void enqueue(Change c) {
    if (!changes.offer(c)) {
      for (AlertmanagerTarget t : targets) {
        metrics.alertsDropped(t.name(), "buffer_full", 1);
      }
      logger.warning("alert change queue full; dropped the change of job " + c.job()
          + " (the next resend corrects it)");
    }
  }

  private void run() {
    long nextResend = System.nanoTime() + resendInterval.toNanos();
    while (!closed) {
      try {
        long wait = Math.max(0, nextResend - System.nanoTime());
        Change c = changes.poll(wait, TimeUnit.NANOSECONDS);
        if (c != null) {
          List<Alert> out = new ArrayList<>(book.diagnosisChanged(c.job(), c.after(),
              clock.instant()));
          while ((c = changes.poll()) != null) {
            out.addAll(book.diagnosisChanged(c.job(), c.after(), clock.instant()));
          }
          send(out);
        }
        if (System.nanoTime() - nextResend >= 0) {
          send(book.resend(clock.instant(), currentDiagnosis));
          nextResend = System.nanoTime() + resendInterval.toNanos();
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        logger.log(Level.SEVERE, "alert notifier step failed; continuing", e);
      }
    }
  }

  private void send(List<Alert> alerts) {
    if (alerts.isEmpty()) {
      return;
    }
    for (AlertmanagerTarget t : targets) {
      t.submit(alerts);
    }
  }

  /** Alerts waiting for delivery, per Alertmanager (for tests and diagnostics). */
  public int pending() {
    return targets.stream().mapToInt(AlertmanagerTarget::pendingCount).sum();
  }

  /**
   * Stops without resolving firing alerts, as Prometheus does: a restarted service re-sends them,
   * and a service that stays down lets them expire at their endsAt.
   */
  @Override
  public void close() {
    closed = true;
    loop.interrupt();
    try {
      loop.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (book != null && !loop.isAlive()) {
      // The detector is drained before this close: its last changes still go out.
      List<Alert> out = new ArrayList<>();
      Change c;
      while ((c = changes.poll()) != null) {
        out.addAll(book.diagnosisChanged(c.job(), c.after(), clock.instant()));
      }
      send(out);
    }
    targets.forEach(AlertmanagerTarget::close);
  }
}
