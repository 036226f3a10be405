package dev.checkpointdoctor.ingest.remotewrite;

import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.series;
import static dev.checkpointdoctor.ingest.remotewrite.RemoteWriteTestEncoder.writeRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.checkpointdoctor.detector.model.MetricNameFilter;
import org.junit.jupiter.api.Test;

class DecodedWriteReleaseTest {
  private final RemoteWriteDecoder decoder =
      new RemoteWriteDecoder(DecodeLimits.defaults(), MetricNameFilter.ACCEPT_ALL);

  private static byte[] body(long ts) {
    return RemoteWriteTestEncoder.compressLiteralOnly(writeRequest(
        series(new String[] {"__name__", "a", "job", "x"}, new long[] {ts, ts + 1},
            new double[] {1, 2}),
        series(new String[] {"__name__", "b", "job", "x"}, new long[] {ts}, new double[] {3})));
  }

  private DecodedWrite decode(long ts) {
    byte[] b = body(ts);
    return decoder.decode(b, 0, b.length);
  }

  @Test
  void columnsHoldEverySeriesSamplesInOrder() {
    DecodedWrite w = decode(100);
    assertThat(w.acceptedSeriesCount()).isEqualTo(2);
    assertThat(w.labels(0).metricName()).isEqualTo("a");
    assertThat(w.from(0)).isZero();
    assertThat(w.to(0)).isEqualTo(2);
    assertThat(w.from(1)).isEqualTo(2);
    assertThat(w.to(1)).isEqualTo(3);
    assertThat(w.timestamps()).startsWith(100L, 101L, 100L);
    assertThat(w.values()).startsWith(1.0, 2.0, 3.0);
  }

  @Test
  void releasedArraysAreReusedByTheNextRequestWithItsOwnData() {
    DecodedWrite first = decode(100);
    long[] arrays = first.timestamps();
    first.release();
    DecodedWrite second = decode(200);
    assertThat(second.timestamps()).isSameAs(arrays).startsWith(200L, 201L, 200L);
    assertThat(second.series().get(1).timestamps()).containsExactly(200L);
  }

  @Test
  void unreleasedArraysAreNotShared() {
    DecodedWrite first = decode(100);
    DecodedWrite second = decode(200);
    assertThat(second.timestamps()).isNotSameAs(first.timestamps());
    assertThat(first.timestamps()).startsWith(100L, 101L, 100L);
  }

  @Test
  void columnsCannotBeReadAfterReleaseButCountsCan() {
    DecodedWrite w = decode(100);
    w.release();
    w.release();
    assertThat(w.acceptedSampleCount()).isEqualTo(3);
    assertThatThrownBy(w::values).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> w.labels(0)).isInstanceOf(IllegalStateException.class);
  }
}
