package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * A node disk held down by its volume: the I/O rate flat at a ceiling it exceeded before, the
 * disk busy nearly all the time, each I/O queueing many times longer than before, and fewer I/Os
 * completed per busy second than before (a disk asked for more does more per busy second; a
 * throttled one does less). The busy, latency and capacity signs show within seconds of the
 * credits running out, before a plateau is long enough to judge; RocksDB stalls follow them.
 */
final class DiskThrottlingRule implements CauseRule {
  /** Below this busy share a lower I/O rate reads as less demand, not a ceiling. */
  static final double IDLE_UTILIZATION = 0.5;
  /** Busy share of a saturated device. */
  static final double SATURATED = 0.85;
  /**
   * Latency growth that only queueing behind a throttle gives: a healthy disk serving more I/O
   * (compaction catching up) gets somewhat slower per I/O, not several times.
   */
  static final double QUEUEING_FACTOR = 4;
  /** I/Os per busy second at most this share of before: the device itself got slower. */
  static final double CAPACITY_DROP = 0.25;

  @Override
  public Cause cause() {
    return Cause.DISK_THROTTLING;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    DiskPlateau p = DiskPlateau.find(job);
    String queued = queueingDisk(job);
    if (p != null && queued != null && !queued.equals(p.scope())
        && !(p.utilization() >= IDLE_UTILIZATION)) {
      // a calm rate on a mostly idle disk elsewhere says nothing about the disk whose requests
      // queue now (its own rate may need a few more windows to show a ceiling)
      p = null;
    }
    if (p == null) {
      // nor does it take back the ceiling this job's diagnosis already named, if that holds
      p = DiskPlateau.remembered(job);
    }
    // Without a plateau the busiest disk is judged, as before: picking the queueing one instead
    // named a slow (not throttled) lab disk a ceiling before its plateau could be judged.
    String disk = p != null ? p.scope() : busiestDisk(job);
    if (disk == null) {
      return f;
    }
    if (p != null && Double.isNaN(p.earlierAboveShare())) {
      f.supportFlat(0.35, p.signal(), p.scope(), p.level(), p.halfWidth(), p.earlierPeak(),
          Double.NaN, p.sinceMs(), String.format(
              "%s on %s still at or below the ceiling of %s it has held since %s (peaks "
                  + "before %s); disk busy %s.", p.what(), p.scope(), p.amount(p.level()),
              JobEvidence.clock(p.sinceMs()), p.amount(p.earlierPeak()),
              Fmt.pct(p.utilization())));
    } else if (p != null) {
      f.supportFlat(0.35, p.signal(), p.scope(), p.level(), p.halfWidth(), p.earlierPeak(),
          Double.NaN, p.sinceMs(), String.format(
              "%s on %s flat at %s ± %s since %s; before, %s of the rates were above it "
                  + "(peaks %s)%s.", p.what(), p.scope(), p.amount(p.level()),
              p.amount(p.halfWidth()), JobEvidence.clock(p.sinceMs()),
              Fmt.pct(p.earlierAboveShare()), p.amount(p.earlierPeak()),
              Double.isNaN(p.utilization()) ? "" : "; disk busy " + Fmt.pct(p.utilization())));
      f.onset(p.sinceMs(), DiskPlateau.WINDOW_MS, "plateau");
    }
    Change util = job.change(GcPressureRule.series(job, Signal.DISK_UTILIZATION, disk));
    boolean saturated = util.known() && util.now() >= SATURATED;
    if (saturated && (util.higher() || p != null)) {
      f.support(util.now() >= 0.95 ? 0.25 : 0.15, Signal.DISK_UTILIZATION, disk, util.now(),
          util.before(), util.now() > util.before() ? Evidence.HIGHER : Evidence.AT_LEAST,
          util.confidenceHigher(), String.format("The disk is busy %s of the time, was %s: "
              + "requests queue at the device.", Fmt.pct(util.now()), Fmt.pct(util.before())));
    }
    Change lat = job.change(GcPressureRule.series(job, Signal.DISK_LATENCY, disk));
    boolean queueing = lat.higher() && queues(lat.now(), lat.before());
    if (queueing) {
      f.support(0.15, lat, true, String.format("Latency per I/O on %s is %s ms, was %s ms "
          + "(%s): requests wait behind a throttle.", disk, Fmt.num(lat.now()),
          Fmt.num(lat.before()), lat.test(true)));
    }
    Change capacity = capacity(job, disk);
    boolean slower = capacity != null && capacity.lower()
        && capacity.now() <= CAPACITY_DROP * capacity.before();
    if (slower && saturated) {
      f.add(0.2, new Evidence(Signal.DISK_WRITE_IOPS.id(), disk, capacity.now(),
          capacity.before(), Evidence.LOWER, Double.NaN, capacity.confidenceLower(), -1,
          String.format("The disk completes %s I/Os per busy second, was %s (%s): the device "
              + "is held down, not asked for more.", Fmt.num(capacity.now()),
              Fmt.num(capacity.before()), capacity.test(false))));
    }
    // The ceiling's first signs are the queueing ones: latency jumps the moment the credits
    // run out, while a plateau needs a few windows (and the trouble may have begun hours
    // before, with the extra demand that drained the bucket).
    long queueingSince = job.onset(GcPressureRule.series(job, Signal.DISK_LATENCY, disk), true);
    boolean judgeable = DiskPlateau.judgeable(job, disk, bindingSince(job, disk, queueingSince));
    if (p == null && !(saturated && queueing && !judgeable)) {
      // Busy alone is load, not a ceiling; the busy and queueing signs stand for a ceiling only
      // until there are points enough to see whether the rate is flat.
      return judgeable ? new Finding(cause()) : pending(job, disk);
    }
    if (p == null) {
      // busy and queueing, too few points yet for a plateau: what is known so far, and the
      // consequences wait for the judgment
      f.pending(String.format("the disk %s is busy %s with I/O latency %s ms (was %s ms); a "
          + "ceiling needs %d windows of its rate.", disk, Fmt.pct(util.now()),
          Fmt.num(lat.now()), Fmt.num(lat.before()), DiskPlateau.MIN_WINDOWS));
    }
    if (p != null && queueing && queueingSince >= 0 && queueingSince < p.sinceMs()) {
      SeriesHistory lh = GcPressureRule.series(job, Signal.DISK_LATENCY, disk);
      f.onset(queueingSince, JobEvidence.spacing(lh), "latency");
    }
    if (f.onsetMs() < 0) {
      long at = job.onset(GcPressureRule.series(job, Signal.DISK_LATENCY, disk), true);
      long u = job.onset(GcPressureRule.series(job, Signal.DISK_UTILIZATION, disk), true);
      at = at < 0 ? u : u < 0 ? at : Math.min(at, u);
      SeriesHistory uh = GcPressureRule.series(job, Signal.DISK_UTILIZATION, disk);
      if (at >= 0 && uh != null) {
        f.onset(at, JobEvidence.spacing(uh), "latency");
      }
    }
    RocksDbStall stall = RocksDbStall.find(job);
    if (stall.any()) {
      f.support(0.1, stall.signal(), stall.scope(), stall.value(), stall.before(),
          Evidence.HIGHER, Double.NaN,
          "RocksDB is throttling writes as the disk falls behind: " + stall.sentence());
    }
    if (job.checkpointTrouble()) {
      CheckpointTrouble.support(f, job, "since the disk was held down");
    }
    StateTrend growth = StateTrend.of(job);
    if (growth != null && growth.growing()) {
      f.against(0.6, new Evidence(growth.signal().id(), "job", growth.now(), growth.before(),
          Evidence.CONTEXT, Double.NaN, Double.NaN, -1,
          "But the state is growing too (" + growth.sentence() + "), which also loads the disk."));
    }
    LocalDiskSlowRule.SlowDisk slowDisk = p != null && queued != null
        && !queued.equals(p.scope()) ? LocalDiskSlowRule.judge(job, queued) : null;
    if (slowDisk != null && slowDisk.swing() != null) {
      // Two disks of the job in trouble, the one whose requests wait longest with no ceiling:
      // a volume slow per I/O (an NFS server shared by both) whose other disk's rate read as
      // flat for a while, not a throttle (both TaskManagers of a test job on one slow volume
      // named the ceiling and the slow disk in turn).
      f.against(0.5, new Evidence(Signal.DISK_LATENCY.id(), queued, slowDisk.latency().now(),
          slowDisk.latency().before(), Evidence.HIGHER, Double.NaN, Double.NaN,
          slowDisk.sinceMs(), String.format("But the disk whose requests wait longest, %s (%s ms "
              + "per I/O, was %s ms), has no ceiling: its rate swings.", queued,
              Fmt.num(slowDisk.latency().now()), Fmt.num(slowDisk.latency().before()))));
    }
    if (p != null && p.utilization() < IDLE_UTILIZATION) {
      // An exhausted burst bucket queues requests, so the device reads busy; a disk that is
      // mostly idle at the lower rate is being asked for less (the job slowed for another
      // reason), not held down.
      f.against(0.5, new Evidence(Signal.DISK_UTILIZATION.id(), p.scope(), p.utilization(),
          IDLE_UTILIZATION, Evidence.LOWER, Double.NaN, Double.NaN, -1,
          "But the disk is busy only " + Fmt.pct(p.utilization())
              + " of the time: the lower rate looks like less demand, not a ceiling."));
    } else if (p != null && p.utilization() < SATURATED && !queueing) {
      // a volume at its ceiling has requests queued all the time; a calm rate on a disk busy
      // part of the time is a job asking for a steady amount. Latency many times its own
      // earlier level is the queue measured directly: the busy share, averaged over scrapes
      // that began before the ceiling (or on a multi-queue device that never reads 100 %),
      // does not outweigh it.
      f.against(0.3, new Evidence(Signal.DISK_UTILIZATION.id(), p.scope(), p.utilization(),
          SATURATED, Evidence.LOWER, Double.NaN, Double.NaN, -1,
          "But the disk is busy only " + Fmt.pct(p.utilization()) + " of the time: a volume "
              + "at its ceiling keeps requests queued all the time."));
    }
    return f;
  }

  /**
   * The disk's latest points busy and queueing before a test or a plateau can judge them: a
   * pending finding that holds RocksDB stalls and back-pressure back for the minute it takes.
   */
  private Finding pending(JobEvidence job, String disk) {
    Finding f = new Finding(cause());
    SeriesHistory u = GcPressureRule.series(job, Signal.DISK_UTILIZATION, disk);
    SeriesHistory l = GcPressureRule.series(job, Signal.DISK_LATENCY, disk);
    long at = job.onset(l, true);
    if (at < 0 || u == null) {
      return f;
    }
    // Read from the latency's departure on (up to the last three points): with scrapes a minute
    // apart the first queueing point is all there is while the task metrics, scraped at another
    // second, already show the stateful task busy and its upstream back-pressured.
    double util = latest(u, since(u, at));
    double lat = latest(l, since(l, at));
    double latBefore = job.earlierMedian(l);
    // busy at least half the time, not yet saturated: the credits run out over a minute or two
    if (!(util >= IDLE_UTILIZATION && queues(lat, latBefore))) {
      return f;
    }
    f.add(0.1, new Evidence(Signal.DISK_LATENCY.id(), disk, lat, latBefore, Evidence.HIGHER,
        Double.NaN, Double.NaN, at, String.format("Latency per I/O on %s is %s ms since %s, was "
            + "%s ms, with the disk busy %s: too few points yet to judge a ceiling.", disk,
            Fmt.num(lat), JobEvidence.clock(at), Fmt.num(latBefore), Fmt.pct(util))));
    f.onset(at, JobEvidence.spacing(l), "latency");
    return f.pending(String.format("the disk %s is busy %s with I/O latency %s ms (was %s ms) "
        + "since %s.", disk, Fmt.pct(util), Fmt.num(lat), Fmt.num(latBefore),
        JobEvidence.clock(at)));
  }

  /**
   * When the ceiling began to bind: the first point at or after {@code queueingSince} at which
   * the disk read saturated, else {@code queueingSince}. Requests queue the moment the credits
   * run short, but the last of them trickle out over minutes, the rate falling while the queue
   * fills (family 1 train seeds 7 and 10: two minutes from the first queueing point to a busy
   * share of 90 %); only a saturated device runs at its ceiling, so the windows a plateau needs
   * count from there, and the busy and queueing signs hold the consequences back until then.
   */
  static long bindingSince(JobEvidence job, String disk, long queueingSince) {
    SeriesHistory u = GcPressureRule.series(job, Signal.DISK_UTILIZATION, disk);
    if (u == null || queueingSince < 0) {
      return queueingSince;
    }
    // the earliest saturated point: a busy share wobbling about the threshold later on must not
    // push the judgment back again and again
    long first = queueingSince;
    for (int i = u.size() - 1; i >= 0 && u.timeMs(i) >= queueingSince; i--) {
      if (u.value(i) >= SATURATED) {
        first = u.timeMs(i);
      }
    }
    return first;
  }

  /**
   * Whether I/O latency {@code now} is the queue behind a ceiling: {@link #QUEUEING_FACTOR} times
   * its earlier level {@code before} and above what a disk under no queue shows.
   */
  static boolean queues(double now, double before) {
    return now >= QUEUEING_FACTOR * before && now >= Signal.DISK_LATENCY.absoluteFloor();
  }

  /** Points of {@code h} since {@code ms}, between one and three. */
  private static int since(SeriesHistory h, long ms) {
    return Math.max(1, Math.min(3, JobEvidence.count(h, ms, Long.MAX_VALUE)));
  }

  /** Median of the last {@code k} finite values, or NaN. */
  static double latest(SeriesHistory h, int k) {
    if (h == null) {
      return Double.NaN;
    }
    double[] v = new double[k];
    int n = 0;
    for (int i = h.size() - 1; i >= 0 && n < k; i--) {
      if (Double.isFinite(h.value(i))) {
        v[n++] = h.value(i);
      }
    }
    return n == 0 ? Double.NaN : Stats.median(java.util.Arrays.copyOf(v, n));
  }

  /**
   * The disk whose requests queue now: latency since its departure from its own normal at least
   * {@link #QUEUEING_FACTOR} times its earlier median (the most so first), or null.
   */
  static String queueingDisk(JobEvidence job) {
    String best = null;
    double most = 0;
    for (SeriesHistory l : job.histories(Signal.DISK_LATENCY)) {
      long at = job.onset(l, true);
      if (at < 0) {
        continue;
      }
      double lat = latest(l, since(l, at));
      double before = job.earlierMedian(l);
      double ratio = lat / before;
      if (queues(lat, before) && ratio > most) {
        most = ratio;
        best = l.scope();
      }
    }
    return best;
  }

  /** The disk of the job busiest now, or null. */
  private static String busiestDisk(JobEvidence job) {
    String best = null;
    double most = -1;
    for (SeriesHistory h : job.histories(Signal.DISK_UTILIZATION)) {
      double now = job.recentMedian(h);
      if (now > most) {
        most = now;
        best = h.scope();
      }
    }
    return best;
  }

  /**
   * I/Os completed per busy second on one disk (read plus write IOPS over utilisation, at the
   * timestamps where all three were observed), now against before; null when not computable.
   */
  static Change capacity(JobEvidence job, String disk) {
    SeriesHistory util = GcPressureRule.series(job, Signal.DISK_UTILIZATION, disk);
    if (util == null) {
      return null;
    }
    SeriesHistory ops = null;
    for (SeriesHistory h : TotalIopsHistory.of(job)) {
      if (h.scope().equals(disk)) {
        ops = h;
      }
    }
    if (ops == null) {
      ops = GcPressureRule.series(job, Signal.DISK_WRITE_IOPS, disk);
    }
    if (ops == null) {
      return null;
    }
    double[] before = new double[ops.size()];
    double[] recent = new double[ops.size()];
    int nb = 0;
    int nr = 0;
    long from = Math.max(job.recentFrom(), job.onset());
    int j = 0;
    for (int i = 0; i < ops.size(); i++) {
      long t = ops.timeMs(i);
      while (j < util.size() && util.timeMs(j) < t) {
        j++;
      }
      if (j >= util.size() || util.timeMs(j) != t || !(util.value(j) >= 0.05)) {
        continue;
      }
      double c = ops.value(i) / util.value(j);
      if (t >= from) {
        recent[nr++] = c;
      } else if (t < job.earlierTo()) {
        before[nb++] = c;
      }
    }
    if (nb < JobEvidence.MIN_EARLIER || nr < 3) {
      return null;
    }
    double[] b = java.util.Arrays.copyOf(before, nb);
    double[] r = java.util.Arrays.copyOf(recent, nr);
    RankTests.MannWhitney mw = RankTests.mannWhitney(b, r, RankTests.dependence(b, r));
    return new Change(Signal.DISK_WRITE_IOPS, disk, Stats.median(r), Stats.median(b),
        mw.superiority(), mw.pGreater(), mw.pLess(), nr, nb, Change.EARLIER);
  }
}
