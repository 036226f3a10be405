package dev.checkpointdoctor.api.ingest;

import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import java.time.Duration;
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

  /** Screens the request in place (no copy); the result holds the same, possibly trimmed, write. */
  public Result screen(DecodedWrite write) {
    long now = nowMs.getAsLong();
    long newest = saturatedAdd(now, maxFutureMs);
    long oldest = maxAgeMs == Long.MAX_VALUE ? Long.MIN_VALUE : now - maxAgeMs;
    int nonFinite = 0;
    int future = 0;
    int tooOld = 0;
    long[] ts = write.timestamps();
    double[] vs = write.values();
    for (int i = 0; i < write.acceptedSampleCount(); i++) {
      int verdict = verdict(ts[i], vs[i], newest, oldest);
      nonFinite += verdict == NON_FINITE ? 1 : 0;
      future += verdict == FUTURE ? 1 : 0;
      tooOld += verdict == TOO_OLD ? 1 : 0;
    }
    if (nonFinite + future + tooOld > 0) {
      write.removeSamples((t, v) -> verdict(t, v, newest, oldest) == OK);
    }
    return new Result(write, nonFinite, future, tooOld);
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
