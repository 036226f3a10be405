package dev.checkpointdoctor.bench;

import dev.checkpointdoctor.api.bench.BodyFactory;
import dev.checkpointdoctor.api.bench.FlinkFleet;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import dev.checkpointdoctor.ingest.remotewrite.DecodedSeries;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Bodies and series shared by the benchmarks. */
final class BenchData {
  /** Samples in the Flink-shaped body; the benchmarks' operation counts depend on it. */
  static final int FLINK_BODY_SAMPLES = 2000;
  /** Catalog series fed to the extraction and detector benchmarks per operation. */
  static final int USED_SERIES = 1000;

  private BenchData() {}

  /** The body Prometheus 2.42 sent for a node_exporter scrape: 500 series x 1 sample. */
  static byte[] realPrometheus242() {
    try (InputStream in = BenchData.class.getResourceAsStream(
        "/remotewrite/prometheus-2.42-remote-write-sample.bin")) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The first 2,000 series of a Flink fleet's scrape (all kinds mixed), one sample each. */
  static byte[] flink2000() {
    FlinkFleet fleet = new FlinkFleet(4, 8, 16);
    BodyFactory f = new BodyFactory();
    return f.compress(f.uncompressed(fleet.series(), 0, FLINK_BODY_SAMPLES, 0,
        1_700_000_000_000L));
  }

  /** {@link #USED_SERIES} decoded series the catalog uses, from a Flink fleet's scrape. */
  static List<DecodedSeries> usedSeries() {
    return usedSeries(USED_SERIES);
  }

  /** The first {@code n} decoded series the catalog uses, from a fleet big enough to have them. */
  static List<DecodedSeries> usedSeries(int n) {
    // a 12-job fleet has ~9,500 used series; more jobs for more
    FlinkFleet fleet = new FlinkFleet(Math.max(12, n / 790 + 1), 8, 16);
    BodyFactory f = new BodyFactory();
    RemoteWriteDecoder decoder = new RemoteWriteDecoder(DecodeLimits.defaults(),
        SignalCatalog.defaults());
    List<DecodedSeries> out = new ArrayList<>();
    for (BodyFactory.Body b : f.round(fleet.series(), 0, 1_700_000_000_000L, 500)) {
      for (DecodedSeries s : decoder.decode(b.bytes(), 0, b.bytes().length).series()) {
        if (out.size() < n) {
          out.add(s);
        }
      }
    }
    if (out.size() < n) {
      throw new IllegalStateException("fleet has only " + out.size() + " used series");
    }
    return out;
  }

  static RemoteWriteDecoder catalogDecoder() {
    return new RemoteWriteDecoder(DecodeLimits.defaults(), SignalCatalog.defaults());
  }

  static RemoteWriteDecoder acceptAllDecoder() {
    return new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL);
  }
}
