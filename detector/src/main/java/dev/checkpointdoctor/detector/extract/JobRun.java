package dev.checkpointdoctor.detector.extract;

import static dev.checkpointdoctor.detector.extract.SignalExtractor.NONE;

import dev.checkpointdoctor.detector.catalog.MetricRule.Kind;
import dev.checkpointdoctor.detector.extract.SignalExtractor.Series;
import dev.checkpointdoctor.detector.model.Observation;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.function.Consumer;

/**
 * One job_id of a job (a restart under a new job_id starts a new run): its JobManager gauges
 * gathered into one frame per scrape timestamp, and what turning frames into observations needs
 * to remember between them (the last completed checkpoint, counters).
 *
 * <p>Frames are finished strictly in time order. A frame whose completion marker moved but which
 * lacks a per-checkpoint gauge (it was given up before that series arrived) leaves that gauge
 * owed: the next frame of the same checkpoint that has it reports it, so a checkpoint is neither
 * lost nor counted twice.
 */
final class JobRun {
  static final int JOB_KINDS = 10;
  private static final int PER_CHECKPOINT = bit(Kind.CP_DURATION) | bit(Kind.CP_SIZE)
      | bit(Kind.CP_FULL_SIZE) | bit(Kind.CP_PERSISTED_DATA);
  private static final int MAX_FAILURE_EVENTS = 4096;

  /** One scrape's JobManager gauges of this run. */
  static final class Frame {
    final long ts;
    final double[] vals = new double[JOB_KINDS];
    int mask;
    /** Series that ended (stale marker) at this timestamp. */
    int ended;
    int samples;

    Frame(long ts) {
      this.ts = ts;
    }
  }

  final String jobId;
  /** The run's live series; the oldest newest sample among them is how far frames are known. */
  final ArrayList<Series> members = new ArrayList<>();
  final ArrayList<Frame> frames = new ArrayList<>(2);
  /** Series of the run that have reported and not ended. */
  int liveSeries;
  /** The newest finished frame: samples at or before it arrived too late. */
  long lastFinalTs = NONE;
  private long firstFrameTs = NONE;
  private boolean startDecided;
  private double lastMarker = Double.NaN;
  private boolean everMarker;
  private long markerAdvanceTs = NONE;
  /** The completion marker at {@link #markerAdvanceTs}. */
  private double advancedTo = Double.NaN;
  private final BusyShare busyShare = new BusyShare();
  private int owed;
  private double lastFailed;
  private double lastRestarts;
  /** The job runs under this job_id after another one: resubmitted or redeployed. */
  private final boolean resubmitted;

  JobRun(String jobId, boolean restart) {
    this.jobId = jobId;
    this.resubmitted = restart;
    // counters of a restarted job start from 0; on first sight of a job we only get a baseline
    this.lastFailed = restart ? 0 : Double.NaN;
    this.lastRestarts = restart ? 0 : Double.NaN;
  }

  static int bit(Kind k) {
    return 1 << k.ordinal();
  }

  /** The frame of timestamp {@code ts}, created in time order when new. */
  Frame frameAt(long ts) {
    int i = frames.size();
    while (i > 0 && frames.get(i - 1).ts > ts) {
      i--;
    }
    if (i > 0 && frames.get(i - 1).ts == ts) {
      return frames.get(i - 1);
    }
    Frame f = new Frame(ts);
    frames.add(i, f);
    return f;
  }

  /** The oldest newest sample of the live series; MAX_VALUE when none is live. */
  long watermark() {
    long w = Long.MAX_VALUE;
    for (int i = 0; i < members.size(); i++) {
      w = Math.min(w, members.get(i).lastTs);
    }
    return w;
  }

  /** Finishes the oldest frame into observations of {@code job}. */
  Frame finishOldest(String job, ArrayDeque<long[]> failures, long failureWindowMs,
      Consumer<Observation> out) {
    Frame f = frames.remove(0);
    lastFinalTs = f.ts;
    if (f.mask != 0) {
      emit(f, job, failures, failureWindowMs, out);
    }
    if ((f.ended & bit(Kind.CP_FAILED_COUNT)) != 0) {
      lastFailed = Double.NaN; // the series comes back as a new one: a new baseline
    }
    if ((f.ended & bit(Kind.NUM_RESTARTS)) != 0) {
      lastRestarts = Double.NaN;
    }
    return f;
  }

  private void emit(Frame f, String job, ArrayDeque<long[]> failures, long failureWindowMs,
      Consumer<Observation> out) {
    final long t = f.ts;
    final int m = f.mask;
    final double[] v = f.vals;
    // completion marker: lastCompletedCheckpointId (1.17+) else numberOfCompletedCheckpoints
    boolean hasId = has(m, Kind.CP_COMPLETED_ID);
    if (firstFrameTs == NONE) {
      firstFrameTs = t;
    }
    if (!startDecided && (resubmitted || hasId || has(m, Kind.CP_COMPLETED_COUNT))) {
      // Decided on the run's first frame that has a completion marker, and dated at its first
      // frame: which series a frame holds depends on how delivery ordered them (a lagging shard
      // leaves the first frame without its marker), the run's first scrape does not.
      startDecided = true;
      boolean noneCompletedYet = hasId ? v[Kind.CP_COMPLETED_ID.ordinal()] < 0
          : has(m, Kind.CP_COMPLETED_COUNT) && v[Kind.CP_COMPLETED_COUNT.ordinal()] == 0;
      if (resubmitted || noneCompletedYet) {
        // the job runs under a new job_id (resubmitted, redeployed), or has not completed a
        // checkpoint yet (just submitted): either way it started with this run
        out.accept(new Observation(job, Signal.RESTARTS, Signal.START_SCOPE, firstFrameTs, 1));
      }
    }
    if (hasId || has(m, Kind.CP_COMPLETED_COUNT)) {
      double marker = hasId ? v[Kind.CP_COMPLETED_ID.ordinal()]
          : v[Kind.CP_COMPLETED_COUNT.ordinal()];
      boolean exists = hasId ? marker >= 0 : marker > 0;
      if (Double.isNaN(lastMarker)) {
        owed = exists ? PER_CHECKPOINT : 0; // first look at this job_id: report it once
      } else if (marker > lastMarker) {
        owed = exists ? PER_CHECKPOINT : 0;
        markerAdvanceTs = t;
        advancedTo = marker;
      } else if (marker < lastMarker) {
        owed = 0; // the statistics were reset (JobManager failover), not a completion
      }
      lastMarker = marker;
      everMarker = true;
      if (emitOwed(out, job, Signal.CHECKPOINT_DURATION, t, m, v, Kind.CP_DURATION)
          && markerAdvanceTs != NONE) {
        // a completion seen advancing (not the first look, whose time is unknown)
        double share = busyShare.completed(markerAdvanceTs, advancedTo,
            v[Kind.CP_DURATION.ordinal()]);
        if (!Double.isNaN(share)) {
          out.accept(new Observation(job, Signal.CHECKPOINT_BUSY_SHARE, "job", t, share));
        }
      }
      emitOwed(out, job, Signal.CHECKPOINT_SIZE, t, m, v, Kind.CP_SIZE);
      emitOwed(out, job, Signal.CHECKPOINT_FULL_SIZE, t, m, v, Kind.CP_FULL_SIZE);
      emitOwed(out, job, Signal.CHECKPOINT_PERSISTED_DATA, t, m, v, Kind.CP_PERSISTED_DATA);
    }
    // checkpoint age
    double completedTs = has(m, Kind.CP_COMPLETED_TIMESTAMP)
        ? v[Kind.CP_COMPLETED_TIMESTAMP.ordinal()] : Double.NaN;
    if (completedTs > 0) {
      out.accept(new Observation(job, Signal.CHECKPOINT_AGE, "job", t,
          Math.max(0, (t - completedTs) / 1000.0)));
    } else if (everMarker) {
      long since = markerAdvanceTs != NONE ? markerAdvanceTs : firstFrameTs;
      out.accept(new Observation(job, Signal.CHECKPOINT_AGE, "job", t, (t - since) / 1000.0));
    }
    emitIfData(out, job, Signal.CHECKPOINT_IN_PROGRESS, t, m, v, Kind.CP_IN_PROGRESS);
    // failed checkpoints in the trailing window
    if (has(m, Kind.CP_FAILED_COUNT) && v[Kind.CP_FAILED_COUNT.ordinal()] >= 0) {
      double failed = v[Kind.CP_FAILED_COUNT.ordinal()];
      double inc = increment(lastFailed, failed);
      lastFailed = failed;
      if (inc > 0) {
        if (failures.size() >= MAX_FAILURE_EVENTS) {
          failures.pollFirst();
        }
        failures.addLast(new long[] {t, (long) inc});
      }
      long sum = 0;
      while (!failures.isEmpty() && failures.peekFirst()[0] <= t - failureWindowMs) {
        failures.pollFirst();
      }
      for (long[] e : failures) {
        if (e[0] <= t) {
          sum += e[1];
        }
      }
      out.accept(new Observation(job, Signal.CHECKPOINT_FAILURES, "job", t, sum));
    }
    if (has(m, Kind.NUM_RESTARTS) && v[Kind.NUM_RESTARTS.ordinal()] >= 0) {
      double restarts = v[Kind.NUM_RESTARTS.ordinal()];
      double inc = increment(lastRestarts, restarts);
      lastRestarts = restarts;
      if (inc > 0) {
        out.accept(new Observation(job, Signal.RESTARTS, "job", t, inc));
      }
    }
  }

  /** Emits an owed per-checkpoint gauge; true when a value was emitted. */
  private boolean emitOwed(Consumer<Observation> out, String job, Signal signal, long t,
      int mask, double[] v, Kind k) {
    if ((owed & bit(k)) != 0 && has(mask, k)) {
      owed &= ~bit(k);
      return emitIfData(out, job, signal, t, mask, v, k);
    }
    return false;
  }

  /** Reset-aware increment: no previous value or a decrease (reset) gives 0. */
  private static double increment(double previous, double current) {
    if (Double.isNaN(previous) || current < previous) {
      return 0;
    }
    return current - previous;
  }

  private static boolean has(int mask, Kind k) {
    return (mask & bit(k)) != 0;
  }

  private static boolean emitIfData(Consumer<Observation> out, String job, Signal signal, long t,
      int mask, double[] v, Kind k) {
    if (has(mask, k) && v[k.ordinal()] >= 0) { // -1 = no data yet; NaN fails too
      out.accept(new Observation(job, signal, "job", t, v[k.ordinal()]));
      return true;
    }
    return false;
  }
}
