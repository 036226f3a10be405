package dev.checkpointdoctor.api.flinkrest;

import dev.checkpointdoctor.api.flinkrest.FlinkRestParser.OverviewJob;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.detector.facts.CheckpointConfig;
import dev.checkpointdoctor.detector.facts.CheckpointDetail;
import dev.checkpointdoctor.detector.facts.JobFacts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Polls every configured JobManager's REST API every interval and keeps what it learns in a
 * {@link FlinkFactsStore}: the running jobs, their checkpoint configuration and, for the latest
 * failed, long-running or unusually slow checkpoint, its per-subtask details. All I/O is
 * asynchronous on a Vert.x event loop (WebClient); nothing here blocks. A JobManager that is down
 * or answers an error is logged once (and again when it answers), every request is counted in
 * {@code checkpoint_doctor_flink_rest_requests_total{endpoint,result}}, and the diagnosis goes on
 * from the metrics and the facts last read, which expire after {@link #STALE_POLLS} intervals.
 */
public final class FlinkRestPoller implements AutoCloseable {
  private static final Logger logger = Logger.getLogger(FlinkRestPoller.class.getName());
  /** Facts of a JobManager that stopped answering are dropped after this many intervals. */
  static final int STALE_POLLS = 10;

  private final Vertx vertx;
  private final FlinkRestSettings settings;
  private final FlinkFactsStore store;
  private final ServiceMetrics metrics;
  private final Clock clock;
  private final WebClient client;
  private final String authorization;
  private final List<Endpoint> endpoints = new ArrayList<>();
  private long timer = -1;

  public FlinkRestPoller(Vertx vertx, FlinkRestSettings settings, FlinkFactsStore store,
      ServiceMetrics metrics, Clock clock) {
    this.vertx = vertx;
    this.settings = settings;
    this.store = store;
    this.metrics = metrics;
    this.clock = clock;
    WebClientOptions options = new WebClientOptions().setUserAgent("checkpoint-doctor")
        .setConnectTimeout((int) Math.min(10_000, settings.interval().toMillis()))
        .setKeepAlive(true);
    if (settings.caFile() != null) {
      options.setTrustOptions(new PemTrustOptions().addCertPath(settings.caFile().toString()));
    }
    this.client = WebClient.create(vertx, options);
    this.authorization = authorization(settings);
    for (URI u : settings.endpoints()) {
      endpoints.add(new Endpoint(u.toString()));
      metrics.flinkRestKnown(u.toString());
    }
  }

  private static String authorization(FlinkRestSettings s) {
    if (s.credentials().bearerToken() != null) {
      return "Bearer " + s.credentials().bearerToken();
    }
    if (s.credentials().basicUser() != null) {
      return "Basic " + Base64.getEncoder().encodeToString((s.credentials().basicUser() + ":"
          + s.credentials().basicPassword()).getBytes(StandardCharsets.UTF_8));
    }
    return null;
  }

  /** Polls now and then every interval. */
  public void start() {
    pollAll();
    timer = vertx.setPeriodic(settings.interval().toMillis(), id -> pollAll());
  }

  /** One round over every endpoint; a round still running on an endpoint is not overtaken. */
  Future<Void> pollAll() {
    List<Future<Void>> rounds = new ArrayList<>();
    for (Endpoint e : endpoints) {
      if (!e.busy) {
        e.busy = true;
        rounds.add(e.poll().onComplete(ar -> e.busy = false));
      }
    }
    return Future.join(rounds).mapEmpty();
  }

  @Override
  public void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    client.close();
  }

  /** An answer other than 2xx. */
  static final class HttpStatusException extends RuntimeException {
    final int status;

    HttpStatusException(int status, String path, String body) {
      super("HTTP " + status + " for " + path + (body == null || body.isBlank() ? ""
          : ": " + (body.length() > 200 ? body.substring(0, 200) + "…" : body.strip())),
          null, false, false);
      this.status = status;
    }
  }

  /** One JobManager: its state between rounds. */
  private final class Endpoint {
    final String base;
    volatile boolean busy;
    /** Why it is failing (logged once), or null while it answers. */
    String failing;
    /** Failures of single paths already logged (cleared when they answer again). */
    final Set<String> loggedPaths = ConcurrentHashMap.newKeySet();
    Map<String, String> clusterConfig = Map.of();
    /** Flink before 1.17 has no /jobs/:jid/jobmanager/config (404): not asked again. */
    boolean jobConfigMissing;
    /** Job id → the checkpoint detailed last (reused while it is the same finished one). */
    final Map<String, CheckpointDetail> details = new HashMap<>();
    long lastAnswerMs;

    Endpoint(String base) {
      this.base = base;
    }

    Future<Void> poll() {
      Future<Map<String, String>> cluster = array("/jobmanager/config")
          .map(FlinkRestParser::keyValues)
          .onSuccess(c -> clusterConfig = c)
          .otherwise(e -> clusterConfig);
      return object("/jobs/overview").compose(body -> {
        answered();
        List<OverviewJob> jobs = FlinkRestParser.overview(body);
        return cluster.compose(c -> pollJobs(jobs, c));
      }, e -> {
        failed(e);
        if (lastAnswerMs > 0 && clock.millis() - lastAnswerMs
            > STALE_POLLS * settings.interval().toMillis()) {
          store.replace(base, Map.of());
          details.clear();
        }
        return Future.succeededFuture();
      });
    }

    private Future<Void> pollJobs(List<OverviewJob> jobs, Map<String, String> cluster) {
      Map<String, JobFacts> found = new LinkedHashMap<>();
      List<Future<Void>> each = new ArrayList<>();
      Set<String> live = ConcurrentHashMap.newKeySet();
      for (OverviewJob j : jobs) {
        if (!j.running() || j.name() == null) {
          continue;
        }
        live.add(j.jid());
        String name = FlinkFactsStore.metricName(j.name());
        each.add(pollJob(j, name, cluster).map(f -> {
          synchronized (found) {
            found.put(name, f);
          }
          return (Void) null;
        }).otherwise(e -> {
          JobFacts before = store.facts(name);
          if (before != null && before.jobId().equals(j.jid())) {
            synchronized (found) {
              found.put(name, before); // keep what was known; it expires with the endpoint
            }
          }
          return null;
        }));
      }
      return Future.join(each).map(v -> {
        details.keySet().retainAll(live);
        synchronized (found) {
          store.replace(base, found);
        }
        return null;
      });
    }

    private Future<JobFacts> pollJob(OverviewJob j, String name, Map<String, String> cluster) {
      String p = "/jobs/" + j.jid();
      Future<JsonObject> job = object(p);
      Future<JsonObject> cpConfig = object(p + "/checkpoints/config").otherwise(notFound(null));
      Future<JsonObject> history = object(p + "/checkpoints").otherwise(notFound(null));
      Future<Map<String, String>> jobConfig = jobConfigMissing
          ? Future.succeededFuture(Map.of())
          : array(p + "/jobmanager/config").map(FlinkRestParser::keyValues).otherwise(e -> {
            if (e instanceof HttpStatusException h && h.status == 404) {
              jobConfigMissing = true;
            }
            return Map.of();
          });
      return Future.all(job, cpConfig, history, jobConfig).compose(all -> {
        Map<String, String> vertices = FlinkRestParser.vertices(job.result());
        CheckpointConfig config = FlinkRestParser.config(cpConfig.result(), jobConfig.result(),
            cluster);
        long now = clock.millis();
        if (history.result() == null) {
          return Future.succeededFuture(new JobFacts(name, j.jid(), base, now, config, null));
        }
        FlinkRestParser.Pick pick = FlinkRestParser.pick(
            FlinkRestParser.history(history.result()), config.timeoutMs(), now);
        if (pick == null) {
          details.remove(j.jid());
          return Future.succeededFuture(new JobFacts(name, j.jid(), base, now, config, null));
        }
        CheckpointDetail known = details.get(j.jid());
        if (known != null && known.id() == pick.id() && !known.inProgress()) {
          return Future.succeededFuture(new JobFacts(name, j.jid(), base, now, config, known));
        }
        return detail(p, pick, vertices, now).otherwise((CheckpointDetail) null).map(d -> {
          if (d != null) {
            details.put(j.jid(), d);
          }
          return new JobFacts(name, j.jid(), base, now, config, d);
        });
      });
    }

    private Future<CheckpointDetail> detail(String jobPath, FlinkRestParser.Pick pick,
        Map<String, String> vertices, long now) {
      String p = jobPath + "/checkpoints/details/" + pick.id();
      return object(p).compose(details -> {
        Map<String, Future<JsonObject>> subtasks = new LinkedHashMap<>();
        for (String vid : vertices.keySet()) {
          subtasks.put(vid, object(p + "/subtasks/" + vid).otherwise((JsonObject) null));
        }
        return Future.join(new ArrayList<>(subtasks.values())).map(v -> {
          Map<String, JsonObject> read = new LinkedHashMap<>();
          subtasks.forEach((vid, f) -> {
            if (f.succeeded() && f.result() != null) {
              read.put(vid, f.result());
            }
          });
          return FlinkRestParser.detail(details, read, vertices, pick.why(), now);
        });
      });
    }

    private <T> java.util.function.Function<Throwable, T> notFound(T value) {
      return e -> {
        if (e instanceof HttpStatusException h && h.status == 404) {
          return value; // e.g. checkpointing off: nothing to say, not a failure
        }
        throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
      };
    }

    private void answered() {
      lastAnswerMs = clock.millis();
      if (failing != null) {
        logger.info("Flink REST " + base + " answers again; its facts are used in diagnoses");
        failing = null;
      }
    }

    private void failed(Throwable e) {
      if (failing == null) {
        failing = String.valueOf(e.getMessage());
        logger.warning("Flink REST " + base + " cannot be read (" + failing + "); diagnosing "
            + "from the metrics alone until it answers (every failed request is counted in "
            + "checkpoint_doctor_flink_rest_requests_total)");
      }
    }

    Future<JsonObject> object(String path) {
      return get(path).map(r -> {
        try {
          return r.bodyAsJsonObject();
        } catch (RuntimeException e) {
          metrics.flinkRestRequest(base, "unparsable");
          throw new IllegalStateException("unreadable JSON from " + base + path, e);
        }
      });
    }

    Future<JsonArray> array(String path) {
      return get(path).map(r -> {
        try {
          return r.bodyAsJsonArray();
        } catch (RuntimeException e) {
          metrics.flinkRestRequest(base, "unparsable");
          throw new IllegalStateException("unreadable JSON from " + base + path, e);
        }
      });
    }

    private Future<HttpResponse<Buffer>> get(String path) {
      HttpRequest<Buffer> req = client.getAbs(base + path)
          .timeout(Math.max(1000, Math.min(30_000, settings.interval().toMillis())));
      if (authorization != null) {
        req.putHeader("Authorization", authorization);
      }
      return req.send().transform(ar -> {
        if (ar.failed()) {
          metrics.flinkRestRequest(base, "error");
          return Future.failedFuture(ar.cause());
        }
        HttpResponse<Buffer> r = ar.result();
        if (r.statusCode() / 100 != 2) {
          metrics.flinkRestRequest(base, r.statusCode() >= 500 ? "http_5xx" : "http_4xx");
          HttpStatusException e = new HttpStatusException(r.statusCode(), path,
              r.bodyAsString());
          String kind = path.replaceAll("/[0-9a-f]{32}", "/:id").replaceAll("/\\d+", "/:n");
          // the endpoint-wide paths are logged once as the endpoint failing (see failed)
          if (r.statusCode() != 404 && !path.equals("/jobs/overview")
              && !path.equals("/jobmanager/config") && loggedPaths.add(kind)) {
            logger.warning("Flink REST " + base + ": " + e.getMessage());
          }
          return Future.failedFuture(e);
        }
        metrics.flinkRestRequest(base, "ok");
        loggedPaths.remove(path.replaceAll("/[0-9a-f]{32}", "/:id").replaceAll("/\\d+", "/:n"));
        return Future.succeededFuture(r);
      });
    }
  }
}
