package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.Diagnosis;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;

/**
 * A node disk's I/O rate flat at a ceiling well below its earlier peaks: the shape of a
 * burstable volume that ran out of credits (metrics-reference §5.5). Healthy I/O follows demand
 * and wobbles; a throttled volume delivers its baseline almost exactly.
 *
 * @param level recent median of the flat rate
 * @param halfWidth half the 10–90 % range of the smoothed recent window rates (the spread
 *     judged flat)
 * @param sinceMs first point of the flat run that reaches the present
 * @param earlierPeak 95th percentile before the recent slice
 * @param utilization recent median utilisation of that disk (NaN if unknown)
 * @param earlierAboveShare share of the earlier rates clearly above the plateau
 */
record DiskPlateau(Signal signal, boolean total, String scope, double level, double halfWidth,
    long sinceMs, double earlierPeak, double utilization, double earlierAboveShare) {

  /** Flat means the 10–90 % range of the recent slice is within this share of its median. */
  static final double MAX_RELATIVE_RANGE = 0.12;
  /**
   * Share of the earlier rates that must lie clearly above the plateau: a few per cent (the
   * hours a drained bucket spent its credits), not most of them.
   */
  static final double MIN_ABOVE_SHARE = 0.02;
  /** Windows a plateau needs, and earlier rates above it. */
  static final int MIN_WINDOWS = 5;
  /** Share of the run's windows that must sit at the level (the rest dip below it). */
  static final double MIN_AT_LEVEL = 0.6;
  /**
   * Windows a rate may take to settle at a ceiling after the first queueing (the last credits
   * trickle out over a minute or two) before its absence of a plateau says "no ceiling".
   */
  static final int SETTLE_WINDOWS = 5;
  /** Narrowest band around the level that a window may wobble in and stay on the plateau. */
  static final double MIN_TOLERANCE = 0.03;
  /**
   * How much calmer than before the plateau must be: the probability that an earlier step from
   * one window to the next was larger than a step on the plateau.
   */
  static final double MIN_CALMER = 0.75;
  /**
   * Flatness is judged on the mean rate over windows at least this long. A throttler releases I/O
   * in batches (blk-throttle here: a second with twice the ceiling, then one with none), so with
   * 1–5 s scrapes the per-scrape rates of a disk held exactly at its ceiling swing by 100 %; over
   * 10 s they are flat. Scrapes 10 s apart or more are windows of one point: judged as before.
   */
  static final long WINDOW_MS = 10_000;
  /** The disk rates a ceiling can show on, and a slow disk's swing is read from. */
  static final Signal[] RATES = {
      Signal.DISK_WRITE_IOPS, Signal.DISK_READ_IOPS, Signal.DISK_WRITE_BYTES};

  /**
   * The plateau the job's standing diagnosis named if it still holds ({@link #remembered}), else
   * the most convincing plateau on the job's disks, else null. The named one comes first: a
   * search hours into a throttle may find a calm stretch of another rate (the write throughput,
   * whose block sizes wander under a ceiling on IOPS), and a diagnosis that moved to it lost the
   * ceiling the next time that rate wandered.
   */
  static DiskPlateau find(JobEvidence job) {
    return job.memo("disk_plateau", () -> {
      DiskPlateau named = remembered(job);
      DiskPlateau found = search(job);
      if (found != null && (named == null || replaces(found, named))) {
        return found;
      }
      return named != null ? named : found;
    });
  }

  /**
   * The ceiling a standing disk_throttling diagnosis named, while the disk still runs at or below
   * it and is still saturated. A plateau is proven against the rates before it, and the raw
   * history keeps two hours: two hours into a throttle nothing from before is left, the search
   * finds no ceiling, and the diagnosis fell to RocksDB stalls (the ceiling's own consequence)
   * until a fresh plateau formed against the throttle's own earlier minutes (family 1 train seed
   * 2 disk_throttling_a: four changes of cause in 100 min). What the diagnosis quoted is the
   * memory; the present must still show it. {@code earlierAboveShare} is NaN: not measured now.
   */
  static DiskPlateau remembered(JobEvidence job) {
    Diagnosis d = job.view().standing();
    if (d == null || !Cause.DISK_THROTTLING.id().equals(d.cause()) || d.ranked().isEmpty()) {
      return null;
    }
    Evidence flat = null;
    for (Evidence e : d.ranked().get(0).evidence()) {
      if (Evidence.FLAT.equals(e.relation()) && e.sinceMs() >= 0 && e.observed() > 0) {
        flat = e;
        break;
      }
    }
    Signal signal = flat == null ? null : Signal.byId(flat.signal()).orElse(null);
    if (signal == null) {
      return null;
    }
    double ceiling = flat.observed() * (1 + MAX_RELATIVE_RANGE);
    SeriesHistory best = null;
    double bestGap = Double.POSITIVE_INFINITY;
    List<SeriesHistory> candidates = new java.util.ArrayList<>(job.histories(signal));
    candidates.addAll(TotalIopsHistory.of(job));
    for (SeriesHistory h : candidates) {
      if (!h.scope().equals(flat.scope()) || h.signal() != signal) {
        continue;
      }
      // the per-signal rate or the read+write total, whichever sits at the named level now
      Windows w = Windows.of(h, WINDOW_MS);
      if (w.size < MIN_WINDOWS) {
        continue;
      }
      double level = Stats.median(java.util.Arrays.copyOfRange(w.mean, w.size - MIN_WINDOWS,
          w.size));
      double gap = Math.abs(level - flat.observed()) / flat.observed();
      if (level <= ceiling && level >= signal.absoluteFloor() && stayedUnder(w, flat.sinceMs(),
          ceiling) && gap < bestGap) {
        best = h;
        bestGap = gap;
      }
    }
    if (best == null) {
      return null;
    }
    double util = Double.NaN;
    for (SeriesHistory u : job.histories(Signal.DISK_UTILIZATION)) {
      if (u.scope().equals(flat.scope())) {
        util = job.recentMedian(u);
      }
    }
    if (!(util >= DiskThrottlingRule.SATURATED)) {
      return null;
    }
    return new DiskPlateau(signal, best instanceof TotalIopsHistory, flat.scope(),
        flat.observed(), flat.spread(), flat.sinceMs(), flat.expected(), util, Double.NaN);
  }

  /**
   * Whether a ceiling proven afresh says more than the one named: yes, unless it is a calm disk
   * that is not saturated, or a calm stretch of the throughput standing in for a ceiling named
   * on the same disk's I/Os (block sizes wander under it).
   */
  private static boolean replaces(DiskPlateau found, DiskPlateau named) {
    if (!found.saturated()) {
      return false;
    }
    return !(found.scope().equals(named.scope()) && found.signal() == Signal.DISK_WRITE_BYTES
        && named.signal() != Signal.DISK_WRITE_BYTES);
  }

  /** No two windows in a row since {@code sinceMs} above {@code ceiling} (one is a hiccup). */
  private static boolean stayedUnder(Windows w, long sinceMs, double ceiling) {
    for (int i = Math.max(1, w.index(sinceMs)); i < w.size; i++) {
      if (w.mean[i] > ceiling && w.mean[i - 1] > ceiling) {
        return false;
      }
    }
    return true;
  }

  private static DiskPlateau search(JobEvidence job) {
    DiskPlateau best = null;
    for (Signal s : RATES) {
      for (SeriesHistory h : job.histories(s)) {
        DiskPlateau p = of(job, h);
        if (p != null && (best == null || p.rank() > best.rank())) {
          best = p;
        }
      }
    }
    // A volume limited in IOPS caps reads plus writes, not each: the total may be flat on the
    // throttled disk while another disk shows a calm per-signal rate (less demand); the busiest
    // wins either way.
    for (SeriesHistory h : TotalIopsHistory.of(job)) {
      DiskPlateau p = of(job, h);
      if (p != null && (best == null || p.rank() > best.rank())) {
        best = p;
      }
    }
    return best;
  }

  /**
   * Whether the disk has points enough since the trouble's onset to judge a plateau (so its
   * absence means the rate is not flat, rather than not yet known).
   */
  static boolean judgeable(JobEvidence job, String disk, long sinceMs) {
    long from = Math.max(Math.max(job.recentFrom(), job.onset()), sinceMs);
    for (Signal s : RATES) {
      for (SeriesHistory h : job.histories(s)) {
        if (h.scope().equals(disk) && Windows.of(h, WINDOW_MS).from(from).length >= MIN_WINDOWS + SETTLE_WINDOWS) {
          return true;
        }
      }
    }
    return false;
  }

  /** Busiest disk first; on the same disk write IOPS (what RocksDB and uploads spend) first. */
  private double rank() {
    return (Double.isNaN(utilization) ? 0.5 : utilization)
        + (signal == Signal.DISK_WRITE_IOPS ? 0.1 : 0) + earlierAboveShare / 100;
  }

  private static DiskPlateau of(JobEvidence job, SeriesHistory h) {
    // A fresh fault is judged on what came after its onset: the recent slice still holds up to
    // two minutes of the disk's healthy wobble, which would hide a ceiling reached at the onset.
    long from = Math.max(job.recentFrom(), job.onset());
    // counted, not copied: most disks fail a test below before the earlier values are needed
    if (JobEvidence.count(h, from, Long.MAX_VALUE) < MIN_WINDOWS
        || JobEvidence.count(h, Long.MIN_VALUE, from) < MIN_WINDOWS) {
      return null;
    }
    Windows w = Windows.of(h, WINDOW_MS);
    if (w.size - w.index(from) < MIN_WINDOWS) {
      return null;
    }
    double[] last = java.util.Arrays.copyOfRange(w.mean, w.size - MIN_WINDOWS, w.size);
    double level = Stats.median(last);
    if (!(level >= h.signal().absoluteFloor())) {
      return null; // an idle disk is flat too
    }
    // The run that reaches the present, walking back: windows at the level or below it (less
    // demand than the ceiling, e.g. at night) stay in it; a window clearly above it (a single
    // one is a hiccup, two in a row) ends it. The trouble's onset may lie hours before the
    // ceiling (extra demand drained the credits first).
    double tolerance = Math.min(MAX_RELATIVE_RANGE * level,
        Math.max(2 * (Stats.max(last) - min(last)), MIN_TOLERANCE * level));
    int start = w.size - 1;
    int atLevel = 0;
    for (int i = w.size - 1; i >= 0; i--) {
      if (w.mean[i] <= level + tolerance) {
        start = i;
        atLevel += w.mean[i] >= level - tolerance ? 1 : 0;
      } else if (i == 0 || w.mean[i - 1] > level + tolerance) {
        break;
      }
    }
    int n = w.size - start;
    if (atLevel < MIN_WINDOWS || start < MIN_WINDOWS || atLevel < MIN_AT_LEVEL * n) {
      return null;
    }
    // the windows at the level: the dips below it are less demand, not the ceiling's wobble
    double[] recent = new double[atLevel];
    int k = 0;
    for (int i = start; i < w.size; i++) {
      if (w.mean[i] <= level + tolerance && w.mean[i] >= level - tolerance) {
        recent[k++] = w.mean[i];
      }
    }
    recent = java.util.Arrays.copyOf(recent, k);
    // Flatness is judged on a 3-point moving average: a rate from integer counters over a short
    // scrape interval alternates around a constant ceiling by one count per interval.
    double[] smooth = movingAverage(recent);
    double smoothRange = Stats.quantile(smooth, 0.9) - Stats.quantile(smooth, 0.1);
    if (smoothRange > MAX_RELATIVE_RANGE * level) {
      return null;
    }
    long since = w.start[start];
    double[] earlier = JobEvidence.slice(h, Long.MIN_VALUE, since);
    if (earlier.length < MIN_WINDOWS) {
      return null;
    }
    // Flat relative to the disk's own earlier wobble: the run's relative steps from one window
    // to the next are smaller than the earlier ones (Mann–Whitney), not merely small. Steps, not
    // deviations from one earlier level: demand that wanders over the hours (a daily swing, the
    // extra load that drained the bucket) puts the earlier windows far from any single level for
    // long stretches, so those deviations are serially correlated, the test's variance is
    // inflated for it, and a ceiling as flat as a ruler stayed unproven for a quarter of an hour
    // (family 1 train seed 5). The wander does not show in a step; the noise does.
    double[] earlierWindows = java.util.Arrays.copyOfRange(w.mean, 0, start);
    double[] devNow = relativeSteps(recent);
    double[] devBefore = relativeSteps(earlierWindows);
    RankTests.MannWhitney calmer = RankTests.mannWhitney(devBefore, devNow,
        RankTests.dependence(devBefore, devNow));
    if (!(calmer.pLess() <= Change.ALPHA && calmer.superiority() <= 1 - MIN_CALMER)) {
      return null;
    }
    // A ceiling is a level the disk did exceed before: some of the earlier rates lie clearly
    // above it (a volume sized close to its usual demand exceeds its baseline only while it
    // spends burst credits, perhaps for a small part of the history).
    int above = 0;
    for (double v : earlier) {
      above += v > level + tolerance ? 1 : 0;
    }
    double aboveShare = (double) above / earlier.length;
    if (above < MIN_WINDOWS || aboveShare < MIN_ABOVE_SHARE) {
      return null;
    }
    // peaks are single scrapes: a burst is a peak however short
    double peak = Math.max(level + tolerance,
        Stats.quantileInPlace(earlier, earlier.length, 1 - aboveShare / 2));
    double util = Double.NaN;
    String disk = h.scope();
    for (SeriesHistory u : job.histories(Signal.DISK_UTILIZATION)) {
      if (u.scope().equals(disk)) {
        util = settledUtilization(job, u, since);
      }
    }
    // the spread quoted is the one judged flat (the smoothed window rates), not the per-scrape
    // wobble of a throttler releasing I/O in batches
    return new DiskPlateau(h.signal(), h instanceof TotalIopsHistory, disk, level,
        smoothRange / 2, since, peak, util, aboveShare);
  }

  /**
   * The disk's busy share over the settled part of the run: its later half. When the credits run
   * out the rate reaches its ceiling within a window while the queue behind it takes a scrape or
   * two to fill, so a young run's median still holds the busy share from before the ceiling (a
   * disk at 57 % then 98 % read 71 % two minutes in). Falls back to the whole run.
   */
  static double settledUtilization(JobEvidence job, SeriesHistory u, long since) {
    long settled = since + Math.max(0, job.now() - since) / 2;
    double[] late = JobEvidence.slice(u, settled, Long.MAX_VALUE);
    return late.length > 0 ? Stats.median(late) : job.median(u, since, Long.MAX_VALUE);
  }

  private static double min(double[] v) {
    double m = Double.POSITIVE_INFINITY;
    for (double d : v) {
      m = Math.min(m, d);
    }
    return m;
  }

  /** |v[i] − v[i−1]| over their mean, for each pair of neighbours with a positive mean. */
  static double[] relativeSteps(double[] v) {
    double[] out = new double[Math.max(0, v.length - 1)];
    int n = 0;
    for (int i = 1; i < v.length; i++) {
      double mean = (v[i] + v[i - 1]) / 2;
      if (mean > 0) {
        out[n++] = Math.abs(v[i] - v[i - 1]) / mean;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * The mean rates of {@code h} over {@link #WINDOW_MS} windows that start at or after {@code
   * fromMs}: what a plateau is judged on, for a rule that quotes how far from flat they are.
   */
  static double[] windowRates(SeriesHistory h, long fromMs) {
    return Windows.of(h, WINDOW_MS).from(fromMs);
  }

  /** Mean rates over consecutive windows of at least {@code ms} (first point of each: its start). */
  private record Windows(long[] start, double[] mean, int size) {
    static Windows of(SeriesHistory h, long ms) {
      long[] start = new long[h.size()];
      double[] mean = new double[h.size()];
      int n = 0;
      double sum = 0;
      int count = 0;
      for (int i = 0; i < h.size(); i++) {
        double v = h.value(i);
        if (!Double.isFinite(v)) {
          continue;
        }
        if (count > 0 && h.timeMs(i) - start[n] >= ms) {
          mean[n++] = sum / count;
          sum = 0;
          count = 0;
        }
        if (count == 0) {
          start[n] = h.timeMs(i);
        }
        sum += v;
        count++;
      }
      if (count > 0) {
        mean[n++] = sum / count;
      }
      return new Windows(start, mean, n);
    }

    /** Means of the windows that start at or after {@code ms}. */
    double[] from(long ms) {
      return java.util.Arrays.copyOfRange(mean, index(ms), size);
    }

    /** The first window that starts at or after {@code ms}. */
    int index(long ms) {
      int i = 0;
      while (i < size && start[i] < ms) {
        i++;
      }
      return i;
    }
  }

  private static double[] movingAverage(double[] v) {
    double[] out = new double[v.length - 2];
    for (int i = 1; i < v.length - 1; i++) {
      out[i - 1] = (v[i - 1] + v[i] + v[i + 1]) / 3;
    }
    return out;
  }

  String what() {
    if (total) {
      return "read+write IOPS";
    }
    return switch (signal) {
      case DISK_WRITE_IOPS -> "write IOPS";
      case DISK_READ_IOPS -> "read IOPS";
      default -> "write throughput";
    };
  }

  String amount(double v) {
    return signal == Signal.DISK_WRITE_BYTES ? Fmt.bytes(v) + "/s" : Fmt.num(v);
  }

  /** Saturated: the disk is busy nearly all the time, so the flat rate is a ceiling. */
  boolean saturated() {
    return utilization >= 0.85;
  }
}
