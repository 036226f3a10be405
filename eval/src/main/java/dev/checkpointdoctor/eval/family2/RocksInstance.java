package dev.checkpointdoctor.eval.family2;

/**
 * One RocksDB instance (one stateful operator subtask) as a leveled LSM tree with RocksDB's
 * write controller: memtables flush to L0 files, background compaction rewrites them into the
 * lower levels, and when compaction falls behind L0 fills up. From 20 L0 files
 * (level0_slowdown_writes_trigger) writes are delayed to {@code delayed_write_rate} (16 MB/s,
 * lowered while it keeps falling behind), from 36 (level0_stop_writes_trigger) they stop; the
 * time writers wait is the {@code rocksdb.stall_micros} ticker.
 *
 * <p>Compaction needs disk I/O (granted by the volume, which may be throttled) and CPU on the
 * background threads (which a CFS quota or a CPU-heavier compaction may starve); whichever is
 * short limits it.
 */
final class RocksInstance {
  static final int SLOWDOWN_L0 = 20;
  static final int STOP_L0 = 36;
  static final double DEFAULT_DELAYED_RATE = 16 * 1048576.0;
  static final double MIN_DELAYED_RATE = 16 * 1024.0;

  final double writeBufferBytes;
  /** Compaction throughput of one background thread at full CPU, bytes/s. */
  final double threadBytesPerSecond;
  final int threads;
  final double baseL0;

  /** Live SST bytes of this instance. */
  double stateBytes;
  /** Compaction work owed beyond the steady state (bytes still to rewrite). */
  double debtBytes;
  /** L0 bytes not yet compacted beyond the steady L0 population. */
  double l0DebtBytes;
  double delayedRate;
  boolean stopped;
  /** Cumulative writer stall time, microseconds (the ticker). */
  double stallMicros;
  /** Bytes written into SST files (flush and compaction output) since the last checkpoint. */
  double newSstBytesSinceCheckpoint;
  /** Bytes the writers may ingest per second right now (the write controller's verdict). */
  double writeCapacity = Double.POSITIVE_INFINITY;
  /** Fraction of the last tick the writers waited, 0..1. */
  double stallFraction;
  double flushBytesPerSecond;
  double compactionBytesPerSecond;
  double l0Phase;
  private double memtableStopPhase;
  private int lastL0;
  private double lastL0Out;

  RocksInstance(double stateBytes, double writeBufferBytes, double threadBytesPerSecond,
      int threads, double baseL0, double l0Phase) {
    this.stateBytes = stateBytes;
    this.writeBufferBytes = writeBufferBytes;
    this.threadBytesPerSecond = threadBytesPerSecond;
    this.threads = threads;
    this.baseL0 = baseL0;
    this.l0Phase = l0Phase;
  }

  /** Write amplification of leveled compaction: grows with the number of levels below L0. */
  double writeAmplification() {
    double levels = Math.max(1, Math.log10(Math.max(stateBytes, writeBufferBytes)
        / writeBufferBytes) / Math.log10(10) + 1);
    return 1 + 2.5 * levels;
  }

  /**
   * Disk bytes per second this instance wants for the ingest rate {@code w}: flush writes plus
   * compaction reads and writes (including paying off debt as fast as the threads allow).
   */
  double wantedWriteBytes(double w) {
    double wa = writeAmplification();
    return w + Math.min(w * (wa - 1) + debtBytes / 60.0, cpuCompactionCeiling(1.0));
  }

  double wantedReadBytes(double w) {
    return Math.min(w * (writeAmplification() - 1) + debtBytes / 60.0,
        cpuCompactionCeiling(1.0));
  }

  double cpuCompactionCeiling(double cpuFactor) {
    return threads * threadBytesPerSecond * cpuFactor;
  }

  /**
   * Advances one tick.
   *
   * @param w bytes per second the operator wrote into RocksDB in this tick
   * @param wanted bytes per second it would have written without the write controller
   * @param diskFraction fraction of its disk demand the volume served
   * @param cpuFactor fraction of CPU the background threads got (1 = unthrottled)
   * @param compactionSlowdown divides the per-thread compaction throughput (CPU-heavier
   *     compaction: a TTL filter wave, heavier compression)
   */
  void step(double w, double wanted, double diskFraction, double cpuFactor,
      double compactionSlowdown, double dt) {
    double wa = writeAmplification();
    double need = w * (wa - 1);
    double capacity = cpuCompactionCeiling(cpuFactor) / compactionSlowdown;
    // the threads offer what they can; the volume serves its share of what is offered
    double done = Math.min(need + debtBytes / 60.0, capacity) * diskFraction;
    debtBytes = Math.max(0, debtBytes + (need - done) * dt);
    // flushes have their own high-priority thread: they slow only with the disk
    double flushed = w * Math.min(1, diskFraction * 1.5);
    // L0 -> L1 is first in line: it falls behind as soon as compaction does, and spare
    // compaction capacity drains the L0 backlog first
    double ratio = need > 0 ? Math.min(1, done / need) : 1;
    double spare = Math.max(0, done - need);
    double l0Out = flushed * ratio + Math.min(l0DebtBytes / 30.0, spare);
    if (need <= 0) {
      l0Out = flushed + Math.min(l0DebtBytes / 30.0, capacity * diskFraction);
    }
    l0DebtBytes = Math.max(0, l0DebtBytes + (flushed - l0Out) * dt);
    lastL0Out = l0Out;
    flushBytesPerSecond = flushed;
    compactionBytesPerSecond = done;
    newSstBytesSinceCheckpoint += (flushed + done * 0.5) * dt;
    l0Phase += flushed * dt / writeBufferBytes;
    double flushCeiling = wanted * Math.min(1, diskFraction * 1.5);
    controller(wanted, flushCeiling, dt);
  }

  int l0Files() {
    double sawtooth = (l0Phase % 4.0);
    return (int) Math.round(Math.min(60, baseL0 + sawtooth * 0.5 + l0DebtBytes / writeBufferBytes));
  }

  /** Pending compaction bytes: RocksDB's estimate is never 0 on a live tree. */
  double pendingCompactionBytes() {
    return debtBytes + l0DebtBytes * 1.5 + stateBytes * 0.002;
  }

  private void controller(double wanted, double flushCeiling, double dt) {
    int l0 = l0Files();
    double capacity;
    double stall;
    if (l0 >= STOP_L0) {
      stopped = true;
      delayedRate = 0;
      capacity = 0;
      stall = 1;
    } else if (l0 >= SLOWDOWN_L0) {
      stopped = false;
      // the write controller starts at delayed_write_rate (16 MB/s), cuts it by 0.8 while the
      // backlog keeps growing and raises it by 1/0.8 while it shrinks
      if (delayedRate <= 0) {
        delayedRate = DEFAULT_DELAYED_RATE;
      } else if (l0 > lastL0) {
        delayedRate = Math.max(MIN_DELAYED_RATE, delayedRate * 0.8);
      } else if (l0 < lastL0) {
        delayedRate = Math.min(DEFAULT_DELAYED_RATE, delayedRate / 0.8);
      }
      capacity = delayedRate;
      stall = wanted > 0 ? Math.max(0.02, 1 - delayedRate / Math.max(wanted, delayedRate)) : 0.02;
    } else {
      stopped = false;
      delayedRate = 0;
      // below the slowdown trigger writes run free, but within one tick they can only fill L0
      // up to the trigger (then the controller delays them): the tick is coarser than RocksDB
      capacity = ((SLOWDOWN_L0 - l0) * writeBufferBytes + lastL0Out * dt) / dt
          + DEFAULT_DELAYED_RATE;
      stall = 0;
    }
    if (flushCeiling < wanted) {
      // memtables cannot be flushed as fast as they fill: with all write buffers full RocksDB
      // stops writes (is-write-stopped) until a flush frees one, on and off
      double starved = 1 - flushCeiling / wanted;
      capacity = Math.min(capacity, flushCeiling);
      stall = Math.max(stall, starved);
      memtableStopPhase += starved;
      if (memtableStopPhase >= 1) {
        memtableStopPhase -= 1;
        stopped = true;
      }
    }
    lastL0 = l0;
    writeCapacity = capacity;
    stallFraction = stall;
    stallMicros += stall * 1e6 * dt;
  }
}
