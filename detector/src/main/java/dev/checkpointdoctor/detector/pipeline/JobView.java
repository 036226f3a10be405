package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.Anomaly;
import dev.checkpointdoctor.detector.model.BaselineSummary;
import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;
import java.util.List;

/** A read-only look at one job's state, for the diagnoser. Valid only during the call. */
public interface JobView {
  String job();

  /** Event time of the newest sample the detector has seen. */
  long eventTimeMs();

  List<Anomaly> openAnomalies();

  List<BaselineSummary> baselines();

  /**
   * Recent raw observations of {@code signal} in every scope of the job that has some, by scope.
   * Bounded to the last two hours of event time; not restored from snapshots.
   */
  default List<SeriesHistory> history(Signal signal) {
    return List.of();
  }

  /**
   * node_exporter samples no job's TaskManagers could be joined to, over all jobs since start,
   * or -1 when not known: a job without disk series and a positive count has its node_exporter
   * series arriving but unjoined.
   */
  default long unjoinedNodeSamples() {
    return -1;
  }

  /** The same for cAdvisor container samples. */
  default long unjoinedContainerSamples() {
    return -1;
  }
}
