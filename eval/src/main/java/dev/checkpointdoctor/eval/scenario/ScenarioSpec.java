package dev.checkpointdoctor.eval.scenario;

/**
 * What one scenario simulates. Sizes are totals over the job; rates are per second.
 *
 * @param expected the cause id that should be diagnosed, or {@code healthy}
 * @param fault the fault injected from {@code normalHours} on, or null for a healthy control
 * @param flinkVersion {@code 1.20.3} or {@code 2.3.0} (2.x adds lastCheckpointCompletedTimestamp)
 * @param rocksdb how RocksDB native metrics are named, or {@link RocksDbShape#NONE} for the heap
 *     (hashmap) backend
 * @param kubernetes TaskManagers run in pods: cAdvisor series exist and node_exporter series
 *     carry a {@code node} label; otherwise node_exporter is joined through {@code instance}
 * @param normalHours event time of normal operation before the fault
 * @param faultHours event time of the fault, lasting to the end
 * @param severity how hard the fault bites, around 1 (for storage: below 1 some checkpoints still
 *     complete, above 1 none does)
 * @param traits production behaviour beyond the fault ({@link ProductionTraits#NONE} for the
 *     original corpus)
 */
public record ScenarioSpec(
    String name,
    String expected,
    Fault fault,
    String description,
    String flinkVersion,
    RocksDbShape rocksdb,
    boolean kubernetes,
    int parallelism,
    int slotsPerTm,
    int scrapeSeconds,
    int checkpointIntervalSeconds,
    double stateBytes,
    double recordsPerSecond,
    double noise,
    boolean incremental,
    boolean unaligned,
    double normalHours,
    double faultHours,
    double severity,
    Control control,
    ProductionTraits traits) {

  /** A scenario of the original corpus: no production traits. */
  public ScenarioSpec(String name, String expected, Fault fault, String description,
      String flinkVersion, RocksDbShape rocksdb, boolean kubernetes, int parallelism,
      int slotsPerTm, int scrapeSeconds, int checkpointIntervalSeconds, double stateBytes,
      double recordsPerSecond, double noise, boolean incremental, boolean unaligned,
      double normalHours, double faultHours, double severity, Control control) {
    this(name, expected, fault, description, flinkVersion, rocksdb, kubernetes, parallelism,
        slotsPerTm, scrapeSeconds, checkpointIntervalSeconds, stateBytes, recordsPerSecond, noise,
        incremental, unaligned, normalHours, faultHours, severity, control, ProductionTraits.NONE);
  }

  /** How RocksDB property metrics are named ({@code column-family-as-variable}). */
  public enum RocksDbShape {
    COLUMN_FAMILY_LABEL, PER_STATE_NAME, NONE
  }

  /** Healthy-control behaviours that must not be flagged. */
  public enum Control {
    NONE, DAILY_LOAD, RESTART, ISOLATED_SLOW_CHECKPOINT
  }

  /** Injected faults, one per cause id. */
  public enum Fault {
    DISK_THROTTLING("disk_throttling"),
    STATE_GROWTH("state_growth"),
    BACKPRESSURE("backpressure"),
    UNALIGNED_CHECKPOINT_INFLATION("unaligned_checkpoint_inflation"),
    ROCKSDB_WRITE_STALL("rocksdb_write_stall"),
    GC_PRESSURE("gc_pressure"),
    CHECKPOINT_STORAGE_SLOW("checkpoint_storage_slow"),
    DATA_SKEW("data_skew"),
    CPU_THROTTLING("cpu_throttling"),
    CHECKPOINT_INTERVAL_TOO_SHORT("checkpoint_interval_too_short");

    private final String causeId;

    Fault(String causeId) {
      this.causeId = causeId;
    }

    public String causeId() {
      return causeId;
    }
  }

  public boolean flink2() {
    return flinkVersion.startsWith("2.");
  }

  public int taskManagers() {
    return taskManagers(parallelism);
  }

  int taskManagers(int p) {
    return (p + slotsPerTm - 1) / slotsPerTm;
  }

  /** The largest parallelism the job runs with (before or after a redeploy). */
  int maxParallelism() {
    return Math.max(parallelism, traits.parallelismAfter());
  }

  public long durationMs() {
    return (long) ((normalHours + faultHours) * 3_600_000L);
  }
}
