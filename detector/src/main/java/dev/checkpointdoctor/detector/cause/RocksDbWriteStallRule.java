package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.CauseHypothesis.Evidence;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * RocksDB holding writes back (stopped, delayed, stall time, L0 files or pending compaction
 * higher than before). A disk at its ceiling makes RocksDB stall too: {@link CausalModel} ranks
 * the stall below it when the ceiling came first.
 */
final class RocksDbWriteStallRule implements CauseRule {
  /** RocksDB's default level0_slowdown_writes_trigger. */
  static final double L0_SLOWDOWN = 20;
  /** Pending compaction that takes a disk minutes to work off. */
  static final double PENDING_BYTES = 256L << 20;

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
          stall.before(), Evidence.HIGHER, Double.NaN, "RocksDB " + stall.sentence());
      if (stall.strength() == 2) {
        RocksDbStall time = RocksDbStall.stallTime(job);
        if (time.any()) {
          f.support(0.15, time.signal(), time.scope(), time.value(), time.before(),
              Evidence.HIGHER, Double.NaN, "RocksDB " + time.sentence());
        }
      }
    }
    backlog(job, f);
    if (f.confidence() == 0) {
      return f;
    }
    if (job.checkpointTrouble()) {
      CheckpointTrouble.support(f, job, "while RocksDB stalls");
    }
    return f;
  }

  private static void backlog(JobEvidence job, Finding f) {
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_L0_FILES)) {
      double max = job.recentWindow(h).max();
      if (!(max >= L0_SLOWDOWN)) {
        continue; // below the trigger whatever the earlier level: skip the test
      }
      Change c = job.change(h);
      if (c.higherBy(Signal.ROCKSDB_L0_FILES.absoluteFloor())) {
        f.support(0.2, c, true, String.format(
            "%s level-0 files at %s (up to %s), was %s; RocksDB slows writes at %s (%s).",
            Fmt.num(c.now()), h.scope(), Fmt.num(max), Fmt.num(c.before()),
            Fmt.num(L0_SLOWDOWN), c.test(true)));
        return;
      }
    }
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_PENDING_COMPACTION)) {
      Change c = job.change(h);
      if (c.higherBy(PENDING_BYTES)) {
        f.support(0.15, c, true, String.format("Pending compaction at %s is %s, was %s (%s).",
            h.scope(), Fmt.bytes(c.now()), Fmt.bytes(c.before()), c.test(true)));
        return;
      }
    }
  }
}
