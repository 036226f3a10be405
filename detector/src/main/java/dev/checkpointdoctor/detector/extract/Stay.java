package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.SignalExtractor.NONE;

import java.util.Arrays;

/**
 * When one job ran on one TaskManager or host, in event time: from the first sample of a Flink
 * series that places it there until the stale marker of the last one. Node, container and
 * TaskManager samples are joined to the jobs whose stay covers their own timestamp, so it does
 * not matter whether they arrive before or after the Flink series of the same moment.
 */
final class Stay {
  /** Earlier intervals kept for samples still on their way; older ones are forgotten. */
  private static final int MAX_PAST = 8;

  final String job;
  /** Start of the current interval; NONE before the first sample. */
  long first = NONE;
  /** Newest sample of a series that places the job here: what is known so far. */
  long progress = NONE;
  /** Series placing the job here that have not ended. */
  int live;
  /** Newest stale marker of the current interval; its end once {@code live} is 0. */
  private long lastEnd = NONE;
  private long[] past = new long[0];
  private int pastCount;

  Stay(String job) {
    this.job = job;
  }

  /** A series placing the job here sent its first sample. */
  void open(long ts) {
    if (live == 0 && first != NONE && lastEnd != NONE && ts >= lastEnd) {
      remember(first, lastEnd); // the job came back after a gap: a new interval
      first = ts;
    } else if (first == NONE || ts < first) {
      first = ts; // a reordered earlier first sample widens the interval
    }
    lastEnd = live == 0 ? NONE : lastEnd;
    live++;
    seen(ts);
  }

  void seen(long ts) {
    if (ts > progress) {
      progress = ts;
    }
  }

  /** A series placing the job here ended with a stale marker at {@code ts}. */
  void close(long ts) {
    if (live > 0) {
      live--;
    }
    if (lastEnd == NONE || ts > lastEnd) {
      lastEnd = ts;
    }
  }

  /** Whether the job ran here at {@code t}: an interval contains it, [first sample, end). */
  boolean covers(long t) {
    if (first != NONE && first <= t && (live > 0 || t < lastEnd)) {
      return true;
    }
    for (int i = 0; i < pastCount; i += 2) {
      if (past[i] <= t && t < past[i + 1]) {
        return true;
      }
    }
    return false;
  }

  /** No series places the job here any more; {@link #end()} is when the last one ended. */
  boolean closed() {
    return live == 0;
  }

  long end() {
    return lastEnd;
  }

  private void remember(long from, long to) {
    if (pastCount == 2 * MAX_PAST) {
      System.arraycopy(past, 2, past, 0, pastCount - 2);
      pastCount -= 2;
    }
    if (pastCount == past.length) {
      past = Arrays.copyOf(past, Math.max(2, past.length * 2));
    }
    past[pastCount++] = from;
    past[pastCount++] = to;
  }
}
