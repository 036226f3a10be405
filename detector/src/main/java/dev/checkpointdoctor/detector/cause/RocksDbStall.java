package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * The strongest sign that RocksDB is holding writes back, across the job's operator scopes:
 * writes stopped, a delayed-write rate, or writer stall time up against the earlier level.
 *
 * @param strength 0 none; 1 stall time up only; 2 writes delayed or stopped
 */
record RocksDbStall(int strength, Signal signal, String scope, double value, double before,
    String sentence) {

  /** Stall time (µs/s) that counts: 1 % of wall time. */
  static final double STALL_US_PER_S = 10_000;

  boolean any() {
    return strength > 0;
  }

  static RocksDbStall find(JobEvidence job) {
    return job.memo("rocksdb_stall", () -> search(job));
  }

  private static RocksDbStall search(JobEvidence job) {
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_WRITE_STOPPED)) {
      double share = job.recentWindow(h).fractionAtLeast(0.5);
      if (share > 0.05) {
        return new RocksDbStall(2, h.signal(), h.scope(), share, 0, String.format(
            "writes stopped in %s of recent samples at %s.", Fmt.pct(share), h.scope()));
      }
    }
    RocksDbStall best = new RocksDbStall(0, Signal.ROCKSDB_STALL, "", 0, 0, "");
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_DELAYED_WRITE_RATE)) {
      SortedWindow r = job.recentWindow(h);
      double share = r.fractionAtLeast(1);
      if (share > 0.2 && best.strength < 2) {
        double m = r.median();
        best = new RocksDbStall(2, h.signal(), h.scope(), m, 0, String.format(
            "delayed write rate %s/s in %s of recent samples at %s.", Fmt.bytes(r.max()),
            Fmt.pct(share), h.scope()));
      }
    }
    if (best.any()) {
      return best;
    }
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_STALL)) {
      double now = job.recentMedian(h);
      if (!(now >= STALL_US_PER_S && now > best.value)) {
        continue; // fails whatever the earlier level: skip sorting it
      }
      double before = job.earlierMedian(h);
      double base = Double.isNaN(before) ? 0 : before;
      if (now >= STALL_US_PER_S && now >= 4 * base && now > best.value) {
        best = new RocksDbStall(1, h.signal(), h.scope(), now, base, String.format(
            "writers stalled %s of the time at %s (was %s).", Fmt.pct(now / 1e6), h.scope(),
            Fmt.pct(base / 1e6)));
      }
    }
    return best;
  }
}
