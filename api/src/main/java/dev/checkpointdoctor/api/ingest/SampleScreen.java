package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.ingest.remotewrite.DecodedSeries;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Takes out samples that would corrupt state if the detector saw them, before a request is
 * accepted: NaN and ±Inf values (a band cannot be learned from them; Prometheus' stale marker is
 * kept, it ends a series), timestamps further ahead of the wall clock than the allowed skew (one
 * such sample would advance the series cursor and event time, and every real sample after it would
 * be dropped as out of order) and, when configured, samples older than a maximum age. The request
 * still succeeds; what was taken out is counted by reason. A request without such samples is
 * returned as it is, with no allocation.
 */
public final class SampleScreen {
  private final LongSupplier nowMs;
  private final long maxFutureMs;
  private final long maxAgeMs;

  /**
   * @param maxAge null: no lower bound (backfill and replays of history stay possible)
   */
  public SampleScreen(LongSupplier nowMs, Duration maxFutureSkew, Duration maxAge) {
    this.nowMs = nowMs;
    this.maxFutureMs = maxFutureSkew.toMillis();
    this.maxAgeMs = maxAge == null ? Long.MAX_VALUE : maxAge.toMillis();
  }

  /** What survived, and how many samples were taken out for each reason. */
  public record Result(DecodedWrite write, int nonFinite, int future, int tooOld) {
    public int dropped() {
      return nonFinite + future + tooOld;
    }
  }

  public Result screen(DecodedWrite write) {
    long now = nowMs.getAsLong();
    long newest = saturatedAdd(now, maxFutureMs);
    long oldest = maxAgeMs == Long.MAX_VALUE ? Long.MIN_VALUE : now - maxAgeMs;
    int nonFinite = 0;
    int future = 0;
    int tooOld = 0;
    for (DecodedSeries s : write.series()) {
      for (int i = 0; i < s.timestamps().length; i++) {
        int verdict = verdict(s.timestamps()[i], s.values()[i], newest, oldest);
        nonFinite += verdict == NON_FINITE ? 1 : 0;
        future += verdict == FUTURE ? 1 : 0;
        tooOld += verdict == TOO_OLD ? 1 : 0;
      }
    }
    int dropped = nonFinite + future + tooOld;
    if (dropped == 0) {
      return new Result(write, 0, 0, 0);
    }
    List<DecodedSeries> kept = new ArrayList<>(write.series().size());
    for (DecodedSeries s : write.series()) {
      int n = 0;
      long[] ts = new long[s.timestamps().length];
      double[] vs = new double[ts.length];
      for (int i = 0; i < ts.length; i++) {
        if (verdict(s.timestamps()[i], s.values()[i], newest, oldest) == OK) {
          ts[n] = s.timestamps()[i];
          vs[n++] = s.values()[i];
        }
      }
      if (n == ts.length) {
        kept.add(s);
      } else if (n > 0) {
        kept.add(new DecodedSeries(s.labels(), java.util.Arrays.copyOf(ts, n),
            java.util.Arrays.copyOf(vs, n)));
      }
    }
    DecodedWrite screened = new DecodedWrite(kept, write.timeseriesCount(), write.sampleCount(),
        write.acceptedSampleCount() - dropped, write.unusedSeriesCount(),
        write.unusedSampleCount(), write.metadataCount(), write.exemplarCount(),
        write.histogramCount());
    return new Result(screened, nonFinite, future, tooOld);
  }

  private static final int OK = 0;
  private static final int NON_FINITE = 1;
  private static final int FUTURE = 2;
  private static final int TOO_OLD = 3;

  private static int verdict(long ts, double v, long newest, long oldest) {
    if (!Double.isFinite(v) && Double.doubleToRawLongBits(v) != Detector.STALE_NAN_BITS) {
      return NON_FINITE;
    }
    if (ts > newest) {
      return FUTURE;
    }
    return ts < oldest ? TOO_OLD : OK;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
