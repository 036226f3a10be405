package dev.checkpointdoctor.lab;

import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * The keys of the data-skew fault: 9 records in 10 go to keys that Flink's key-group assignment
 * (murmur hash of the key's hashCode, then key group to subtask) sends to keyed subtask 0; the
 * tenth keeps the usual spread. Still the same 1,000 keys, so no keyed state is added.
 */
final class SkewKeys {
  /** The keyed subtask that gets hot. */
  static final int HOT_SUBTASK = 0;
  /**
   * Count parks 1 ms every this many records while the fault is on: ~3,000 records/s at most,
   * below the ~3,800/s offered to the hot subtask, so it saturates (~1,000 ms/s busy) and its
   * input queues while its peer gets the rest at a few hundred records/s.
   */
  static final int RECORDS_PER_MS = 3;
  static final long[] HOT = hotKeys();

  private SkewKeys() {}

  static long key(long seq) {
    return seq % 10 == 0 ? seq % 1000 : HOT[(int) ((seq / 10) % HOT.length)];
  }

  private static long[] hotKeys() {
    // the job leaves max parallelism at Flink's default for its parallelism
    int maxParallelism = KeyGroupRangeAssignment.computeDefaultMaxParallelism(LabJob.PARALLELISM);
    return java.util.stream.LongStream.range(0, 1000)
        .filter(k -> KeyGroupRangeAssignment.assignKeyToParallelOperator(k, maxParallelism,
            LabJob.PARALLELISM) == HOT_SUBTASK)
        .toArray();
  }
}
