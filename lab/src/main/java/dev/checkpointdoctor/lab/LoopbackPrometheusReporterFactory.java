package dev.checkpointdoctor.lab;

import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.HTTPServer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.util.Properties;
import org.apache.flink.metrics.prometheus.AbstractPrometheusReporter;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Flink's PrometheusReporter, bound to 127.0.0.1 instead of every interface (the lab stays on
 * loopback). The exposition is Flink's own: the collectors are AbstractPrometheusReporter's.
 * Takes the same {@code port} option (a single port or a range {@code a-b}).
 */
public final class LoopbackPrometheusReporterFactory implements MetricReporterFactory {
  @Override
  public MetricReporter createMetricReporter(Properties properties) {
    String ports = properties.getProperty("port", "9249");
    String[] range = ports.split("-");
    int from = Integer.parseInt(range[0].trim());
    int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
    return new Reporter(from, to);
  }

  static final class Reporter extends AbstractPrometheusReporter {
    private HTTPServer server;

    Reporter(int from, int to) {
      CollectorRegistry registry;
      try {
        Field f = AbstractPrometheusReporter.class.getDeclaredField("registry");
        f.setAccessible(true);
        registry = (CollectorRegistry) f.get(this);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("Flink's AbstractPrometheusReporter changed", e);
      }
      for (int port = from; port <= to && server == null; port++) {
        try {
          server = new HTTPServer(new InetSocketAddress("127.0.0.1", port), registry, true);
          log.info("Lab Prometheus reporter listening on 127.0.0.1:{}", port);
        } catch (IOException e) {
          log.info("port {} taken, trying the next", port);
        }
      }
      if (server == null) {
        throw new IllegalStateException("no free reporter port in " + from + "-" + to);
      }
    }

    @Override
    public void close() {
      if (server != null) {
        server.stop();
      }
      super.close();
    }
  }
}
