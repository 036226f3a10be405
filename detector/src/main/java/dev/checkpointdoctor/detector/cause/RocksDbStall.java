package dev.checkpointdoctor.detector.cause;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * The strongest sign that RocksDB is holding writes back, across the job's operator scopes:
 * writes stopped, a delayed-write rate, or writer stall time higher than before.
 *
 * @param strength 0 none; 1 stall time up only; 2 writes delayed or stopped
 * @param value the share of recent samples (stops, delays) or the stall time now
 * @param before the same before the trouble
 */
record RocksDbStall(int strength, Signal signal, String scope, double value, double before,
    String sentence) {

  /** Stall time (µs/s) that counts: 1 % of wall time. */
  static final double STALL_US_PER_S = 10_000;
  /** RocksDB stops or delays writes only under pressure: more than this share of samples. */
  static final double STOPPED_SHARE = 0.05;
  static final double DELAYED_SHARE = 0.2;

  boolean any() {
    return strength > 0;
  }

  static RocksDbStall find(JobEvidence job) {
    return job.memo("rocksdb_stall", () -> search(job));
  }

  private static RocksDbStall search(JobEvidence job) {
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_WRITE_STOPPED)) {
      double share = Stats.fractionAtLeast(job.present(h), 0.5);
      double before = Stats.fractionAtLeast(job.earlier(h), 0.5);
      if (share > STOPPED_SHARE && share > 2 * before) {
        return new RocksDbStall(2, h.signal(), h.scope(), share, before, String.format(
            "writes stopped in %s of recent samples at %s (%s before).", Fmt.pct(share),
            h.scope(), Fmt.pct(before)));
      }
    }
    RocksDbStall best = new RocksDbStall(0, Signal.ROCKSDB_STALL, "", 0, 0, "");
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_DELAYED_WRITE_RATE)) {
      double[] r = job.present(h);
      double share = Stats.fractionAtLeast(r, 1);
      double before = Stats.fractionAtLeast(job.earlier(h), 1);
      if (share > DELAYED_SHARE && share > 2 * before && best.strength < 2) {
        best = new RocksDbStall(2, h.signal(), h.scope(), share, before, String.format(
            "delayed write rate up to %s/s in %s of recent samples at %s (%s before).",
            Fmt.bytes(Stats.max(r)), Fmt.pct(share), h.scope(), Fmt.pct(before)));
      }
    }
    if (best.any()) {
      return best;
    }
    return stallTime(job);
  }

  /** Writer stall time higher than before and at least 1 % of wall time, or none. */
  static RocksDbStall stallTime(JobEvidence job) {
    RocksDbStall best = new RocksDbStall(0, Signal.ROCKSDB_STALL, "", 0, 0, "");
    for (SeriesHistory h : job.histories(Signal.ROCKSDB_STALL)) {
      if (!(job.recentMedian(h) >= STALL_US_PER_S)) {
        continue; // fails whatever the earlier level: skip the test
      }
      Change c = job.change(h);
      if (c.higher() && c.now() > best.value) {
        best = new RocksDbStall(1, h.signal(), h.scope(), c.now(), c.before(), String.format(
            "writers stalled %s of the time at %s, was %s (%s).", Fmt.pct(c.now() / 1e6),
            h.scope(), Fmt.pct(c.before() / 1e6), c.test(true)));
      }
    }
    return best;
  }
}
