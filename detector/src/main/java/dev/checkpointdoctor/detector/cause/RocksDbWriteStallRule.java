package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * RocksDB holding writes back (stopped, delayed, stall time, L0 files or pending compaction up)
 * while the disk is not at a flat ceiling (that would be {@link DiskThrottlingRule}).
 */
final class RocksDbWriteStallRule implements CauseRule {
  /** RocksDB's default level0_slowdown_writes_trigger. */
  static final double L0_SLOWDOWN = 20;

  @Override
  public Cause cause() {
    return Cause.ROCKSDB_WRITE_STALL;
  }

  @Override
  public Finding assess(JobEvidence job) {
    Finding f = new Finding(cause());
    RocksDbStall stall = RocksDbStall.find(job);
    if (stall.any()) {
      f.support(stall.strength() == 2 ? 0.4 : 0.25, stall.signal(), stall.scope(), stall.value(),
          stall.before(), "RocksDB " + stall.sentence());
      if (stall.strength() == 2) {
        RocksDbStall time = stallTime(job);
        if (time != null) {
          f.support(0.15, time.signal(), time.scope(), time.value(), time.before(),
              "RocksDB " + time.sentence());
        }
      }
    }
    backlog(job, f);
    if (f.confidence() == 0) {
      return f;
    }
    if (job.checkpointTrouble()) {
      f.support(0.1, Signal.CHECKPOINT_DURATION, "job", 0, 0,
          "Checkpoints are slower or failing while RocksDB stalls.");
    }
    DiskPlateau p = DiskPlateau.find(job);
    if (p != null && p.saturated()) {
      f.against(0.45, p.signal(), p.scope(), p.level(), p.earlierPeak(),
          String.format("But %s on %s is flat at %s (earlier peaks %s) with the disk busy %s: "
              + "the stall follows a throttled disk.", p.what(), p.scope(), p.amount(p.level()),
              p.amount(p.earlierPeak()), Fmt.pct(p.utilization())));
    }
    return f;
  }

  private static RocksDbStall stallTime(JobEvidence job) {
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_STALL)) {
      double now = job.recentMedian(h);
      if (!(now >= RocksDbStall.STALL_US_PER_S)) {
        continue; // fails whatever the earlier level: skip sorting it
      }
      double before = job.earlierMedian(h);
      double base = Double.isNaN(before) ? 0 : before;
      if (now >= RocksDbStall.STALL_US_PER_S && now >= 4 * base) {
        return new RocksDbStall(1, h.signal(), h.scope(), now, base, String.format(
            "writers stalled %s of the time at %s (was %s).", Fmt.pct(now / 1e6), h.scope(),
            Fmt.pct(base / 1e6)));
      }
    }
    return null;
  }

  private static void backlog(JobEvidence job, Finding f) {
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_L0_FILES)) {
      double now = job.recentWindow(h).max();
      if (!(now >= L0_SLOWDOWN)) {
        continue; // fails whatever the earlier level: skip sorting it
      }
      double before = job.earlierMedian(h);
      double base = Double.isNaN(before) ? 0 : before;
      if (now >= L0_SLOWDOWN && now >= 2 * base + 4) {
        f.support(0.2, h.signal(), h.scope(), now, base, String.format(
            "%s level-0 files at %s (was %s; RocksDB slows writes at %s).", Fmt.num(now),
            h.scope(), Fmt.num(base), Fmt.num(L0_SLOWDOWN)));
        return;
      }
    }
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_PENDING_COMPACTION)) {
      double now = job.recentMedian(h);
      double before = job.earlierMedian(h);
      double base = Double.isNaN(before) ? 0 : before;
      if (now >= 3 * base && now - base >= 256L << 20) {
        f.support(0.15, h.signal(), h.scope(), now, base, String.format(
            "Pending compaction at %s is %s (was %s).", h.scope(), Fmt.bytes(now),
            Fmt.bytes(base)));
        return;
      }
    }
  }
}
