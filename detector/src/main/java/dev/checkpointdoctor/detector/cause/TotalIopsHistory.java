package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayList;
import java.util.List;

/**
 * Read plus write IOPS of one disk at the timestamps both were observed. A gp2 volume's burst
 * bucket caps reads and writes together: when the mix shifts (an upload reads SSTs while RocksDB
 * writes) neither direction is flat on its own, but their sum sits at the ceiling.
 */
final class TotalIopsHistory implements SeriesHistory {
  private final String scope;
  private final long[] times;
  private final double[] values;

  private TotalIopsHistory(String scope, long[] times, double[] values) {
    this.scope = scope;
    this.times = times;
    this.values = values;
  }

  /** One summed history per disk that reports both directions. */
  static List<SeriesHistory> of(JobEvidence job) {
    List<SeriesHistory> out = new ArrayList<>();
    for (SeriesHistory w : job.histories(Signal.DISK_WRITE_IOPS)) {
      for (SeriesHistory r : job.histories(Signal.DISK_READ_IOPS)) {
        if (r.scope().equals(w.scope())) {
          out.add(sum(w, r));
        }
      }
    }
    return out;
  }

  private static TotalIopsHistory sum(SeriesHistory w, SeriesHistory r) {
    long[] t = new long[Math.min(w.size(), r.size())];
    double[] v = new double[t.length];
    int n = 0;
    int j = 0;
    for (int i = 0; i < w.size() && j < r.size(); i++) {
      while (j < r.size() && r.timeMs(j) < w.timeMs(i)) {
        j++;
      }
      if (j < r.size() && r.timeMs(j) == w.timeMs(i)) {
        t[n] = w.timeMs(i);
        v[n++] = w.value(i) + r.value(j);
      }
    }
    return new TotalIopsHistory(w.scope(), java.util.Arrays.copyOf(t, n),
        java.util.Arrays.copyOf(v, n));
  }

  /** Reported as write IOPS for units and floors; {@link DiskPlateau} names it "total IOPS". */
  @Override
  public Signal signal() {
    return Signal.DISK_WRITE_IOPS;
  }

  @Override
  public String scope() {
    return scope;
  }

  @Override
  public int size() {
    return times.length;
  }

  @Override
  public long timeMs(int i) {
    return times[i];
  }

  @Override
  public double value(int i) {
    return values[i];
  }
}
