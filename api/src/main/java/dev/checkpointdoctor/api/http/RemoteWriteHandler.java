package dev.checkpointdoctor.api.http;

import dev.checkpointdoctor.api.ingest.DetectorWorker;
import dev.checkpointdoctor.api.ingest.SampleScreen;
import dev.checkpointdoctor.api.metrics.ServiceMetrics;
import dev.checkpointdoctor.api.metrics.ServiceMetrics.DropReason;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteException;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * {@code POST /api/v1/write}: Prometheus remote-write 1.0. Status codes follow what Prometheus
 * does with them: 204 taken, 4xx dropped by the sender (malformed, too large, wrong media type),
 * 503 retried (we are behind).
 */
final class RemoteWriteHandler implements PooledBodyReader.Body {
  static final String PATH = "/api/v1/write";

  private final ServiceMetrics metrics;
  private final DetectorWorker worker;
  private final ThreadLocal<RemoteWriteDecoder> decoders;
  private final IngressPolicy policy;

  RemoteWriteHandler(ServiceMetrics metrics, DetectorWorker worker, DecodeLimits limits,
      MetricNameFilter filter, IngressPolicy policy) {
    this.metrics = metrics;
    this.worker = worker;
    this.policy = policy;
    this.decoders = ThreadLocal.withInitial(() -> new RemoteWriteDecoder(limits, filter));
  }

  @Override
  public void handle(RoutingContext ctx, byte[] body, int length) {
    String mediaProblem = mediaTypeProblem(ctx.request().getHeader("Content-Encoding"),
        ctx.request().getHeader("Content-Type"));
    if (mediaProblem != null) {
      metrics.rejected(DropReason.UNSUPPORTED_MEDIA_TYPE);
      Responses.error(ctx, 415, mediaProblem);
      return;
    }
    DecodedWrite write;
    long started = System.nanoTime();
    try {
      write = decoders.get().decode(body, 0, length);
    } catch (RemoteWriteException e) {
      DropReason reason = e.kind() == RemoteWriteException.Kind.TOO_LARGE
          ? DropReason.TOO_LARGE : DropReason.MALFORMED;
      metrics.rejected(reason);
      Responses.error(ctx, e.httpStatus(), e.getMessage());
      return;
    } finally {
      metrics.decodeTook(System.nanoTime() - started);
    }
    if (write.sampleCount() > policy.maxSamplesPerRequest()) {
      metrics.rejected(DropReason.TOO_LARGE);
      Responses.error(ctx, 413, "request has " + write.sampleCount() + " samples, limit "
          + policy.maxSamplesPerRequest() + " (raise --max-samples-per-request or lower "
          + "Prometheus' max_samples_per_send)");
      return;
    }
    metrics.received(write.sampleCount(), write.metadataCount());
    metrics.dropped(DropReason.UNUSED_METRIC, write.unusedSampleCount());
    SampleScreen.Result screened = policy.screen().screen(write);
    write = screened.write();
    metrics.dropped(DropReason.NON_FINITE, screened.nonFinite());
    metrics.dropped(DropReason.FUTURE_TIMESTAMP, screened.future());
    metrics.dropped(DropReason.TOO_OLD, screened.tooOld());
    metrics.dropped(DropReason.NOT_THIS_SHARD, policy.shard().apply(write));
    if (write.acceptedSampleCount() == 0) {
      write.release();
      ctx.response().setStatusCode(204).end();
      return;
    }
    if (!worker.offer(write)) {
      write.release();
      metrics.rejected(DropReason.OVERLOADED);
      metrics.dropped(DropReason.OVERLOADED, write.acceptedSampleCount());
      ctx.response().putHeader("Retry-After", "1");
      Responses.error(ctx, 503, "detector queue is full (" + worker.queuedSamples()
          + " samples waiting); retry later or raise --queue-samples");
      return;
    }
    metrics.accepted(write.acceptedSampleCount());
    ctx.response().setStatusCode(204).end();
  }

  /** Null when the request is remote-write 1.0 as Prometheus sends it, else what is wrong. */
  static String mediaTypeProblem(String encoding, String contentType) {
    if (encoding == null || !encoding.trim().equalsIgnoreCase("snappy")) {
      return "Content-Encoding must be snappy (got " + (encoding == null ? "none" : "\"" + encoding
          + "\"") + ")";
    }
    if (contentType == null) {
      return "Content-Type must be application/x-protobuf (got none)";
    }
    String[] parts = contentType.split(";");
    if (!parts[0].trim().equalsIgnoreCase("application/x-protobuf")) {
      return "Content-Type must be application/x-protobuf (got \"" + contentType + "\")";
    }
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.toLowerCase(Locale.ROOT).startsWith("proto=")) {
        String proto = p.substring("proto=".length()).trim();
        if (!proto.equals("prometheus.WriteRequest")) {
          return "remote-write message " + proto + " is not supported; send remote-write 1.0 "
              + "(protobuf_message: prometheus.WriteRequest)";
        }
      }
    }
    return null;
  }
}
