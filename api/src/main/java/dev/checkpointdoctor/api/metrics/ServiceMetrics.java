package dev.checkpointdoctor.api.metrics;

import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.detector.pipeline.DetectorStats;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * The service's own metrics, exposed at {@code /metrics}. Every sample the service does not turn
 * into a signal is counted here with the reason, so nothing is dropped silently.
 */
public final class ServiceMetrics {
  public static final String PREFIX = "checkpoint_doctor_";

  /** Why samples or whole requests did not make it to the detector. */
  public enum DropReason {
    /** The catalog has no use for the series (dropped before any label map was built). */
    UNUSED_METRIC,
    /** Older than the newest sample of the same series. */
    OUT_OF_ORDER,
    /** Same timestamp as the newest sample of the same series. */
    DUPLICATE,
    /** The request was malformed (400); its samples were not counted individually. */
    MALFORMED,
    /** The request was over a size limit (413). */
    TOO_LARGE,
    /** Wrong Content-Encoding or Content-Type (415). */
    UNSUPPORTED_MEDIA_TYPE,
    /** The detector queue was full (503, Prometheus retries). */
    OVERLOADED,
    /** NaN or ±Inf value (not the stale marker): accepted request, sample not used. */
    NON_FINITE,
    /** Timestamp further ahead of the wall clock than --max-future-skew. */
    FUTURE_TIMESTAMP,
    /** Timestamp older than --max-sample-age. */
    TOO_OLD,
    /** Missing or wrong credentials on the write endpoint (401). */
    UNAUTHORIZED,
    /** A new series over --max-series or --max-series-per-job (detector only). */
    CARDINALITY_LIMIT;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Counter requests;
  private final Counter samplesReceived;
  private final Counter samplesAccepted;
  private final Counter samplesDropped;
  private final Counter requestsRejected;
  private final Counter metadataReceived;
  private final Histogram decodeSeconds;
  private final Counter alertsSent;
  private final Counter alertsDropped;
  private final Counter historyPointsWritten;
  private final Counter historyPointsDropped;
  private final Counter historyWriteFailures;
  private final Counter flinkRestRequests;

  public ServiceMetrics() {
    requests = Counter.builder().name(PREFIX + "http_requests")
        .help("HTTP requests served, by route and status code.")
        .labelNames("route", "code").register(registry);
    samplesReceived = Counter.builder().name(PREFIX + "samples_received")
        .help("Samples in remote-write requests that decoded.").register(registry);
    samplesAccepted = Counter.builder().name(PREFIX + "samples_accepted")
        .help("Samples handed to the detector (answered 204).").register(registry);
    samplesDropped = Counter.builder().name(PREFIX + "samples_dropped")
        .help("Samples not used, by reason.").labelNames("reason").register(registry);
    requestsRejected = Counter.builder().name(PREFIX + "write_requests_rejected")
        .help("Remote-write requests rejected whole, by reason.").labelNames("reason")
        .register(registry);
    metadataReceived = Counter.builder().name(PREFIX + "metadata_received")
        .help("Metric metadata entries received (accepted, not used).").register(registry);
    decodeSeconds = Histogram.builder().name(PREFIX + "decode_seconds")
        .help("Time to decompress, decode and validate one remote-write request.")
        .classicUpperBounds(0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05)
        .register(registry);
    alertsSent = Counter.builder().name(PREFIX + "alerts_sent")
        .help("Alerts posted to an Alertmanager, by result (success, or failure: will be "
            + "retried).").labelNames("alertmanager", "result").register(registry);
    alertsDropped = Counter.builder().name(PREFIX + "alerts_dropped")
        .help("Alerts given up without delivery, by Alertmanager and reason (buffer_full, "
            + "rejected, shutdown).").labelNames("alertmanager", "reason").register(registry);
    historyPointsWritten = Counter.builder().name(PREFIX + "history_points_written")
        .help("Points written to InfluxDB.").register(registry);
    historyPointsDropped = Counter.builder().name(PREFIX + "history_points_dropped")
        .help("History points given up without writing, by reason (buffer_full, rejected, "
            + "shutdown).").labelNames("reason").register(registry);
    historyWriteFailures = Counter.builder().name(PREFIX + "history_write_failures")
        .help("Failed InfluxDB batch writes (each is retried).").register(registry);
    flinkRestRequests = Counter.builder().name(PREFIX + "flink_rest_requests")
        .help("Requests to Flink JobManager REST endpoints, by result (ok, http_4xx, http_5xx, "
            + "error = no answer, unparsable).").labelNames("endpoint", "result")
        .register(registry);
    for (DropReason r : DropReason.values()) {
      samplesDropped.labelValues(r.label());
      requestsRejected.labelValues(r.label());
    }
    JvmMetrics.builder().register(registry);
  }

  /** Registers the detector's own counters and gauges; called once at wiring. */
  public void bindDetector(Detector detector, LongSupplier queuedSamples) {
    DetectorStats stats = detector.stats();
    CounterWithCallback.builder().name(PREFIX + "samples_processed")
        .help("Samples that reached signal extraction.")
        .callback(cb -> cb.call(stats.processed())).register(registry);
    CounterWithCallback.builder().name(PREFIX + "detector_samples_dropped")
        .help("Samples the detector dropped, by reason (per-series event-time order; "
            + "ha_replica_standby: the replica of an HA pair not learned from).")
        .labelNames("reason")
        .callback(cb -> {
          cb.call(stats.outOfOrder(), DropReason.OUT_OF_ORDER.label());
          cb.call(stats.duplicate(), DropReason.DUPLICATE.label());
          cb.call(stats.unusedMetric(), DropReason.UNUSED_METRIC.label());
          cb.call(stats.cardinalityLimit(), DropReason.CARDINALITY_LIMIT.label());
          cb.call(stats.haStandby(), "ha_replica_standby");
        }).register(registry);
    CounterWithCallback.builder().name(PREFIX + "samples_without_signal")
        .help("Processed samples that yielded no signal: node/container samples from times no "
            + "job ran there (unjoined; see --host-alias), TaskManager samples from times it ran "
            + "no job's task (idle_taskmanager), job samples after their scrape was finished "
            + "(late_frame; see --max-delivery-lag), series that name nothing to watch "
            + "(ignored_series).")
        .labelNames("reason")
        .callback(cb -> {
          cb.call(detector.unjoinedSamples(), "unjoined");
          cb.call(detector.lateFrameSamples(), "late_frame");
          cb.call(detector.idleTaskManagerSamples(), "idle_taskmanager");
          cb.call(detector.ignoredSeriesSamples(), "ignored_series");
        }).register(registry);
    GaugeWithCallback.builder().name(PREFIX + "pending_samples")
        .help("Samples held for now: scrapes waiting for the rest of their series, "
            + "node/container/TaskManager values waiting to learn their jobs, standby-replica "
            + "samples kept for a failover.")
        .callback(cb -> cb.call(detector.pendingSamples())).register(registry);
    CounterWithCallback.builder().name(PREFIX + "ha_failovers")
        .help("Times a source switched to the other replica of its HA pair.")
        .callback(cb -> cb.call(stats.haFailovers())).register(registry);
    CounterWithCallback.builder().name(PREFIX + "stale_markers")
        .help("Prometheus stale markers received; each ends a series.")
        .callback(cb -> cb.call(stats.staleMarkers())).register(registry);
    CounterWithCallback.builder().name(PREFIX + "observations")
        .help("Signal observations derived from samples.")
        .callback(cb -> cb.call(stats.observations())).register(registry);
    GaugeWithCallback.builder().name(PREFIX + "tracked_series")
        .help("Series the detector keeps state for.")
        .callback(cb -> cb.call(detector.trackedSeries())).register(registry);
    GaugeWithCallback.builder().name(PREFIX + "baselines")
        .help("Baselines, one per job, signal and scope.")
        .callback(cb -> cb.call(detector.baselineCount())).register(registry);
    GaugeWithCallback.builder().name(PREFIX + "open_anomalies")
        .help("Anomalies currently open.")
        .callback(cb -> cb.call(detector.openAnomalyCount())).register(registry);
    GaugeWithCallback.builder().name(PREFIX + "jobs")
        .help("Flink jobs known (by job key: job_name, or identity labels and job_name).")
        .callback(cb -> cb.call(detector.jobCount())).register(registry);
    GaugeWithCallback.builder().name(PREFIX + "queued_samples")
        .help("Samples accepted but not yet processed by the detector.")
        .callback(cb -> cb.call(queuedSamples.getAsLong())).register(registry);
  }

  /**
   * Registers the snapshot counters: saves that succeeded and failed, and when the last one
   * succeeded (0 before the first).
   */
  public void bindSnapshots(LongSupplier saved, LongSupplier failed,
      LongSupplier lastSuccessEpochMs) {
    CounterWithCallback.builder().name(PREFIX + "snapshots_written")
        .help("State snapshots written to --data-dir.")
        .callback(cb -> cb.call(saved.getAsLong())).register(registry);
    CounterWithCallback.builder().name(PREFIX + "snapshot_failures")
        .help("State snapshots that could not be written (while the last one failed, /readyz "
            + "answers 503).")
        .callback(cb -> cb.call(failed.getAsLong())).register(registry);
    GaugeWithCallback.builder().name(PREFIX + "snapshot_last_success_timestamp_seconds")
        .help("When the last snapshot was written (Unix time; 0 before the first).")
        .callback(cb -> cb.call(lastSuccessEpochMs.getAsLong() / 1000.0)).register(registry);
  }

  public void request(String route, int code) {
    requests.labelValues(route, Integer.toString(code)).inc();
  }

  public void received(long samples, long metadata) {
    samplesReceived.inc(samples);
    metadataReceived.inc(metadata);
  }

  public void accepted(long samples) {
    samplesAccepted.inc(samples);
  }

  public void dropped(DropReason reason, long samples) {
    if (samples > 0) {
      samplesDropped.labelValues(reason.label()).inc(samples);
    }
  }

  public void rejected(DropReason reason) {
    requestsRejected.labelValues(reason.label()).inc();
  }

  public void decodeTook(long nanos) {
    decodeSeconds.observe(nanos / 1e9);
  }

  public void alertsSent(String alertmanager, boolean success, int alerts) {
    alertsSent.labelValues(alertmanager, success ? "success" : "failure").inc(alerts);
  }

  /** Makes both series visible at 0 before the first send, so rate() and alerts work. */
  public void alertmanagerKnown(String alertmanager) {
    alertsSent.labelValues(alertmanager, "success");
    alertsSent.labelValues(alertmanager, "failure");
    alertsDropped.labelValues(alertmanager, "buffer_full");
  }

  public void alertsDropped(String alertmanager, String reason, int alerts) {
    alertsDropped.labelValues(alertmanager, reason).inc(alerts);
  }

  public void historyWritten(int points) {
    historyPointsWritten.inc(points);
  }

  public void historyDropped(String reason, int points) {
    historyPointsDropped.labelValues(reason).inc(points);
  }

  public void historyWriteFailed() {
    historyWriteFailures.inc();
  }

  public void flinkRestRequest(String endpoint, String result) {
    flinkRestRequests.labelValues(endpoint, result).inc();
  }

  /** Makes an endpoint's ok and error series visible at 0 before its first poll. */
  public void flinkRestKnown(String endpoint) {
    flinkRestRequests.labelValues(endpoint, "ok");
    flinkRestRequests.labelValues(endpoint, "error");
  }

  /** Jobs with facts from Flink's REST API. */
  public void bindFlinkRest(java.util.function.IntSupplier jobs) {
    GaugeWithCallback.builder().name(PREFIX + "flink_rest_jobs")
        .help("Jobs whose checkpoint facts were read from a Flink JobManager's REST API.")
        .callback(cb -> cb.call(jobs.getAsInt())).register(registry);
  }

  public String contentType() {
    return writer.getContentType();
  }

  public byte[] scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16384);
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteArray();
  }
}
