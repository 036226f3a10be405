package dev.checkpointdoctor.api.alerting;

import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Delivers alerts to one Alertmanager from its own thread, so a down or slow Alertmanager delays
 * only itself. Pending alerts are kept per label set: a newer state of an alert replaces the
 * undelivered older one (Alertmanager only needs the latest), which also bounds the buffer by
 * the number of distinct alerts. Failed posts are retried with exponential backoff.
 */
final class AlertmanagerTarget implements AutoCloseable {
  private static final Logger logger = Logger.getLogger(AlertmanagerTarget.class.getName());
  static final int MAX_BATCH = 64;
  private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

  private final String name;
  private final URI endpoint;
  private final HttpClient client;
  private final ServiceMetrics metrics;
  private final int capacity;
  private final Duration maxBackoff;
  private final Duration requestTimeout;
  private final LinkedHashMap<Map<String, String>, Alert> pending = new LinkedHashMap<>();
  private final Thread sender;
  private boolean closed;
  private volatile boolean failing;

  AlertmanagerTarget(URI baseUrl, HttpClient client, ServiceMetrics metrics, int capacity,
      Duration maxBackoff, Duration requestTimeout) {
    this.name = baseUrl.toString();
    this.endpoint = URI.create(name + "/api/v2/alerts");
    this.client = client;
    this.metrics = metrics;
    this.capacity = capacity;
    this.maxBackoff = maxBackoff;
    this.requestTimeout = requestTimeout;
    metrics.alertmanagerKnown(name);
    this.sender = new Thread(this::run, "alertmanager-" + baseUrl.getAuthority());
    sender.setDaemon(true);
    sender.start();
  }

  String name() {
    return name;
  }

  /** Queues alerts for delivery; never blocks on the network. */
  void submit(List<Alert> alerts) {
    int dropped = 0;
    synchronized (this) {
      if (closed) {
        dropped = alerts.size();
      } else {
        for (Alert a : alerts) {
          pending.remove(a.labels());
          pending.put(a.labels(), a);
        }
        Iterator<Alert> oldest = pending.values().iterator();
        while (pending.size() > capacity) {
          Alert gone = oldest.next();
          oldest.remove();
          dropped++;
          logger.warning("alert buffer for " + name + " full; dropped " + gone.labels());
        }
        notifyAll();
      }
    }
    if (dropped > 0) {
      metrics.alertsDropped(name, closed ? "shutdown" : "buffer_full", dropped);
    }
  }

  synchronized int pendingCount() {
    return pending.size();
  }

  private void run() {
    Duration backoff = FIRST_BACKOFF;
    while (true) {
      List<Alert> batch = new ArrayList<>(MAX_BATCH);
      synchronized (this) {
        while (pending.isEmpty() && !closed) {
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        for (Alert a : pending.values()) {
          batch.add(a);
          if (batch.size() == MAX_BATCH) {
            break;
          }
        }
      }
      Outcome outcome = post(batch);
      synchronized (this) {
        if (outcome != Outcome.RETRY) {
          for (Alert a : batch) {
            // Only what was sent: a newer state queued meanwhile must still go out.
            pending.remove(a.labels(), a);
          }
        }
      }
      if (outcome == Outcome.RETRY) {
        metrics.alertsSent(name, false, batch.size());
        if (!pause(backoff)) {
          return;
        }
        backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff
            : backoff.multipliedBy(2);
      } else {
        backoff = FIRST_BACKOFF;
      }
    }
  }

  private enum Outcome { DELIVERED, REJECTED, RETRY }

  private Outcome post(List<Alert> batch) {
    JsonArray body = new JsonArray();
    batch.forEach(a -> body.add(a.toJson()));
    HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(requestTimeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build();
    try {
      HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
      int status = r.statusCode();
      if (status / 100 == 2) {
        metrics.alertsSent(name, true, batch.size());
        if (failing) {
          failing = false;
          logger.info("Alertmanager " + name + " reachable again; alerts delivered");
        }
        return Outcome.DELIVERED;
      }
      if (status / 100 == 4 && status != 429 && status != 408) {
        // Alertmanager refused the alerts themselves; sending them again cannot help.
        metrics.alertsSent(name, false, batch.size());
        metrics.alertsDropped(name, "rejected", batch.size());
        logger.warning("Alertmanager " + name + " rejected " + batch.size() + " alert(s) with "
            + status + ": " + r.body());
        return Outcome.REJECTED;
      }
      noteFailure("answered " + status + ": " + r.body(), batch.size());
    } catch (IOException e) {
      noteFailure(e.toString(), batch.size());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Outcome.RETRY;
  }

  private void noteFailure(String why, int alerts) {
    if (!failing) {
      failing = true;
      logger.log(Level.WARNING, "cannot deliver " + alerts + " alert(s) to Alertmanager " + name
          + " (" + why + "); keeping them and retrying with backoff");
    }
  }

  private synchronized boolean pause(Duration d) {
    long deadline = System.nanoTime() + d.toNanos();
    long left;
    while (!closed && (left = deadline - System.nanoTime()) > 0) {
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        return false;
      }
    }
    return !closed;
  }

  /**
   * Gives the sender a short grace to deliver what is pending (e.g. a resolution just queued),
   * then stops it; what is still pending is counted as dropped.
   */
  @Override
  public void close() {
    long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    synchronized (this) {
      while (!pending.isEmpty() && !failing && System.nanoTime() < deadline) {
        try {
          wait(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      closed = true;
      notifyAll();
    }
    sender.interrupt();
    try {
      sender.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    int left;
    synchronized (this) {
      left = pending.size();
      pending.clear();
    }
    if (left > 0) {
      metrics.alertsDropped(name, "shutdown", left);
      logger.warning(left + " alert(s) for " + name + " not delivered before shutdown");
    }
  }
}
