package dev.checkpointdoctor.eval.family2;

/**
 * The value a series shows when scraped, in the unit and rounding its exporter uses: Flink's
 * long gauges are whole numbers, start delays whole milliseconds in nanoseconds, RocksDB
 * properties unsigned integers, node_exporter and cAdvisor counters cumulative.
 *
 * <p>What varies from scrape to scrape (where in its sawtooth the heap is, the meter's wobble)
 * is drawn from a hash of the series and the timestamp, not from a sequence: a scrape that is
 * not read (outside a played slice) leaves every other reading as it would have been.
 */
final class Readings {
  private final JobPhysics job;
  private final long salt;

  Readings(JobPhysics job, long salt) {
    this.job = job;
    this.salt = salt;
  }

  /** Uniform in [0, 1) from the series and the time (SplitMix64 finaliser). */
  private double uniform(Series s, long ts, int stream) {
    long z = salt ^ (s.labels().hashCode() * 0x9E3779B97F4A7C15L) ^ (ts * 0xBF58476D1CE4E5B9L)
        ^ stream;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return (z >>> 11) * 0x1.0p-53;
  }

  private double wobble(Series s, long ts) {
    // a sum of three uniforms: bell-shaped, unit variance
    return (uniform(s, ts, 1) + uniform(s, ts, 2) + uniform(s, ts, 3) - 1.5) * 2;
  }

  double value(Series s, long ts) {
    Deployment d = job.deployment;
    CheckpointCoordinator c = job.coordinator;
    return switch (s.kind()) {
      case CP_DURATION -> c.lastDuration;
      case CP_SIZE -> c.lastSize;
      case CP_FULL_SIZE -> c.lastFullSize;
      case CP_PERSISTED -> c.lastPersisted;
      case CP_COMPLETED_ID -> c.lastCompletedId;
      case CP_COMPLETED -> c.completed;
      case CP_FAILED -> c.failed;
      case CP_IN_PROGRESS -> c.inProgress() ? 1 : 0;
      case CP_COMPLETED_TS -> c.lastCompletedTs;
      case RESTARTS -> job.restarts;
      case START_DELAY -> d.startDelayNanos[s.v()][s.i()];
      case ALIGNMENT -> d.alignmentNanos[s.v()][s.i()];
      case BACKPRESSURED -> Math.round(d.backpressure[s.v()][s.i()]);
      case BUSY -> s.v() == 0 && job.plan.cluster().legacySource() ? Double.NaN
          : Math.round(d.busy[s.v()][s.i()]);
      case RECORDS_IN -> d.recordsIn[s.v()][s.i()] * (1 + 0.01 * wobble(s, ts));
      case RDB_PENDING -> Math.floor(rocks(s).pendingCompactionBytes() * cfWeight(s));
      case RDB_DELAYED -> Math.floor(rocks(s).delayedRate);
      case RDB_STOPPED -> rocks(s).stopped ? 1 : 0;
      case RDB_L0 -> s.cf() == 0 ? rocks(s).l0Files() : (uniform(s, ts, 4) < 0.3 ? 1 : 0);
      case RDB_STALL -> Math.floor(rocks(s).stallMicros);
      case GC_RATE -> d.jvms.get(s.v()).gcRateSmoothed;
      case GC_TIME -> Math.floor(d.jvms.get(s.v()).collectorTimeMs[s.i()]);
      case HEAP_USED -> d.jvms.get(s.v()).heapUsed(uniform(s, ts, 5), uniform(s, ts, 6));
      case HEAP_MAX -> d.jvms.get(s.v()).heapMax;
      case DISK_READS -> Math.floor(disk(s).reads);
      case DISK_WRITES -> Math.floor(disk(s).writes);
      case DISK_WRITTEN_BYTES -> Math.floor(disk(s).writtenBytes / 512) * 512;
      case DISK_IO_TIME -> Math.floor(disk(s).ioTimeS * 1000) / 1000;
      case DISK_READ_TIME -> Math.floor(disk(s).readTimeS * 1000) / 1000;
      case DISK_WRITE_TIME -> Math.floor(disk(s).writeTimeS * 1000) / 1000;
      case CFS_PERIODS -> s.v() < 0 ? neighbourPeriods(ts) : d.cfs.get(s.v()).periodsCounter();
      case CFS_THROTTLED -> s.v() < 0 ? Math.floor(neighbourPeriods(ts) * 0.015)
          : d.cfs.get(s.v()).throttledCounter();
    };
  }

  private RocksInstance rocks(Series s) {
    return job.deployment.rocks[s.v()][s.i()];
  }

  /** The first state holds most of the data; timers and small states hold little. */
  private static double cfWeight(Series s) {
    return s.cf() == 0 ? 0.9 : 0.1 / (1 + s.cf());
  }

  private DiskVolume disk(Series s) {
    return s.i() == 0 ? job.data[s.v()] : job.root[s.v()];
  }

  /** A log shipper on the same node: steady, lightly throttled. */
  private static double neighbourPeriods(long ts) {
    return Math.floor((ts / 1000.0 - 1.7e9) * 10 * 0.35);
  }
}
