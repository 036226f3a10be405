package dev.checkpointdoctor.api.bench;

import java.util.List;

/** The series one Prometheus remote-writes for a fleet, in scrape order. */
public interface Fleet {
  List<FlinkFleet.Series> series();

  default int size() {
    return series().size();
  }

  /** Series whose metric name the detector's catalog uses. */
  int usedSeries();
}
