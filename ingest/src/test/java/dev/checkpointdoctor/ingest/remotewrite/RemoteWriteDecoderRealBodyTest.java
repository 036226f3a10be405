package dev.checkpointdoctor.ingest.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.Labels;
import dev.checkpointdoctor.detector.model.MetricNameFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RemoteWriteDecoderRealBodyTest {
  private static final long TS = 1796210595122L;

  /** Accepts metric names starting with {@code node_disk_}, without allocating. */
  static final MetricNameFilter NODE_DISK = prefixFilter("node_disk_");

  static MetricNameFilter prefixFilter(String prefix) {
    byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
    return (b, off, len) -> {
      if (len < p.length) {
        return false;
      }
      for (int i = 0; i < p.length; i++) {
        if (b[off + i] != p[i]) {
          return false;
        }
      }
      return true;
    };
  }

  @Test
  void decodesRealSampleBodyWithAcceptAll() throws IOException {
    byte[] body = SnappyBlockDecoderTest.resource("prometheus-2.42-remote-write-sample.bin");
    DecodedWrite w =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL)
            .decode(body, 0, body.length);

    assertThat(w.timeseriesCount()).isEqualTo(500);
    assertThat(w.series()).hasSize(500);
    assertThat(w.sampleCount()).isEqualTo(500);
    assertThat(w.acceptedSampleCount()).isEqualTo(500);
    assertThat(w.unusedSeriesCount()).isZero();
    assertThat(w.unusedSampleCount()).isZero();
    assertThat(w.metadataCount()).isZero();
    assertThat(w.exemplarCount()).isZero();
    assertThat(w.histogramCount()).isZero();

    Set<String> names = new HashSet<>();
    for (DecodedSeries s : w.series()) {
      assertThat(s.timestamps()).containsExactly(TS);
      assertThat(s.values()).hasSize(1);
      assertThat(s.labels().get("job")).isEqualTo("node");
      assertThat(s.labels().get("instance")).isEqualTo("127.0.0.1:19100");
      names.add(s.labels().metricName());
    }
    assertThat(names).hasSize(282);

    DecodedSeries first = w.series().get(0);
    assertThat(first.labels())
        .isEqualTo(
            Labels.of(
                "__name__", "go_gc_duration_seconds",
                "instance", "127.0.0.1:19100",
                "job", "node",
                "quantile", "0"));
    assertThat(Double.doubleToRawLongBits(first.values()[0])).isEqualTo(0x3f0c36a899cdd821L);
    assertThat(first.values()[0]).isEqualTo(5.3813E-5);

    DecodedSeries s100 = w.series().get(100);
    assertThat(s100.labels())
        .isEqualTo(
            Labels.of(
                "__name__", "node_filesystem_files_free",
                "device", "/dev/vda",
                "fstype", "ext4",
                "instance", "127.0.0.1:19100",
                "job", "node",
                "mountpoint", "/"));
    assertThat(s100.values()[0]).isEqualTo(1.6369551E7);

    DecodedSeries s250 = w.series().get(250);
    assertThat(s250.labels().metricName()).isEqualTo("node_network_name_assign_type");
    assertThat(s250.labels().get("device")).isEqualTo("eth0");
    assertThat(s250.values()[0]).isEqualTo(1.0);

    // proto3 omits a 0.0 value: the last series has no value field and decodes to +0.0.
    DecodedSeries last = w.series().get(499);
    assertThat(last.labels())
        .isEqualTo(
            Labels.of(
                "__name__", "promhttp_metric_handler_errors_total",
                "cause", "encoding",
                "instance", "127.0.0.1:19100",
                "job", "node"));
    assertThat(Double.doubleToRawLongBits(last.values()[0])).isZero();
  }

  @Test
  void nameFilterDropsSeriesEarly() throws IOException {
    byte[] body = SnappyBlockDecoderTest.resource("prometheus-2.42-remote-write-sample.bin");
    DecodedWrite w =
        new RemoteWriteDecoder(DecodeLimits.defaults(), NODE_DISK).decode(body, 0, body.length);

    assertThat(w.timeseriesCount()).isEqualTo(500);
    assertThat(w.sampleCount()).isEqualTo(500);
    assertThat(w.series()).hasSize(36);
    assertThat(w.acceptedSampleCount()).isEqualTo(36);
    assertThat(w.unusedSeriesCount()).isEqualTo(464);
    assertThat(w.unusedSampleCount()).isEqualTo(464);
    assertThat(w.series())
        .allSatisfy(s -> assertThat(s.labels().metricName()).startsWith("node_disk_"));
  }

  @Test
  void filterSeesExactNameBytes() throws IOException {
    byte[] body = SnappyBlockDecoderTest.resource("prometheus-2.42-remote-write-sample.bin");
    Set<String> seen = new HashSet<>();
    int[] calls = {0};
    MetricNameFilter recording =
        (b, off, len) -> {
          calls[0]++;
          seen.add(new String(b, off, len, StandardCharsets.UTF_8));
          return false;
        };
    DecodedWrite w =
        new RemoteWriteDecoder(DecodeLimits.defaults(), recording).decode(body, 0, body.length);
    assertThat(calls[0]).isEqualTo(500);
    assertThat(seen).hasSize(282).contains("go_gc_duration_seconds", "node_disk_io_now");
    assertThat(w.series()).isEmpty();
    assertThat(w.unusedSeriesCount()).isEqualTo(500);
    assertThat(w.unusedSampleCount()).isEqualTo(500);
  }

  @Test
  void metadataBody() throws IOException {
    byte[] body =
        SnappyBlockDecoderTest.resource("prometheus-2.42-remote-write-metadata-sample.bin");
    assertThat(body).hasSize(9033);
    assertThat(SnappyBlockDecoder.uncompressedLength(body, 0, body.length)).isEqualTo(21398);
    DecodedWrite w =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL)
            .decode(body, 0, body.length);
    assertThat(w.timeseriesCount()).isZero();
    assertThat(w.series()).isEmpty();
    assertThat(w.sampleCount()).isZero();
    assertThat(w.metadataCount()).isEqualTo(282);
  }

  @Test
  void decoderIsReusableAcrossRequests() throws IOException {
    byte[] sample = SnappyBlockDecoderTest.resource("prometheus-2.42-remote-write-sample.bin");
    byte[] meta =
        SnappyBlockDecoderTest.resource("prometheus-2.42-remote-write-metadata-sample.bin");
    RemoteWriteDecoder d =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL);
    DecodedWrite a = d.decode(sample, 0, sample.length);
    assertThat(d.decode(meta, 0, meta.length).metadataCount()).isEqualTo(282);
    DecodedWrite b = d.decode(sample, 0, sample.length);
    assertThat(b.series()).hasSize(500);
    for (int i = 0; i < 500; i++) {
      assertThat(b.series().get(i).labels()).isEqualTo(a.series().get(i).labels());
      assertThat(b.series().get(i).values()).isEqualTo(a.series().get(i).values());
    }
  }

  @Test
  void uncompressedParseAgreesWithIndependentWalker() throws IOException {
    byte[] body = SnappyBlockDecoderTest.resource("prometheus-2.42-remote-write-sample.bin");
    byte[] raw = SnappyBlockDecoderTest.decompress(body);
    DecodedWrite w =
        new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL)
            .decodeUncompressed(raw, raw.length);
    assertThat(w.timeseriesCount()).isEqualTo(TestProtoWalker.countTopLevel(raw, 1));
    // Any truncation of the protobuf must be detected.
    for (int cut : new int[] {1, 2, 57, 1000, raw.length - 1}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () ->
                  new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL)
                      .decodeUncompressed(raw, raw.length - cut))
          .isInstanceOf(RemoteWriteException.class)
          .hasMessageStartingWith("protobuf: ");
    }
  }
}
