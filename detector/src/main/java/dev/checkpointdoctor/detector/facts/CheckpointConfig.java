package dev.checkpointdoctor.detector.facts;

import java.util.List;

/**
 * A job's checkpoint configuration as its JobManager reports it. Durations are milliseconds; -1
 * (or null) where the JobManager did not say.
 *
 * @param storageScheme scheme of the checkpoint directory ({@code s3}, {@code hdfs}, {@code
 *     file}, …), or null
 * @param rocksDbLocalDirs {@code state.backend.rocksdb.localdir}, split (empty: RocksDB's default
 *     under the TaskManager's temp dirs, or no RocksDB)
 */
public record CheckpointConfig(long timeoutMs, long intervalMs, long minPauseMs,
    int maxConcurrent, Boolean unaligned, String mode, String stateBackend,
    String checkpointStorage, String checkpointDir, String storageScheme,
    List<String> rocksDbLocalDirs) {

  public CheckpointConfig {
    rocksDbLocalDirs = rocksDbLocalDirs == null ? List.of() : List.copyOf(rocksDbLocalDirs);
  }

  /** The scheme of a checkpoint directory URI: "s3a://b/p" → "s3a", "/data/cp" → "file". */
  public static String schemeOf(String dir) {
    if (dir == null || dir.isBlank()) {
      return null;
    }
    int colon = dir.indexOf("://");
    if (colon <= 0) {
      return dir.startsWith("/") ? "file" : null;
    }
    return dir.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
  }
}
