package dev.checkpointdoctor.api.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.checkpointdoctor.api.shard.Hashmod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Hashmod} against the real thing: Prometheus 2.42 scrapes series with many job names,
 * relabels each with {@code hashmod} into labels (several moduli, one over two source labels),
 * and its query API returns what it computed; every answer must equal ours.
 */
class HashmodPrometheusIT {
  static final long BIG = 1_000_003L;

  static List<String> jobNames() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      names.add("job-" + i);
    }
    names.addAll(List.of("orders-etl", "payments_enrichment", "café über", "a;b", "x/y",
        "quoted \"name\"", "back\\slash", "日本語"));
    return names;
  }

  static String escape(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  @Test
  void prometheusHashmodEqualsOurs(@TempDir Path tmp) throws Exception {
    PrometheusServer.requireBinary();
    List<String> names = jobNames();
    StringBuilder exposition = new StringBuilder("# TYPE cpd_probe gauge\n");
    for (int i = 0; i < names.size(); i++) {
      exposition.append("cpd_probe{job_name=\"").append(escape(names.get(i)))
          .append("\",cluster=\"c").append(i % 3).append("\"} 1\n");
    }
    byte[] body = exposition.toString().getBytes(StandardCharsets.UTF_8);
    HttpServer target = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    target.createContext("/metrics", ex -> {
      ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    });
    target.start();
    String config = """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
        scrape_configs:
          - job_name: probe
            static_configs:
              - targets: ['127.0.0.1:%d']
            metric_relabel_configs:
              - {source_labels: [job_name], modulus: 2, target_label: h2, action: hashmod}
              - {source_labels: [job_name], modulus: 3, target_label: h3, action: hashmod}
              - {source_labels: [job_name], modulus: 7, target_label: h7, action: hashmod}
              - {source_labels: [job_name], modulus: %d, target_label: hbig, action: hashmod}
              - {source_labels: [cluster, job_name], modulus: 5, target_label: hc,
                 action: hashmod}
        """.formatted(target.getAddress().getPort(), BIG);
    try (PrometheusServer prometheus = PrometheusServer.start(tmp.resolve("prom"), config)) {
      String query = "http://127.0.0.1:" + prometheus.port() + "/api/v1/query?query="
          + URLEncoder.encode("cpd_probe", StandardCharsets.UTF_8);
      JsonArray result = Await.until("Prometheus has all " + names.size() + " relabelled series",
          Duration.ofSeconds(60), () -> {
            JsonArray r = new JsonObject(Http.get(query).body()).getJsonObject("data")
                .getJsonArray("result");
            return r.size() == names.size() ? r : null;
          });
      int checked = 0;
      for (int i = 0; i < result.size(); i++) {
        JsonObject m = result.getJsonObject(i).getJsonObject("metric");
        String job = m.getString("job_name");
        String cluster = m.getString("cluster");
        Map<String, Long> ours = Map.of("h2", Hashmod.of(job, 2), "h3", Hashmod.of(job, 3),
            "h7", Hashmod.of(job, 7), "hbig", Hashmod.of(job, BIG),
            "hc", Hashmod.of(List.of(cluster, job), 5));
        for (Map.Entry<String, Long> e : ours.entrySet()) {
          assertThat(m.getString(e.getKey())).as(e.getKey() + " of " + job + " (" + cluster + ")")
              .isEqualTo(Long.toString(e.getValue()));
          checked++;
        }
      }
      assertThat(checked).isEqualTo(names.size() * 5);
    } finally {
      target.stop(0);
    }
  }
}
