package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Signal;
import dev.checkpointdoctor.detector.trend.HourlyHistory;
import dev.checkpointdoctor.detector.trend.LoadTrend;
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

  /**
   * The hourly summaries an entry keeps, or null: fourteen days of the job-level checkpoint
   * signals whose trend is watched, and the last hours of every records-in rate, whose lasting
   * rise the trend test takes out ({@link LoadTrend#lastingSlope}).
   */
  static HourlyHistory newHourly(Signal signal, String scope) {
    int hours = hoursKept(signal, scope);
    return hours == 0 ? null : new HourlyHistory(hours);
  }

  private static int hoursKept(Signal signal, String scope) {
    if (TrendWatch.watched(signal, scope)) {
      return HourlyHistory.HOURS;
    }
    // one more than read: the newest closed hour is summarised only when the next one begins
    return signal == Signal.RECORDS_IN ? LoadTrend.INPUT_HOURS + 1 : 0;
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
            new ByteArrayInputStream(s.hourly())), hoursKept(s.signal(), s.scope()));
      } else {
        entry.hourly = newHourly(s.signal(), s.scope());
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
