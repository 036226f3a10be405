package dev.checkpointdoctor.detector.model;

import java.util.Locale;
import java.util.Optional;

/**
 * A named, unit-normalised quantity derived from raw metrics. The API and alert labels use {@link
 * #id()}. {@code absoluteFloor} is the smallest band half-width that still means something in the
 * signal's unit: without it a signal that never moved (MAD = 0) would flag every wobble.
 */
public enum Signal {
  /** Duration of the last completed checkpoint, ms; one observation per completed checkpoint. */
  CHECKPOINT_DURATION("ms", Direction.UP, 250),
  /** Checkpointed (incremental) size of the last completed checkpoint, bytes. */
  CHECKPOINT_SIZE("bytes", Direction.UP, 1 << 20),
  /** Full referenced state size of the last completed checkpoint, bytes. */
  CHECKPOINT_FULL_SIZE("bytes", Direction.UP, 1 << 20),
  /** In-flight data persisted by the last completed (unaligned) checkpoint, bytes. */
  CHECKPOINT_PERSISTED_DATA("bytes", Direction.UP, 1 << 20),
  /** Failed checkpoints within the trailing failure window (event time). */
  CHECKPOINT_FAILURES("count", Direction.UP, 0.5),
  /** Seconds since the last completed checkpoint. */
  CHECKPOINT_AGE("s", Direction.UP, 30),
  /** Checkpoints in progress. */
  CHECKPOINT_IN_PROGRESS("count", Direction.NONE, 0.5),
  /**
   * Share of the time spent checkpointing: the newest completed checkpoints' median duration
   * over the spacing between their completions (0..1; 1 = each starts as the last ends). One
   * observation per completed checkpoint, from the fifth of a job_id's run on.
   */
  CHECKPOINT_BUSY_SHARE("ratio", Direction.UP, 0.2),
  /** Barrier travel time from checkpoint trigger to this subtask, ms. */
  CHECKPOINT_START_DELAY("ms", Direction.UP, 250),
  /** Time between first and last barrier at this subtask, ms. */
  CHECKPOINT_ALIGNMENT("ms", Direction.UP, 250),
  /** Back-pressured time, ms per second (0..1000). */
  BACKPRESSURE("ms/s", Direction.UP, 100),
  /** Busy time, ms per second (0..1000). */
  BUSY("ms/s", Direction.UP, 100),
  /** Records in per second. */
  RECORDS_IN("1/s", Direction.DOWN, 1),
  /**
   * Job (re)starts seen in this observation: failover restarts of the same job_id (scope {@code
   * job}, the increment of numRestarts), and 1 in scope {@link #START_SCOPE} when the job appears
   * under a new job_id (resubmitted, redeployed) or with no completed checkpoint yet (just
   * submitted). Context, never an anomaly; the job's other baselines treat either as a start-up
   * (see SignalTracker#jobStarted).
   */
  RESTARTS("count", Direction.NONE, 0.5),
  /** Garbage-collection time, ms per second. */
  GC_TIME("ms/s", Direction.UP, 20),
  /** Heap used as a fraction of heap max (0..1). */
  HEAP_USAGE("ratio", Direction.UP, 0.05),
  /** RocksDB estimated pending compaction bytes. */
  ROCKSDB_PENDING_COMPACTION("bytes", Direction.UP, 64 << 20),
  /** RocksDB write throttle rate, bytes/s (0 = no throttling). */
  ROCKSDB_DELAYED_WRITE_RATE("bytes/s", Direction.UP, 1),
  /** 1 when RocksDB stopped writes. */
  ROCKSDB_WRITE_STOPPED("bool", Direction.UP, 0.1),
  /** RocksDB files at level 0. */
  ROCKSDB_L0_FILES("count", Direction.UP, 2),
  /** RocksDB writer stall time, microseconds per second. */
  ROCKSDB_STALL("us/s", Direction.UP, 1000),
  /** Disk write operations per second. */
  DISK_WRITE_IOPS("1/s", Direction.NONE, 20),
  /** Disk read operations per second. */
  DISK_READ_IOPS("1/s", Direction.NONE, 20),
  /** Disk bytes written per second. */
  DISK_WRITE_BYTES("bytes/s", Direction.NONE, 1 << 20),
  /** Fraction of time the disk was busy (0..1). */
  DISK_UTILIZATION("ratio", Direction.UP, 0.1),
  /** Average latency per disk operation, ms. */
  DISK_LATENCY("ms", Direction.UP, 2),
  /** Fraction of CFS periods in which the container was throttled (0..1). */
  CPU_THROTTLING("ratio", Direction.UP, 0.05);

  /**
   * Scope of the {@link #RESTARTS} observation that reports a new deployment: a new job_id, or a
   * job seen before its first completed checkpoint.
   */
  public static final String START_SCOPE = "start";

  private final String id;
  private final String unit;
  private final Direction direction;
  private final double absoluteFloor;

  Signal(String unit, Direction direction, double absoluteFloor) {
    this.id = name().toLowerCase(Locale.ROOT);
    this.unit = unit;
    this.direction = direction;
    this.absoluteFloor = absoluteFloor;
  }

  /** The snake_case name used in the API, in alerts and in the snapshot. */
  public String id() {
    return id;
  }

  public String unit() {
    return unit;
  }

  public Direction direction() {
    return direction;
  }

  public double absoluteFloor() {
    return absoluteFloor;
  }

  /**
   * Whether a lasting, stable departure of this signal may become its new normal. Failed
   * checkpoints and stopped writes are trouble at any steady level, so they never do.
   */
  public boolean mayBecomeNormal() {
    return this != CHECKPOINT_FAILURES && this != ROCKSDB_WRITE_STOPPED;
  }

  /**
   * Whether a new deployment starts this signal's baseline afresh. A deploy may change what
   * normal is (state, parallelism, load), so most baselines relearn; the share of time spent
   * checkpointing is set by the interval a deploy configures, so a deploy that shortens it is
   * the very change to judge, against the share before it.
   */
  public boolean relearnsAtDeploy() {
    return mayBecomeNormal() && this != CHECKPOINT_BUSY_SHARE;
  }

  /**
   * Whether values out of band right after a start are forgiven as the start-up's. The busy
   * share is read from a run's fifth completion on, past its start-up already: forgiving it
   * would only delay the news that a redeploy made checkpoints run back to back.
   */
  public boolean settlesAtStart() {
    return this != CHECKPOINT_BUSY_SHARE;
  }

  /**
   * The level below which a value is never out of its band, whatever the band says, or -Inf.
   * Checkpoints that leave a job a quarter of its time or more between them are no trouble,
   * however much more of it they take than before.
   */
  public double troubleFrom() {
    return this == CHECKPOINT_BUSY_SHARE ? 0.75 : Double.NEGATIVE_INFINITY;
  }

  /**
   * Whether the quantity can never be below zero. Every signal is a duration, a size, a count, a
   * rate or a ratio, so all are; a signal that could go negative would say so here.
   */
  public boolean nonNegative() {
    return true;
  }

  /**
   * A lower band edge as shown to people: a band reaching below zero for a quantity that cannot
   * be negative is clipped at zero (the baseline itself keeps its symmetric band). NaN stays NaN.
   */
  public double shownLower(double lower) {
    return nonNegative() && lower < 0 ? 0 : lower;
  }

  public static Optional<Signal> byId(String id) {
    for (Signal s : values()) {
      if (s.id.equals(id)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
