package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * A node disk flat at a ceiling below its earlier peaks while busy ~100 %, latency up, RocksDB
 * stalling and checkpoints slower, with state not growing.
 */
final class DiskThrottlingRule implements CauseRule {
  /** Below this busy share a lower I/O rate reads as less demand, not a ceiling. */
  static final double IDLE_UTILIZATION = 0.5;

  @Override
  public Cause cause() {
    return Cause.DISK_THROTTLING;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    DiskPlateau p = DiskPlateau.find(job);
    if (p == null) {
      return f;
    }
    f.support(0.35, p.signal(), p.scope(), p.level(), p.earlierPeak(), String.format(
        "%s on %s flat at %s ± %s since %s; earlier peaks %s%s.", p.what(), p.scope(),
        p.amount(p.level()), p.amount(p.halfWidth()), JobEvidence.clock(p.sinceMs()),
        p.amount(p.earlierPeak()),
        Double.isNaN(p.utilization()) ? "" : "; disk busy " + Fmt.pct(p.utilization())));
    if (p.saturated()) {
      f.support(p.utilization() >= 0.95 ? 0.25 : 0.15, Signal.DISK_UTILIZATION, p.scope(),
          p.utilization(), 1, "The disk is busy " + Fmt.pct(p.utilization())
              + " of the time, so the flat rate is a ceiling, not a lull in demand.");
    }
    for (SeriesHistory lat : job.histories(Signal.DISK_LATENCY)) {
      if (!lat.scope().equals(p.scope())) {
        continue;
      }
      double now = job.recentMedian(lat);
      double before = job.earlierMedian(lat);
      if (now >= 2 * before && now >= 2) {
        f.support(0.15, Signal.DISK_LATENCY, lat.scope(), now, before, String.format(
            "Latency per I/O on %s is %s ms, was %s ms.", lat.scope(), Fmt.num(now),
            Fmt.num(before)));
      }
    }
    RocksDbStall stall = RocksDbStall.find(job);
    if (stall.any()) {
      f.support(0.1, stall.signal(), stall.scope(), stall.value(), stall.before(),
          "RocksDB is throttling writes as the disk falls behind: " + stall.sentence());
    }
    if (job.checkpointTrouble()) {
      f.support(0.1, Signal.CHECKPOINT_DURATION, "job", 0, 0,
          "Checkpoints are slower or failing since the ceiling was reached.");
    }
    StateTrend growth = StateTrend.of(job);
    if (growth != null && growth.growing()) {
      f.against(0.6, growth.signal(), "job", growth.now(), growth.before(),
          "But the state is growing too (" + growth.sentence() + "), which also loads the disk.");
    }
    if (p.utilization() < IDLE_UTILIZATION) {
      // An exhausted burst bucket queues requests, so the device reads busy; a disk that is
      // mostly idle at the lower rate is being asked for less (the job slowed for another
      // reason), not held down.
      f.against(0.5, Signal.DISK_UTILIZATION, p.scope(), p.utilization(), 1,
          "But the disk is busy only " + Fmt.pct(p.utilization())
              + " of the time: the lower rate looks like less demand, not a ceiling.");
    }
    return f;
  }
}
