package dev.checkpointdoctor.ingest.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.detector.model.MetricNameFilter;
import org.junit.jupiter.api.Test;

class DecodedWriteRemoveSamplesTest {
  @Test
  void removesRejectedSamplesAndEmptySeriesInPlace() {
    byte[] body = RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
        RemoteWriteTestEncoder.series(new String[] {"__name__", "a"}, new long[] {1, 2, 3},
            new double[] {10, Double.NaN, 30}),
        RemoteWriteTestEncoder.series(new String[] {"__name__", "b"}, new long[] {4},
            new double[] {Double.NaN}),
        RemoteWriteTestEncoder.series(new String[] {"__name__", "c"}, new long[] {5, 6},
            new double[] {50, 60})));
    DecodedWrite w = new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL)
        .decode(body, 0, body.length);
    assertThat(w.acceptedSampleCount()).isEqualTo(6);

    int removed = w.removeSamples((ts, v) -> !Double.isNaN(v));

    assertThat(removed).isEqualTo(2);
    assertThat(w.acceptedSampleCount()).isEqualTo(4);
    assertThat(w.acceptedSeriesCount()).isEqualTo(2);
    assertThat(w.series()).hasSize(2);
    assertThat(w.series().get(0).labels().metricName()).isEqualTo("a");
    assertThat(w.series().get(0).timestamps()).containsExactly(1, 3);
    assertThat(w.series().get(0).values()).containsExactly(10, 30);
    assertThat(w.series().get(1).labels().metricName()).isEqualTo("c");
    assertThat(w.series().get(1).timestamps()).containsExactly(5, 6);
    assertThat(w.sampleCount()).isEqualTo(6);
  }

  @Test
  void removesRejectedSeriesWithTheirSamplesInPlace() {
    byte[] body = RemoteWriteTestEncoder.compress(RemoteWriteTestEncoder.writeRequest(
        RemoteWriteTestEncoder.series(new String[] {"__name__", "a"}, new long[] {1, 2},
            new double[] {10, 20}),
        RemoteWriteTestEncoder.series(new String[] {"__name__", "b"}, new long[] {3, 4, 5},
            new double[] {30, 40, 50}),
        RemoteWriteTestEncoder.series(new String[] {"__name__", "c"}, new long[] {6},
            new double[] {60}),
        RemoteWriteTestEncoder.series(new String[] {"__name__", "d"}, new long[] {7, 8},
            new double[] {70, 80})));
    DecodedWrite w = new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL)
        .decode(body, 0, body.length);

    int removed = w.removeSeries(l -> !l.metricName().equals("b") && !l.metricName().equals("c"));

    assertThat(removed).isEqualTo(4);
    assertThat(w.acceptedSampleCount()).isEqualTo(4);
    assertThat(w.acceptedSeriesCount()).isEqualTo(2);
    assertThat(w.series().get(0).labels().metricName()).isEqualTo("a");
    assertThat(w.series().get(0).values()).containsExactly(10, 20);
    assertThat(w.series().get(1).labels().metricName()).isEqualTo("d");
    assertThat(w.series().get(1).timestamps()).containsExactly(7, 8);
    assertThat(w.series().get(1).values()).containsExactly(70, 80);
    assertThat(w.removeSeries(l -> true)).isZero();
    assertThat(w.acceptedSampleCount()).isEqualTo(4);
  }
}
