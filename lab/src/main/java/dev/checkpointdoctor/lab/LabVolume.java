package dev.checkpointdoctor.lab;

import java.nio.file.Path;

/**
 * A volume the lab makes for a disk scenario: a file system on a loop device that node_exporter
 * sees, mounted in the run's work directory; closing it unmounts and detaches everything.
 */
interface LabVolume extends AutoCloseable {
  /** Where the volume is mounted. */
  Path dir();

  /** node_exporter's {@code device} label of the loop device the job writes to. */
  String volumeDevice();

  /** Whether the checkpoints go to the volume too, or only RocksDB's local dir. */
  boolean holdsCheckpoints();

  @Override
  void close();
}
