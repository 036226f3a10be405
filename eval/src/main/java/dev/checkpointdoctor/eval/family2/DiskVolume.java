package dev.checkpointdoctor.eval.family2;

/**
 * One block device as node_exporter's diskstats sees it, with the service model of the volume
 * behind it: an EBS gp2 volume earns I/O credits at its baseline (3 IOPS per GiB, at least 100)
 * and may spend them up to 3,000 IOPS until the 5.4 M credit bucket is empty, after which it
 * serves its baseline only; gp3, large gp2 and local NVMe serve a fixed ceiling.
 *
 * <p>Demand above what the device serves queues in the block layer: served IOPS sit at the
 * ceiling, utilisation ({@code io_time}) approaches 1 and the time per operation grows with the
 * queue (bounded by the request queue depth), which is what {@code node_disk_*_time_seconds_total}
 * shows.
 */
final class DiskVolume {
  /** What the volume is. */
  enum Kind {
    GP2, GP3, NVME;
  }

  static final double GP2_BUCKET = 5_400_000;
  static final double GP2_BURST = 3_000;

  final Kind kind;
  final String device;
  final double sizeGiB;
  final double baselineIops;
  final double burstIops;
  final double bytesCeiling;
  final double baseLatencyS;
  private final double queueDepth;
  private double credits;

  // node_exporter counters (cumulative since boot)
  double reads;
  double writes;
  double readBytes;
  double writtenBytes;
  double ioTimeS;
  double readTimeS;
  double writeTimeS;
  // last tick, for inspection by tests and the fault pre-pass
  double servedIops;
  double demandIops;
  double demandBytes;
  /** Time per operation in the last tick, seconds. */
  double latencyS = 0.0006;

  DiskVolume(Kind kind, String device, double sizeGiB, double provisionedIops, double bootCounterSeed) {
    this.kind = kind;
    this.device = device;
    this.sizeGiB = sizeGiB;
    switch (kind) {
      case GP2 -> {
        baselineIops = Math.min(16_000, Math.max(100, 3 * sizeGiB));
        burstIops = Math.max(baselineIops, GP2_BURST);
        bytesCeiling = (sizeGiB <= 170 ? 128 : 250) * 1048576.0;
        baseLatencyS = 0.0006;
        queueDepth = 32;
      }
      case GP3 -> {
        baselineIops = Math.max(3000, provisionedIops);
        burstIops = baselineIops;
        bytesCeiling = 125 * 1048576.0 * Math.max(1, provisionedIops / 3000);
        baseLatencyS = 0.0007;
        queueDepth = 32;
      }
      default -> {
        baselineIops = 150_000;
        burstIops = baselineIops;
        bytesCeiling = 1_500 * 1048576.0;
        baseLatencyS = 0.00012;
        queueDepth = 128;
      }
    }
    credits = GP2_BUCKET;
    // a node that has been up for a while: counters do not start at 0
    reads = Math.floor(bootCounterSeed * 4e6);
    writes = Math.floor(bootCounterSeed * 9e6);
    readBytes = reads * 32768;
    writtenBytes = writes * 65536;
    ioTimeS = bootCounterSeed * 2e4;
    readTimeS = bootCounterSeed * 3e3;
    writeTimeS = bootCounterSeed * 8e3;
  }

  boolean bursts() {
    return kind == Kind.GP2 && burstIops > baselineIops;
  }

  double credits() {
    return credits;
  }

  /** What the device can serve in the next {@code dt} seconds, in operations per second. */
  double iopsCeiling(double dt) {
    // a burstable volume spends credits above its baseline, never more than it has
    return bursts() ? Math.min(burstIops, baselineIops + credits / dt) : baselineIops;
  }

  /**
   * Serves one tick of demand and advances the counters.
   *
   * @param readIops read operations wanted per second
   * @param writeIops write operations wanted per second
   * @param readBps bytes per second wanted to read
   * @param writeBps bytes per second wanted to write
   * @param jitter a standard normal draw: the limit is enforced over short windows, so IOPS at
   *     the ceiling wobble by about 1 %
   * @return the fraction of the demand served (1 = all of it)
   */
  double serve(double readIops, double writeIops, double readBps, double writeBps, double dt,
      double jitter) {
    double iops = readIops + writeIops;
    double bytes = readBps + writeBps;
    demandIops = iops;
    demandBytes = bytes;
    double ceiling = iopsCeiling(dt);
    double fraction = 1;
    if (iops > ceiling) {
      fraction = ceiling / iops;
    }
    if (bytes * fraction > bytesCeiling) {
      fraction = bytesCeiling / bytes;
    }
    double served = iops * fraction;
    if (bursts()) {
      // credits are earned at the baseline rate and spent by every operation served
      credits = Math.max(0, Math.min(GP2_BUCKET, credits + (baselineIops - served) * dt));
    }
    double rho = ceiling > 0 ? iops / ceiling : 0;
    if (fraction < 1) {
      fraction *= 1 + 0.01 * jitter;
    }
    servedIops = iops * fraction;
    double latency;
    if (rho >= 0.97 || fraction < 1) {
      // saturated: the request queue is full, each request waits for the ones ahead of it
      latency = Math.min(queueDepth, 1 + Math.max(0, rho - 0.97) * queueDepth * 2) / ceiling
          + baseLatencyS;
    } else {
      latency = baseLatencyS / (1 - rho);
    }
    latencyS = latency;
    // Little's law: operations in flight = rate x time each; the device is busy while at least
    // one is, and requests overlap (about 2.5 in flight when any is)
    double busy = Math.min(1, servedIops * latency / 2.5);
    double r = readIops * fraction * dt;
    double w = writeIops * fraction * dt;
    reads += r;
    writes += w;
    readBytes += readBps * fraction * dt;
    writtenBytes += writeBps * fraction * dt;
    ioTimeS += busy * dt;
    readTimeS += r * latency * 0.8;
    writeTimeS += w * latency;
    return fraction;
  }
}
