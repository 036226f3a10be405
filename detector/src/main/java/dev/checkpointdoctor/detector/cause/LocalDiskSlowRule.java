package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * A node disk of the job slow per I/O with no ceiling holding it: RocksDB's local dir on NFS or
 * another network volume, a failing or shared device. Each I/O takes many times longer than
 * before and the disk is busy all the time, as under a throttle, but what it delivers is not held
 * at any level: the rate swings with the device's latency. A burstable volume out of credits
 * delivers its baseline almost exactly ({@link DiskPlateau}); this rule speaks only once the rate
 * has had windows enough for such a plateau to show ({@link DiskPlateau#judgeable}) and none did.
 * Until then the busy, queueing disk is {@link DiskThrottlingRule}'s to name, as a ceiling not
 * yet judged. RocksDB stalls (on Flink 1.20; RocksDB on 2.3.0 did not stall in the lab),
 * back-pressure and slower checkpoints follow.
 */
final class LocalDiskSlowRule implements CauseRule {
  /**
   * The 10–90 % range of the window rates over their median from which the rate is quoted as
   * swinging: twice what a plateau may span.
   */
  static final double SWING = 2 * DiskPlateau.MAX_RELATIVE_RANGE;

  @Override
  public Cause cause() {
    return Cause.LOCAL_DISK_SLOW;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    String disk = DiskThrottlingRule.queueingDisk(job);
    if (disk == null || DiskPlateau.remembered(job) != null) {
      return f;
    }
    SlowDisk slow = judge(job, disk);
    if (slow == null || slow.swing() == null) {
      // no plateau found is not yet a rate that swings: a ceiling under noisy demand may fail
      // the plateau test now and then (family 1 train seeds 1-8, throttled disks with heavy or
      // autocorrelated noise: the diagnosis went from the ceiling to a slow disk and back)
      return f;
    }
    Change lat = slow.latency();
    Change util = slow.utilization();
    f.support(0.25, lat, true, String.format("Latency per I/O on %s is %s ms since %s, was %s ms "
        + "(%s): each request takes that long at the device.", disk, Fmt.num(lat.now()),
        JobEvidence.clock(slow.sinceMs()), Fmt.num(lat.before()), lat.test(true)));
    f.onset(slow.sinceMs(), JobEvidence.spacing(
        GcPressureRule.series(job, Signal.DISK_LATENCY, disk)), "latency");
    f.support(util.now() >= 0.95 ? 0.2 : 0.1, Signal.DISK_UTILIZATION, disk, util.now(),
        util.before(), util.now() > util.before() ? Evidence.HIGHER : Evidence.AT_LEAST,
        util.confidenceHigher(), String.format("The disk is busy %s of the time, was %s.",
            Fmt.pct(util.now()), Fmt.pct(util.before())));
    f.add(0.15, slow.swing());
    Change capacity = DiskThrottlingRule.capacity(job, disk);
    if (capacity != null && capacity.lower()
        && capacity.now() <= DiskThrottlingRule.CAPACITY_DROP * capacity.before()) {
      f.add(0.15, new Evidence(Signal.DISK_WRITE_IOPS.id(), disk, capacity.now(),
          capacity.before(), Evidence.LOWER, Double.NaN, capacity.confidenceLower(), -1,
          String.format("The disk completes %s I/Os per busy second, was %s (%s): the device "
              + "got slower, it is not asked for more.", Fmt.num(capacity.now()),
              Fmt.num(capacity.before()), capacity.test(false))));
    }
    RocksDbStall stall = RocksDbStall.find(job);
    if (stall.any()) {
      f.support(0.1, stall.signal(), stall.scope(), stall.value(), stall.before(),
          Evidence.HIGHER, Double.NaN,
          "RocksDB holds writes back as its disk falls behind: " + stall.sentence());
    }
    if (job.checkpointTrouble()) {
      CheckpointTrouble.support(f, job, "since the disk slowed down");
    }
    return f;
  }

  /**
   * A disk slow per I/O without a ceiling: its latency many times its earlier level since
   * {@code sinceMs}, busy nearly all the time, with windows enough since then for a plateau to
   * show and none on it; {@code swing} says how far from flat its rate is (null when it is not
   * clearly swinging).
   */
  record SlowDisk(String disk, long sinceMs, Change latency, Change utilization,
      Evidence swing) {}

  /** {@code disk} judged slow without a ceiling, or null. */
  static SlowDisk judge(JobEvidence job, String disk) {
    DiskPlateau ceiling = DiskPlateau.find(job);
    if (ceiling != null && ceiling.scope().equals(disk)) {
      return null; // held at a level: a ceiling, disk_throttling's
    }
    SeriesHistory lh = GcPressureRule.series(job, Signal.DISK_LATENCY, disk);
    long since = job.onset(lh, true);
    if (since < 0 || !DiskPlateau.judgeable(job, disk,
        DiskThrottlingRule.bindingSince(job, disk, since))) {
      return null;
    }
    Change util = job.change(GcPressureRule.series(job, Signal.DISK_UTILIZATION, disk));
    Change lat = job.change(lh);
    if (!(util.known() && util.now() >= DiskThrottlingRule.SATURATED && lat.higher()
        && DiskThrottlingRule.queues(lat.now(), lat.before()))) {
      // a slower disk that still has idle time is not what holds the job up
      return null;
    }
    return new SlowDisk(disk, since, lat, util, swing(job, disk, since));
  }

  /**
   * How far the disk's rate with the most windows is from flat since the latency rose (a
   * throttled volume holds it within a few per cent), or null when it is not clearly swinging.
   */
  private static Evidence swing(JobEvidence job, String disk, long since) {
    SeriesHistory best = null;
    double[] rates = null;
    for (Signal s : DiskPlateau.RATES) {
      for (SeriesHistory h : job.histories(s)) {
        if (!h.scope().equals(disk)) {
          continue;
        }
        double[] w = DiskPlateau.windowRates(h, since);
        if (w.length >= DiskPlateau.MIN_WINDOWS && (rates == null || w.length > rates.length)) {
          best = h;
          rates = w;
        }
      }
    }
    if (best == null) {
      return null;
    }
    double median = Stats.median(rates);
    double low = Stats.quantile(rates, 0.1);
    double high = Stats.quantile(rates, 0.9);
    if (!(median > 0 && (high - low) / median >= SWING)) {
      return null;
    }
    Signal s = best.signal();
    return new Evidence(s.id(), disk, median, Double.NaN, Evidence.CONTEXT, Double.NaN,
        Double.NaN, since, String.format("%s on %s swing between %s and %s (10–90 %% of %d "
            + "windows of %d s since %s): no ceiling holds the rate, the device is slow.",
            what(s), disk, amount(s, low), amount(s, high), rates.length,
            DiskPlateau.WINDOW_MS / 1000, JobEvidence.clock(since)));
  }

  private static String what(Signal s) {
    return switch (s) {
      case DISK_WRITE_BYTES -> "Bytes written";
      case DISK_READ_IOPS -> "Reads";
      default -> "Writes";
    };
  }

  private static String amount(Signal s, double v) {
    return s == Signal.DISK_WRITE_BYTES ? Fmt.bytes(v) + "/s" : Fmt.num(v) + "/s";
  }
}
