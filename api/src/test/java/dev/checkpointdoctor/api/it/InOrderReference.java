package dev.checkpointdoctor.api.it;

import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.cause.CauseRanker;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.DeliverySettings;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.pipeline.Detector;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a real Prometheus stored, read back through its query API, and delivered in timestamp
 * order to a detector of our own: the reference a delivery through remote-write (shards, HA
 * pairs) must teach the same as.
 */
public final class InOrderReference {
  private InOrderReference() {}

  /** One raw sample as Prometheus stored it (external labels are not stored). */
  public record Sample(Labels labels, long timestampMs, double value) {}

  /** Every raw sample of the series matching {@code selector} in the last {@code window}. */
  public static List<Sample> stored(PrometheusServer p, String selector, String window) {
    String query = URLEncoder.encode(selector + "[" + window + "]", StandardCharsets.UTF_8);
    JsonObject r = new JsonObject(Http.get("http://127.0.0.1:" + p.port()
        + "/api/v1/query?query=" + query).body());
    if (!"success".equals(r.getString("status"))) {
      throw new IllegalStateException("query failed: " + r.encode());
    }
    List<Sample> out = new ArrayList<>();
    JsonArray result = r.getJsonObject("data").getJsonArray("result");
    for (int i = 0; i < result.size(); i++) {
      JsonObject series = result.getJsonObject(i);
      Map<String, String> m = new TreeMap<>();
      series.getJsonObject("metric").forEach(e -> m.put(e.getKey(), (String) e.getValue()));
      Labels labels = Labels.fromMap(m);
      JsonArray values = series.getJsonArray("values");
      for (int k = 0; k < values.size(); k++) {
        JsonArray v = values.getJsonArray(k);
        long ts = Math.round(((Number) v.getValue(0)).doubleValue() * 1000);
        out.add(new Sample(labels, ts, Double.parseDouble(v.getString(1))));
      }
    }
    return out;
  }

  /**
   * Whether a Prometheus has sent to its remote-write endpoint everything it appended: nothing
   * pending and the newest sent timestamp at the newest appended one.
   */
  public static boolean allSent(PrometheusServer p) {
    String metrics = Http.get("http://127.0.0.1:" + p.port() + "/metrics").body();
    double pending = sum(metrics, "prometheus_remote_storage_samples_pending");
    double highest = sum(metrics, "prometheus_remote_storage_highest_timestamp_in_seconds");
    double sent = sum(metrics, "prometheus_remote_storage_queue_highest_sent_timestamp_seconds");
    return pending == 0 && highest > 0 && sent >= highest;
  }

  private static double sum(String exposition, String name) {
    double total = 0;
    for (String line : exposition.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
        total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return total;
  }

  /** A detector with the given settings fed the samples in timestamp order, a batch per time. */
  public static Detector learn(List<Sample> samples, DetectorSettings settings,
      DeliverySettings delivery) {
    Detector d = new Detector(SignalCatalog.defaults(), settings, delivery,
        new CauseRanker(settings));
    List<Sample> sorted = new ArrayList<>(samples);
    sorted.sort(Comparator.comparingLong(Sample::timestampMs));
    long batch = Long.MIN_VALUE;
    for (Sample s : sorted) {
      if (s.timestampMs() != batch && batch != Long.MIN_VALUE) {
        d.endBatch();
      }
      batch = s.timestampMs();
      d.accept(s.labels(), new long[] {s.timestampMs()}, new double[] {s.value()});
    }
    d.endBatch();
    return d;
  }

  /** A job's baselines as comparable lines: signal, scope, state, observations, expected. */
  public static List<String> baselines(Detector d, String job) {
    List<String> out = new ArrayList<>();
    for (BaselineSummary b : d.baselines(job)) {
      out.add(String.format(Locale.ROOT, "%s %s %s n=%d expected=%.9g", b.signal().id(),
          b.scope(), b.state(), b.observations(), b.expected()));
    }
    return out;
  }
}
