package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.trend.HourlyHistory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The histories of one book entry to and from {@link DetectorState.HistoryState}. The raw points
 * are read and replayed through the history's public accessors and {@code add}, never its
 * arrays: replaying a thinned history that is already within capacity adds the same points in
 * the same order, so the restored history is the one that was saved.
 */
final class HistorySnapshot {
  private HistorySnapshot() {}

  static DetectorState.HistoryState of(String job, RecentHistory h, HourlyHistory hourly,
      TrendWatch trend) {
    int n = h.size();
    long[] times = new long[n];
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      times[i] = h.timeMs(i);
      values[i] = h.value(i);
    }
    byte[] hourlyBlob = null;
    byte[] trendBlob = null;
    try {
      if (hourly != null) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        hourly.writeTo(new DataOutputStream(b));
        hourlyBlob = b.toByteArray();
      }
      if (trend != null) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        trend.writeTo(new DataOutputStream(b));
        trendBlob = b.toByteArray();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new DetectorState.HistoryState(job, h.signal(), h.scope(), times, values, hourlyBlob,
        trendBlob, trend == null ? null : trend.open);
  }

  static void restore(DetectorState.HistoryState s, SignalBook.Entry entry) {
    RecentHistory h = new RecentHistory(s.signal(), s.scope());
    for (int i = 0; i < s.timesMs().length; i++) {
      h.add(s.timesMs()[i], s.values()[i]);
    }
    entry.history = h;
    try {
      if (s.hourly() != null) {
        entry.hourly = HourlyHistory.readFrom(new DataInputStream(
            new ByteArrayInputStream(s.hourly())));
      } else if (TrendWatch.watched(s.signal(), s.scope())) {
        entry.hourly = new HourlyHistory();
      }
      if (s.trend() != null) {
        entry.trend = TrendWatch.readFrom(new DataInputStream(
            new ByteArrayInputStream(s.trend())), s.signal());
        entry.trend.open = s.trendAnomaly();
      } else if (TrendWatch.watched(s.signal(), s.scope())) {
        entry.trend = new TrendWatch(s.signal());
      }
    } catch (IOException e) {
      throw new IllegalStateException("history of " + s.job() + "/" + s.signal().id() + "/"
          + s.scope() + ": " + e.getMessage(), e);
    }
  }
}
