package dev.checkpointdoctor.lab;

/**
 * Switches the running job reads. The MiniCluster runs in this JVM with the application class
 * loader as user-code class loader, so a static volatile is seen by every task.
 */
public final class Faults {
  /** back-pressure: the map before the sink sleeps per record. */
  public static volatile boolean slowMap;
  /** state growth: the source emits never-seen keys, each adding keyed state without TTL. */
  public static volatile boolean growState;
  /** slow checkpoint storage: every write to slowfile:// sleeps. */
  public static volatile boolean slowStorage;

  /** GC pressure: the map keeps a cache that fills most of the heap and churns garbage. */
  public static volatile boolean gcPressure;

  /** Data skew: the source sends most records to keys of one keyed subtask, which does costly work per record. */
  public static volatile boolean dataSkew;

  /** Short interval: creating each checkpoint's directory on slowfile:// takes a fixed time. */
  public static volatile boolean slowCheckpointStart;

  /** Burstable disk: the volume's credit bucket is (nearly) empty; read by {@link BurstableDisk}. */
  public static volatile boolean diskCreditsExhausted;

  /** CPU throttling: the CFS quota of the TaskManager's work is cut; read by {@link CpuQuota}. */
  public static volatile boolean cpuQuotaCut;

  /** Slow NFS-like disk under RocksDB: its FUSE server delays every request; read by {@link NfsLikeDisk}. */
  public static volatile boolean nfsSlow;

  /**
   * Not a fault: the disk scenario's job writes enough to load a disk all the time (more keys,
   * a 1 KB value rewritten on every record), so that the volume's baseline is below its demand.
   * Set before the job starts.
   */
  public static volatile boolean heavyWrites;

  private Faults() {}
}
